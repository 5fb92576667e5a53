import { planKindLabels, subscriptionStatusLabels } from '@cartable/contracts/labels';
import {
  Badge,
  Button,
  buttonClasses,
  Container,
  EmptyState,
  formatDate,
  formatPrice,
  LoadFailed,
  PageHeader,
  Pagination,
  Skeleton,
  StarIcon,
  useDocumentTitle,
} from '@cartable/ui';
import { Link, useSearchParams } from '@cartable/ui/router';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { truncate } from '../../shared/books';
import { type BoostedBook, mySubscriptionsQuery, type Subscription } from './api/subscriptions';
import { ChooseBooksDialog, TransferBoostDialog } from './BoostDialogs';
import { Checkout } from './Checkout';
import { days, refusalSentence, STATUS_TONES } from './labels';

const CURRENT = new Set(['active', 'pending_payment']);

/** « Mes abonnements »: current and past, state, days left, renew, the listings boosted. */
export default function MySubscriptionsPage() {
  useDocumentTitle('Mes abonnements');
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const list = useQuery(mySubscriptionsQuery({ page }));
  const rows = list.data?.data;
  const current = rows?.filter((s) => CURRENT.has(s.status)) ?? [];
  const past = rows?.filter((s) => !CURRENT.has(s.status)) ?? [];
  const [renewing, setRenewing] = useState<Subscription | null>(null);
  const [choosing, setChoosing] = useState<Subscription | null>(null);
  const [transferring, setTransferring] = useState<BoostedBook | null>(null);

  const actions = { onRenew: setRenewing, onChoose: setChoosing, onTransfer: setTransferring };

  return (
    <Container className="py-8">
      <PageHeader
        title="Mes abonnements"
        description="Vos mises en avant et abonnements vendeur, en cours et passés."
        actions={
          <Link to="/subscription" className={buttonClasses('outline', 'sm')}>
            Voir les formules
          </Link>
        }
      />
      {list.isError && !rows ? (
        <LoadFailed title="Vos abonnements n’ont pas pu être chargés" query={list} />
      ) : !rows ? (
        <div className="space-y-3" aria-busy="true" data-testid="subscriptions-loading">
          <span className="sr-only" role="status">
            Chargement de vos abonnements…
          </span>
          {[0, 1, 2].map((n) => (
            <Skeleton key={n} className="h-44 w-full rounded-xl" />
          ))}
        </div>
      ) : rows.length === 0 ? (
        <EmptyState
          icon={<StarIcon size={26} />}
          title="Aucun abonnement pour le moment"
          description="Mettez une annonce « À la une » pour la vendre plus vite, sans commission sur la vente."
          action={
            <div className="flex flex-wrap justify-center gap-2">
              <Link to="/my-books" className={buttonClasses('primary')}>
                Mettre en avant une annonce
              </Link>
              <Link to="/subscription" className={buttonClasses('outline')}>
                Voir les formules
              </Link>
            </div>
          }
        />
      ) : (
        <div className="space-y-8">
          <Group title="En cours" empty="Aucun abonnement en cours." rows={current} {...actions} />
          {past.length > 0 ? <Group title="Passés" rows={past} {...actions} /> : null}
          <Pagination
            page={list.data?.meta.current_page ?? page}
            lastPage={list.data?.meta.last_page ?? 1}
            onPage={(target) => setParams(target > 1 ? { page: String(target) } : {})}
          />
        </div>
      )}

      {renewing ? (
        <Checkout
          open
          onClose={() => setRenewing(null)}
          plan={{ id: renewing.plan_id, ...renewing.plan }}
          renewOf={renewing.id}
        />
      ) : null}
      {choosing ? <ChooseBooksDialog open subscription={choosing} onClose={() => setChoosing(null)} /> : null}
      {transferring ? <TransferBoostDialog open boost={transferring} onClose={() => setTransferring(null)} /> : null}
    </Container>
  );
}

interface Actions {
  onRenew: (s: Subscription) => void;
  onChoose: (s: Subscription) => void;
  onTransfer: (b: BoostedBook) => void;
}

