import { paymentRejectRequestSchema, refundRequestSchema } from '@cartable/contracts';
import { operatorLabels, paymentProviderLabels, paymentStatusLabels, planKindLabels } from '@cartable/contracts/labels';
import {
  API_BASE,
  ApiError,
  Button,
  Card,
  CardBody,
  CardHeader,
  CardTitle,
  ChevronLeftIcon,
  DownloadIcon,
  EmptyState,
  errorMessage,
  formatDateTime,
  formatPhone,
  formatPrice,
  isNotFound,
  LoadFailed,
  notify,
  PageHeader,
  Skeleton,
  sessionStore,
  useDocumentTitle,
} from '@cartable/ui';
import { ConfirmDialog } from '@cartable/ui/overlays';
import { Link, useLocation, useParams } from '@cartable/ui/router';
import { type ReactNode, useState } from 'react';
import { SubscriptionStatusBadge } from '../../entities/subscription/SubscriptionStatusBadge';
import { LOAD_ERROR } from '../../shared/messages';
import { ReasonDialog } from '../../shared/ReasonDialog';
import { type AdminPaymentDetail, usePayment, usePaymentAction } from './api/payments';
import { PaymentStatusBadge } from './PaymentStatusBadge';

const EVENT_LABELS: Record<string, string> = {
  initiated: 'Paiement créé',
  initiate_failed: 'Demande à l’agrégateur refusée',
  initiate_unknown: 'Demande à l’agrégateur sans réponse',
  status: 'Réponse de l’agrégateur à notre question',
  status_mismatch: 'Réponse de l’agrégateur incohérente',
  callback: 'Appel de l’agrégateur (non signé : vérifié par une question)',
  unreconciled: 'Aucune réponse de l’agrégateur : à vérifier',
  late_paid: 'Payé après l’échéance',
  refund_sent: 'Remboursement envoyé à l’agrégateur',
  refund_not_sent: 'Remboursement à faire à la main',
  submitted: 'Déclaré par le membre',
  webhook: 'Notification de l’agrégateur',
  webhook_mismatch: 'Notification de l’agrégateur incohérente',
  paid: 'Payé',
  failed: 'Refusé par l’opérateur',
  validated: 'Validé',
  rejected: 'Refusé',
  expired: 'Expiré',
  refunded: 'Remboursé',
  duplicate_ignored: 'Notification en double ignorée',
  mismatch: 'Montant ou référence incohérents',
};

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="py-2">
      <dt className="text-xs font-medium text-slate-500">{label}</dt>
      <dd className="mt-0.5 text-sm break-words text-slate-900">{children}</dd>
    </div>
  );
}

