import { subscriptionCancelRequestSchema, subscriptionExtendRequestSchema } from '@cartable/contracts';
import { operatorLabels, paymentStatusLabels, planKindLabels } from '@cartable/contracts/labels';
import {
  Button,
  errorMessage,
  formatDate,
  formatDateTime,
  formatPrice,
  LoadFailed,
  notify,
  Skeleton,
} from '@cartable/ui';
import { Dialog } from '@cartable/ui/overlays';
import { Link } from '@cartable/ui/router';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { SubscriptionStatusBadge } from '../../entities/subscription/SubscriptionStatusBadge';
import { LOAD_ERROR } from '../../shared/messages';
import { ReasonDialog } from '../../shared/ReasonDialog';
import { adminSubscriptionQuery, useSubscriptionAction } from './api/subscriptions';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="mt-5">
      <h3 className="mb-2 text-sm font-semibold tracking-wide text-slate-500 uppercase">{title}</h3>
      {children}
    </section>
  );
}

/** One member's subscription: plan, dates, payments, boosted listings, audit; cancel or extend with a reason. */
export function SubscriptionDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  const query = useQuery({ ...adminSubscriptionQuery(id ?? ''), enabled: id !== null });
  const s = query.data;
  const action = useSubscriptionAction();
  const [asking, setAsking] = useState<'cancel' | 'extend' | null>(null);
  const live = s?.status === 'active' || s?.status === 'pending_payment';

  return (
    <>
      <Dialog
        open={id !== null}
        onClose={onClose}
        size="lg"
        title={s ? `${s.plan.name} · ${s.user_name ?? 'Membre'}` : 'Abonnement'}
        description={s ? planKindLabels[s.plan.kind] : undefined}
        footer={
          s && live ? (
            <>
              <Button variant="outline" onClick={() => setAsking('extend')}>
                Prolonger
              </Button>
              <Button variant="danger" onClick={() => setAsking('cancel')}>
                Annuler l’abonnement
              </Button>
            </>
          ) : undefined
        }
      >
        {query.isError ? (
          <LoadFailed title={LOAD_ERROR} query={query} fallback="L’abonnement n’a pas pu être chargé." />
        ) : !s ? (
          <div className="space-y-3" aria-busy="true">
            <Skeleton className="h-6 w-1/2" />
            <Skeleton className="h-24 w-full" />
            <Skeleton className="h-24 w-full" />
          </div>
        ) : (
          <div className="text-sm" data-testid="subscription-drawer">
            <div className="flex flex-wrap items-center gap-2">
              <SubscriptionStatusBadge status={s.status} />
              <span className="text-slate-600">
                {formatPrice(s.plan.price)} · {s.plan.duration_days} j
                {s.status === 'active' ? ` · ${s.days_left} j restants` : ''}
              </span>
            </div>
            <dl className="mt-3 grid grid-cols-2 gap-2">
              <div>
                <dt className="text-slate-500">Début</dt>
                <dd>{s.starts_at ? formatDateTime(s.starts_at) : '—'}</dd>
              </div>
              <div>
                <dt className="text-slate-500">Fin</dt>
                <dd>{s.ends_at ? formatDateTime(s.ends_at) : '—'}</dd>
              </div>
              {s.cancel_reason ? (
                <div className="col-span-2">
                  <dt className="text-slate-500">Motif d’arrêt</dt>
                  <dd>{s.cancel_reason}</dd>
                </div>
              ) : null}
            </dl>
            <Section title="Paiements">
              {s.payments.length === 0 ? (
                <p className="text-slate-600">Aucun paiement.</p>
              ) : (
                <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200">
                  {s.payments.map((p) => (
                    <li key={p.id} className="flex flex-wrap items-center justify-between gap-2 p-2">
                      <Link to={`/admin/payments/${p.id}`} className="font-mono text-primary-700 hover:underline">
                        {p.reference}
                      </Link>
                      <span>
                        {formatPrice(p.amount)} · {operatorLabels[p.operator]} · {paymentStatusLabels[p.status]}
                        {p.refunded_amount ? ` · remboursé ${formatPrice(p.refunded_amount)}` : ''}
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </Section>
            <Section title="Annonces mises en avant">
              {s.book_history.length === 0 ? (
                <p className="text-slate-600">Aucune.</p>
              ) : (
                <ul className="space-y-1">
                  {s.book_history.map((b) => (
                    <li key={b.id} className="flex flex-wrap justify-between gap-2">
                      <Link to={`/books/${b.book_id}`} className="text-primary-700 hover:underline">
                        {b.book_title}
                      </Link>
                      <span className="text-slate-600">
                        {formatDate(b.starts_at)} → {formatDate(b.ended_at ?? b.ends_at)}
                        {b.end_reason ? ` (${b.end_reason})` : b.ended_at ? '' : ' · en cours'}
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </Section>
            <Section title="Journal">
              {s.audit.length === 0 ? (
                <p className="text-slate-600">Aucune entrée.</p>
              ) : (
                <ol className="space-y-1">
                  {s.audit.map((entry) => (
                    <li key={entry.id} className="flex flex-wrap gap-x-2">
                      <span className="text-slate-500">{formatDateTime(entry.created_at)}</span>
                      <span className="font-medium">{entry.action}</span>
                      {typeof entry.detail.reason === 'string' ? (
                        <span className="text-slate-600">« {entry.detail.reason} »</span>
                      ) : null}
                    </li>
                  ))}
                </ol>
              )}
            </Section>
          </div>
        )}
      </Dialog>
      <ReasonDialog
        open={asking === 'cancel'}
        onClose={() => setAsking(null)}
        title="Annuler cet abonnement ?"
        description="La mise en avant s’arrête aussitôt ; le membre est prévenu par e-mail. Pour rendre l’argent, remboursez le paiement."
        confirmLabel="Annuler l’abonnement"
        danger
        schema={subscriptionCancelRequestSchema}
        loading={action.isPending}
        onConfirm={({ reason }) =>
          s &&
          action.mutate(
            { id: s.id, action: 'cancel', body: { reason } },
            {
              onSuccess: (answer) => {
                setAsking(null);
                void notify.success(answer.message ?? 'Abonnement annulé');
              },
              onError: (error) => void notify.error(errorMessage(error, 'Erreur lors de l’annulation')),
            },
          )
        }
      />
      <ReasonDialog
        open={asking === 'extend'}
        onClose={() => setAsking(null)}
        title="Prolonger cet abonnement"
        confirmLabel="Prolonger"
        schema={subscriptionExtendRequestSchema}
        numberField={{ name: 'days', label: 'Nombre de jours', hint: 'De 1 à 366' }}
        loading={action.isPending}
        onConfirm={({ reason, number }) =>
          s &&
          action.mutate(
            { id: s.id, action: 'extend', body: { reason, days: number } },
            {
              onSuccess: (answer) => {
                setAsking(null);
                void notify.success(answer.message ?? 'Abonnement prolongé');
              },
              onError: (error) => void notify.error(errorMessage(error, 'Erreur lors de la prolongation')),
            },
          )
        }
      />
    </>
  );
}
