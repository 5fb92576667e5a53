import {
  Avatar,
  Container,
  cn,
  EmptyState,
  formatDate,
  formatNumber,
  LoadFailed,
  PageHeader,
  Pagination,
  Skeleton,
  StarIcon,
  useDocumentTitle,
} from '@cartable/ui';
import { Link, useSearchParams } from '@cartable/ui/router';
import { useQuery } from '@tanstack/react-query';
import { Stars } from '../../shared/components/Stars';
import { type Direction, myRatingsQuery, type Review } from './api/ratings';

const TABS: Array<[Direction, string]> = [
  ['received', 'Reçues'],
  ['given', 'Données'],
];

/** /my-ratings: the ratings the member received (with their average) and those they gave. */
export default function MyRatingsPage() {
  useDocumentTitle('Mes évaluations');
  const [params, setParams] = useSearchParams();
  const direction: Direction = params.get('direction') === 'given' ? 'given' : 'received';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const list = useQuery(myRatingsQuery(direction, page));
  const go = (next: Direction, nextPage = 1) =>
    setParams(new URLSearchParams({ direction: next, ...(nextPage > 1 ? { page: String(nextPage) } : {}) }));
  const data = list.data?.data ?? [];

  return (
    <Container className="max-w-3xl py-6 sm:py-10">
      <PageHeader title="Mes évaluations" description="Les avis laissés après vos transactions confirmées." />
      <div role="tablist" aria-label="Évaluations" className="mb-4 flex gap-1">
        {TABS.map(([key, label]) => (
          <button
            key={key}
            type="button"
            role="tab"
            aria-selected={direction === key}
            onClick={() => go(key)}
            className={cn(
              'h-9 rounded-full border px-4 text-sm font-medium',
              direction === key
                ? 'border-primary-700 bg-primary-700 text-white'
                : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50',
            )}
          >
            {label}
          </button>
        ))}
      </div>

      {direction === 'received' && list.data && list.data.summary.count > 0 ? (
        <div className="mb-4 flex items-center gap-3 rounded-xl bg-accent-50 p-4" data-testid="rating-summary">
          <span className="text-3xl font-bold text-slate-900">{formatNumber(list.data.summary.average, 1)}</span>
          <div>
            <Stars value={Math.round(list.data.summary.average)} size={18} />
            <p className="text-sm text-slate-600">
              {list.data.summary.count} avis reçu{list.data.summary.count > 1 ? 's' : ''}
            </p>
          </div>
        </div>
      ) : null}

      {list.isError ? (
        <LoadFailed title="Impossible de charger vos évaluations" query={list} />
      ) : list.isPending ? (
        <div className="space-y-3" aria-busy="true">
          <span className="sr-only" role="status">
            Chargement de vos évaluations…
          </span>
          {['a', 'b'].map((key) => (
            <Skeleton key={key} className="h-24 w-full" />
          ))}
        </div>
      ) : data.length === 0 ? (
        <EmptyState
          icon={<StarIcon size={26} />}
          title={direction === 'received' ? 'Pas encore d’avis reçu' : 'Vous n’avez encore évalué personne'}
          description="Après une transaction confirmée, chaque membre peut évaluer l’autre."
          action={
            <Link to="/transactions" className="text-sm font-medium text-primary-800 underline">
              Mes transactions
            </Link>
          }
        />
      ) : (
        <>
          <ul
            className="space-y-3"
            aria-label={direction === 'received' ? 'Évaluations reçues' : 'Évaluations données'}
          >
            {data.map((r) => (
              <RatingItem key={r.id} review={r} direction={direction} />
            ))}
          </ul>
          {(list.data?.meta.last_page ?? 1) > 1 ? (
            <Pagination
              className="mt-6"
              page={page}
              lastPage={list.data!.meta.last_page}
              onPage={(p) => go(direction, p)}
              compact
            />
          ) : null}
        </>
      )}
    </Container>
  );
}

function RatingItem({ review: r, direction }: { review: Review; direction: Direction }) {
  const who = direction === 'received' ? r.from_user : r.to_user;
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex items-center gap-3">
        <Avatar name={who.name} image={who.profile_image} size="sm" />
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-medium text-slate-900">
            {direction === 'received' ? 'De' : 'Pour'}{' '}
            <Link to={`/profile/${who.id}`} className="hover:underline">
              {who.name}
            </Link>
          </p>
          <p className="text-xs text-slate-500">{formatDate(r.created_at)}</p>
        </div>
        <Stars value={r.rating} />
      </div>
      <p className="mt-2 text-sm break-words text-slate-800">{r.comment}</p>
      <p className="mt-2 truncate text-xs text-slate-500">
        Transaction :{' '}
        <Link to={`/transactions/${r.transaction_id}`} className="underline">
          {r.transaction.book.title}
        </Link>
      </p>
    </li>
  );
}