function Group({ title, rows, empty, ...actions }: { title: string; rows: Subscription[]; empty?: string } & Actions) {
  return (
    <section aria-labelledby={`group-${title}`}>
      <h2 id={`group-${title}`} className="mb-3 text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600">{empty}</p>
      ) : (
        <ul className="space-y-3">
          {rows.map((s) => (
            <li key={s.id}>
              <SubscriptionCard subscription={s} {...actions} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A subscription whose last payment was refused says so, not « En attente de paiement ». */
export function SubscriptionStatusBadge({
  status,
  refused = false,
}: {
  status: Subscription['status'];
  refused?: boolean;
}) {
  if (refused && status === 'pending_payment') return <Badge tone="danger">Paiement refusé</Badge>;
  return <Badge tone={STATUS_TONES[status]}>{subscriptionStatusLabels[status]}</Badge>;
}

function SubscriptionCard({
  subscription: s,
  onRenew,
  onChoose,
  onTransfer,
}: { subscription: Subscription } & Actions) {
  const live = s.books.filter((b) => !b.ended_at);
  const transferable = s.books.filter((b) => b.transferable);
  const renewable = s.status === 'active' || s.status === 'expired';
  const refused = s.status === 'pending_payment' && s.last_payment?.status === 'failed';
  return (
    <article
      className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
      data-testid="subscription-card"
      aria-labelledby={`sub-${s.id}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="text-xs font-medium text-slate-500">{planKindLabels[s.plan.kind]}</p>
          <h3 id={`sub-${s.id}`} className="font-semibold text-slate-900">
            {s.plan.name}
          </h3>
        </div>
        <SubscriptionStatusBadge status={s.status} refused={refused} />
      </div>
      <p className="mt-2 text-sm text-slate-700">
        {s.status === 'active' ? (
          <>
            <strong>
              {days(s.days_left)} restant{s.days_left > 1 ? 's' : ''}
            </strong>
            {s.ends_at ? <> · jusqu’au {formatDate(s.ends_at)}</> : null}
          </>
        ) : refused ? (
          <span className="font-medium text-red-700">
            {refusalSentence(s.last_payment?.failure_reason)} Vous pouvez réessayer avec le même numéro ou un autre.
          </span>
        ) : s.status === 'pending_payment' ? (
          <>En attente de votre paiement de {formatPrice(s.plan.price)}.</>
        ) : s.ends_at ? (
          <>
            Du {s.starts_at ? formatDate(s.starts_at) : '—'} au {formatDate(s.ends_at)}
          </>
        ) : (
          <>Créé le {formatDate(s.created_at)}</>
        )}
      </p>
      {s.book && live.length === 0 ? (
        <p className="mt-2 text-sm text-slate-700">
          Pour l’annonce{' '}
          <Link to={`/books/${s.book.id}`} className="font-medium text-primary-800 underline-offset-2 hover:underline">
            « {truncate(s.book.title, 60)} »
          </Link>
        </p>
      ) : null}
      {live.length > 0 ? (
        <div className="mt-2">
          <p className="text-xs font-medium text-slate-500">À la une :</p>
          <ul className="mt-1 space-y-1 text-sm">
            {live.map((b) => (
              <li key={b.id}>
                <Link
                  to={`/books/${b.book_id}`}
                  className="tap-target text-primary-800 underline-offset-2 hover:underline"
                >
                  {truncate(b.book_title, 60)}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {transferable.map((b) => (
        <div key={b.id} className="mt-3 rounded-lg bg-accent-50 p-3 text-sm text-accent-900">
          « {truncate(b.book_title, 50)} » a changé de propriétaire.
          <Button variant="outline" size="sm" className="mt-2 w-full sm:w-auto" onClick={() => onTransfer(b)}>
            Transférer sur une autre annonce
          </Button>
        </div>
      ))}
      <div className="mt-4 flex flex-wrap gap-2">
        <Link to={`/subscription/details/${s.id}`} className={buttonClasses('outline', 'sm')}>
          {refused ? 'Réessayer le paiement' : s.status === 'pending_payment' ? 'Payer ou déclarer' : 'Détails'}
        </Link>
        {s.status === 'active' && s.plan.kind === 'member' ? (
          <Button variant="outline" size="sm" onClick={() => onChoose(s)}>
            Choisir les annonces ({live.length}/{s.plan.boost_slots})
          </Button>
        ) : null}
        {renewable ? (
          <Button size="sm" onClick={() => onRenew(s)}>
            Renouveler
          </Button>
        ) : null}
      </div>
    </article>
  );
}
