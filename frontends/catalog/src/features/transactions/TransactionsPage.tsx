import {
  Avatar,
  Button,
  buttonClasses,
  Container,
  cn,
  EmptyState,
  formatDate,
  HandshakeIcon,
  LoadFailed,
  PageHeader,
  Pagination,
  Select,
  Skeleton,
  useDocumentTitle,
} from '@cartable/ui';
import { Link, useSearchParams } from '@cartable/ui/router';
import { useQuery } from '@tanstack/react-query';
import { BookCover } from '../../entities/book/BookCard';
import type { Role, Transaction, TransactionStatus } from '../../entities/transaction/api/transactions';
import { truncate } from '../../shared/books';
import { transactionsQuery } from './api/transactions';
import { STATUS_OPTIONS, StatusBadge, termsOf } from './parts';

const ROLES: Array<[Role | '', string]> = [
  ['', 'Toutes'],
  ['seller', 'Vendeur'],
  ['buyer', 'Acheteur'],
];

/** /transactions: the member's deals as seller and as buyer, filtered by role and state, paginated (in the URL). */
export default function TransactionsPage() {
  useDocumentTitle('Mes transactions');
  const [params, setParams] = useSearchParams();
  const role = (['seller', 'buyer'] as const).find((r) => r === params.get('role'));
  const status = STATUS_OPTIONS.map(([s]) => s).find((s) => s === params.get('status'));
  const page = Math.max(1, Number(params.get('page')) || 1);
  const list = useQuery(transactionsQuery({ role, status, page }));

  const change = (key: string, value: string | undefined) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    if (key !== 'page') next.delete('page');
    setParams(next);
  };

  const data = list.data?.data ?? [];
  return (
    <Container className="py-6 sm:py-10">
      <PageHeader
        title="Mes transactions"
        description="Les ventes, échanges et dons conclus avec d’autres membres : confirmez, refusez ou annulez, puis évaluez."
      />

      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div role="tablist" aria-label="Filtrer par rôle" className="flex flex-wrap gap-1.5">
          {ROLES.map(([key, label]) => (
            <button
              key={key || 'all'}
              type="button"
              role="tab"
              aria-selected={(role ?? '') === key}
              onClick={() => change('role', key || undefined)}
              className={cn(
                'h-9 shrink-0 rounded-full border px-3 text-sm font-medium',
                (role ?? '') === key
                  ? 'border-primary-700 bg-primary-700 text-white'
                  : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50',
              )}
            >
              {label}
            </button>
          ))}
        </div>
        <Select
          label="État"
          value={status ?? ''}
          onChange={(event) => change('status', event.target.value || undefined)}
          className="sm:w-52"
        >
          <option value="">Tous les états</option>
          {STATUS_OPTIONS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </Select>
      </div>

      {list.isError ? (
        <LoadFailed title="Impossible de charger vos transactions" query={list} />
      ) : list.isPending ? (
        <div className="space-y-3" aria-busy="true">
          <span className="sr-only" role="status">
            Chargement de vos transactions…
          </span>
          {['a', 'b', 'c'].map((key) => (
            <div key={key} className="flex gap-3 rounded-xl border border-slate-200 bg-white p-3">
              <Skeleton className="h-20 w-14 shrink-0" />
              <div className="flex-1 space-y-2">
                <Skeleton className="h-4 w-2/3" />
                <Skeleton className="h-3 w-1/2" />
              </div>
            </div>
          ))}
        </div>
      ) : data.length === 0 ? (
        <EmptyState
          icon={<HandshakeIcon size={26} />}
          title={role || status ? 'Aucune transaction avec ces critères' : 'Aucune transaction pour l’instant'}
          description={
            role || status
              ? 'Changez de filtre pour voir vos autres transactions.'
              : 'Quand vous concluez avec un membre depuis une conversation ou « Mes manuels », la transaction apparaît ici.'
          }
          action={
            role || status ? (
              <Button variant="outline" onClick={() => setParams(new URLSearchParams())}>
                Voir toutes mes transactions
              </Button>
            ) : (
              <Link to="/messages" className={buttonClasses('primary')}>
                Mes messages
              </Link>
            )
          }
        />
      ) : (
        <>
          <ul className="space-y-3" aria-label="Transactions" aria-busy={list.isFetching}>
            {data.map((t) => (
              <TransactionRow key={t.id} transaction={t} />
            ))}
          </ul>
          {(list.data?.meta.last_page ?? 1) > 1 ? (
            <Pagination
              className="mt-6"
              page={page}
              lastPage={list.data!.meta.last_page}
              onPage={(p) => change('page', String(p))}
              label="Pages des transactions"
              compact
            />
          ) : null}
        </>
      )}
    </Container>
  );
}

function TransactionRow({ transaction: t }: { transaction: Transaction }) {
  const other = t.role === 'seller' ? t.buyer : t.seller;
  const awaitingMe = t.status === 'proposed' && t.role === 'buyer';
  return (
    <li>
      <Link
        to={`/transactions/${t.id}`}
        className={cn(
          'flex gap-3 rounded-xl border bg-white p-3 shadow-sm hover:bg-slate-50 sm:p-4',
          awaitingMe ? 'border-accent-300' : 'border-slate-200',
        )}
      >
        <BookCover src={t.book.thumbnail} alt="" className="h-20 w-14 shrink-0 rounded" />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <StatusBadge status={t.status as TransactionStatus} label={t.status_label} />
            <span className="text-xs text-slate-500">{t.role === 'seller' ? 'Vous vendez' : 'Vous recevez'}</span>
          </div>
          <h2 className="mt-1 truncate font-semibold text-slate-900" title={t.book.title}>
            {truncate(t.book.title, 60)}
          </h2>
          <p className="text-sm text-slate-700">{termsOf(t)}</p>
          <p className="mt-1 flex min-w-0 items-center gap-2 text-xs text-slate-500">
            <Avatar name={other.name} image={other.profile_image} size="sm" />
            <span className="truncate">
              {t.role === 'seller' ? 'Avec' : 'De'} {other.name} · {formatDate(t.created_at)}
            </span>
          </p>
          {awaitingMe ? (
            <p className="mt-1 text-xs font-semibold text-accent-800">En attente de votre réponse</p>
          ) : t.rating.can_rate ? (
            <p className="mt-1 text-xs font-semibold text-primary-800">À évaluer</p>
          ) : null}
        </div>
      </Link>
    </li>
  );
}