async function downloadReceipt(payment: AdminPaymentDetail) {
  const token = sessionStore.getState().token;
  const response = await fetch(`${API_BASE}/payments/${encodeURIComponent(payment.id)}/receipt`, {
    headers: { Accept: 'application/pdf', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
  }).catch(() => {
    throw new ApiError(0, 'Erreur de connexion. Vérifiez votre connexion internet et réessayez.');
  });
  if (!response.ok)
    throw new ApiError(response.status, 'Le reçu n’a pas pu être téléchargé.', { hasServerMessage: true });
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `recu-${payment.reference}.pdf`;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** One payment (from the queue or the list): what the member declared, the provider's events, validate, reject, refund. */
export default function PaymentDetailPage() {
  const { id = '' } = useParams();
  const { pathname } = useLocation();
  const back = pathname.startsWith('/admin/subscription-payments')
    ? { to: '/admin/subscription-payments', label: "Paiements d'abonnements" }
    : { to: '/admin/payments', label: 'Gestion des paiements' };
  const query = usePayment(id);
  const p = query.data;
  useDocumentTitle(p ? `Paiement ${p.reference} · Administration` : 'Paiement · Administration');
  const action = usePaymentAction(id);
  const [asking, setAsking] = useState<'validate' | 'reject' | 'refund' | null>(null);
  const [downloading, setDownloading] = useState(false);

  const done = (fallback: string) => ({
    onSuccess: (answer: { message?: string }) => {
      setAsking(null);
      void notify.success(answer?.message ?? fallback);
    },
    onError: (error: unknown) => {
      setAsking(null);
      void notify.error(errorMessage(error, 'L’opération n’a pas pu être faite.'));
    },
  });

  const backLink = (
    <Link to={back.to} className="mb-3 inline-flex min-h-11 items-center gap-1 text-sm font-semibold text-primary-700">
      <ChevronLeftIcon size={18} /> {back.label}
    </Link>
  );

  if (query.isError) {
    // An id of nothing (404) or one that cannot be an id (a link cut by hand: 400, 422).
    const gone = isNotFound(query.error);
    return (
      <>
        {backLink}
        {gone ? (
          <EmptyState headingLevel={1} title="Paiement introuvable" />
        ) : (
          <LoadFailed title={LOAD_ERROR} query={query} fallback="Le paiement n’a pas pu être chargé." />
        )}
      </>
    );
  }
  if (!p) {
    return (
      <>
        {backLink}
        <div className="space-y-4" aria-busy="true" data-testid="payment-loading">
          <Skeleton className="h-9 w-64" />
          <Skeleton className="h-48 w-full rounded-xl" />
          <Skeleton className="h-40 w-full rounded-xl" />
        </div>
      </>
    );
  }

  const canValidate = p.status === 'submitted';
  const canRefund = p.status === 'paid' && p.refunded_amount === 0;
  // Only an aggregator can be asked; a payment failed on our side may still have been paid.
  const canReconcile =
    p.provider !== 'manual' && (p.status === 'pending' || p.status === 'ambiguous' || p.status === 'failed');

  return (
    <>
      {backLink}
      <PageHeader
        title={`Paiement ${p.reference}`}
        description={`${formatPrice(p.amount)} · ${p.user_name ?? 'Membre'} · ${p.plan_name}`}
        actions={
          <>
            {canValidate ? (
              <>
                <Button onClick={() => setAsking('validate')}>Valider le paiement</Button>
                <Button variant="outline" className="border-red-200 text-red-700" onClick={() => setAsking('reject')}>
                  Refuser
                </Button>
              </>
            ) : null}
            {canReconcile ? (
              <Button
                variant="outline"
                loading={action.isPending && action.variables?.kind === 'reconcile'}
                onClick={() => action.mutate({ kind: 'reconcile' }, done('Paiement vérifié auprès de l’agrégateur.'))}
              >
                Vérifier auprès de l’agrégateur
              </Button>
            ) : null}
            {canRefund ? (
              <Button variant="outline" onClick={() => setAsking('refund')}>
                Rembourser
              </Button>
            ) : null}
            {p.status === 'paid' ? (
              <Button
                variant="ghost"
                leftIcon={<DownloadIcon size={16} />}
                loading={downloading}
                onClick={() => {
                  setDownloading(true);
                  downloadReceipt(p)
                    .catch((error: unknown) => notify.error(errorMessage(error, 'Le reçu n’a pas pu être téléchargé.')))
                    .finally(() => setDownloading(false));
                }}
              >
                Reçu (PDF)
              </Button>
            ) : null}
          </>
        }
      />
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader className="flex items-center justify-between gap-2">
            <CardTitle>Paiement</CardTitle>
            <PaymentStatusBadge status={p.status} />
          </CardHeader>
          <CardBody>
            <dl className="grid grid-cols-1 gap-x-4 sm:grid-cols-2" data-testid="payment-fields">
              <Field label="Montant">{formatPrice(p.amount)}</Field>
              <Field label="Opérateur">{operatorLabels[p.operator]}</Field>
              <Field label="Moyen">{paymentProviderLabels[p.provider] ?? p.provider}</Field>
              <Field label="Notre référence">
                <span className="font-mono">{p.reference}</span>
              </Field>
              <Field label="Référence de la transaction">
                <span className="font-mono">{p.provider_reference ?? '—'}</span>
              </Field>
              <Field label="Numéro du payeur">{p.payer_phone ? formatPhone(p.payer_phone) : '—'}</Field>
              <Field label="Créé le">{formatDateTime(p.created_at)}</Field>
              <Field label="Payé le">{p.paid_at ? formatDateTime(p.paid_at) : '—'}</Field>
              {p.refunded_amount > 0 ? <Field label="Remboursé">{formatPrice(p.refunded_amount)}</Field> : null}
              {p.failure_reason ? <Field label="Motif">{p.failure_reason}</Field> : null}
            </dl>
          </CardBody>
        </Card>
        <Card>
          <CardHeader className="flex items-center justify-between gap-2">
            <CardTitle>Abonnement</CardTitle>
            <SubscriptionStatusBadge status={p.subscription.status} />
          </CardHeader>
          <CardBody>
            <dl className="grid grid-cols-1 gap-x-4 sm:grid-cols-2">
              <Field label="Membre">{p.subscription.user_name ?? p.user_name ?? '—'}</Field>
              <Field label="Plan">
                {p.subscription.plan.name} ({planKindLabels[p.subscription.plan.kind]})
              </Field>
              <Field label="Période">
                {p.subscription.starts_at && p.subscription.ends_at
                  ? `${formatDateTime(p.subscription.starts_at)} → ${formatDateTime(p.subscription.ends_at)}`
                  : 'Commence au paiement'}
              </Field>
              <Field label="Annonces">
                {p.subscription.books.map((b) => b.book_title).join(', ') ||
                  (p.subscription.book ? `${p.subscription.book.title} (mise en avant au paiement)` : '—')}
              </Field>
            </dl>
            <Link
              to={`/admin/user-subscriptions?id=${p.subscription.id}`}
              className="mt-2 inline-flex min-h-11 items-center text-sm font-semibold text-primary-700 hover:underline"
            >
              Voir l’abonnement
            </Link>
          </CardBody>
        </Card>
      </div>

      {p.refunds.length > 0 ? (
        <Card className="mt-4">
          <CardHeader>
            <CardTitle>Remboursements</CardTitle>
          </CardHeader>
          <CardBody>
            <ul className="space-y-2 text-sm">
              {p.refunds.map((r) => (
                <li key={r.id}>
                  <strong>{formatPrice(r.amount)}</strong> le {formatDateTime(r.created_at)} — {r.reason}
                </li>
              ))}
            </ul>
          </CardBody>
        </Card>
      ) : null}

      <Card className="mt-4">
        <CardHeader>
          <CardTitle>Événements du fournisseur</CardTitle>
        </CardHeader>
        <CardBody>
          {p.events.length === 0 ? (
            <p className="text-sm text-slate-600">Aucun événement.</p>
          ) : (
            <ol className="space-y-3" data-testid="payment-events">
              {p.events.map((e) => (
                <li key={e.id} className="border-l-2 border-primary-200 pl-3 text-sm">
                  <p className="font-semibold text-slate-900">
                    {EVENT_LABELS[e.type] ?? e.type}
                    {e.status ? (
                      <span className="ml-2 font-normal text-slate-600">→ {paymentStatusLabels[e.status]}</span>
                    ) : null}
                  </p>
                  <p className="text-xs text-slate-500">{formatDateTime(e.created_at)}</p>
                  {Object.keys(e.detail).length > 0 ? (
                    <details className="mt-1">
                      <summary className="cursor-pointer text-xs text-primary-700">Détail</summary>
                      <pre className="mt-1 max-w-full overflow-x-auto rounded bg-slate-50 p-2 text-xs">
                        {JSON.stringify(e.detail, null, 2)}
                      </pre>
                    </details>
                  ) : null}
                </li>
              ))}
            </ol>
          )}
        </CardBody>
      </Card>

      <ConfirmDialog
        open={asking === 'validate'}
        tone="primary"
        title="Valider ce paiement ?"
        description={`Vous avez vérifié la réception de ${formatPrice(p.amount)} (${operatorLabels[p.operator]}, transaction ${p.provider_reference ?? '—'}). L’abonnement devient actif.`}
        confirmLabel="Valider"
        loading={action.isPending}
        onConfirm={() => action.mutate({ kind: 'validate' }, done('Paiement validé : l’abonnement est actif.'))}
        onCancel={() => setAsking(null)}
      />
      <ReasonDialog
        open={asking === 'reject'}
        onClose={() => setAsking(null)}
        title="Refuser ce paiement"
        description="Le membre est prévenu avec le motif."
        confirmLabel="Refuser"
        danger
        schema={paymentRejectRequestSchema}
        loading={action.isPending}
        onConfirm={({ reason }) => action.mutate({ kind: 'reject', reason }, done('Paiement refusé'))}
      />
      <ReasonDialog
        open={asking === 'refund'}
        onClose={() => setAsking(null)}
        title="Rembourser ce paiement"
        description={`Une seule fois, jusqu’à ${formatPrice(p.amount)}. L’abonnement prend fin et le membre reçoit un e-mail.`}
        confirmLabel="Rembourser"
        danger
        schema={refundRequestSchema}
        numberField={{
          name: 'amount',
          label: 'Montant remboursé (FCFA)',
          hint: `Vide pour tout rembourser (${formatPrice(p.amount)})`,
          optional: true,
        }}
        loading={action.isPending}
        onConfirm={({ reason, number }) =>
          action.mutate({ kind: 'refund', reason, amount: number }, done('Remboursement enregistré'))
        }
      />
    </>
  );
}
