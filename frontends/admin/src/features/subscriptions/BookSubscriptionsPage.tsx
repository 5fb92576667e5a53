import type { BoostedBook } from '@cartable/contracts';
import { cn, formatDate, PageHeader, Pagination, StarIcon, useDocumentTitle } from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import { type Column, DataTable } from '../../shared/DataTable';
import { useListParams } from '../../shared/useListParams';
import { useBoostedBooks } from './api/subscriptions';

const END_REASONS: Record<string, string> = {
  subscription_ended: 'Fin de l’abonnement',
  sold: 'Annonce vendue',
  deleted: 'Annonce supprimée',
  replaced: 'Remplacée',
  transferred: 'Transférée',
};

/** Book subscriptions: the listings « À la une » now, or before, with their dates. */
export default function BookSubscriptionsPage() {
  useDocumentTitle('Annonces à la une · Administration');
  const { params, update, page } = useListParams();
  const current = params.get('current') === 'false' ? 'false' : 'true';
  const list = useBoostedBooks({ current, page });
  const columns: Column<BoostedBook>[] = [
    {
      key: 'book',
      header: 'Annonce',
      cell: (b) => (
        <Link to={`/books/${b.book_id}`} className="font-semibold text-primary-700 hover:underline">
          {b.book_title}
        </Link>
      ),
    },
    { key: 'from', header: 'Début', cell: (b) => formatDate(b.starts_at) },
    { key: 'to', header: 'Fin', cell: (b) => formatDate(b.ended_at ?? b.ends_at) },
    {
      key: 'state',
      header: 'État',
      cell: (b) =>
        b.ended_at ? (END_REASONS[b.end_reason ?? ''] ?? 'Terminée') : b.transferable ? 'À transférer' : 'En cours',
    },
    {
      key: 'sub',
      header: 'Abonnement',
      cell: (b) => (
        <Link to={`/admin/user-subscriptions?id=${b.subscription_id}`} className="text-primary-700 hover:underline">
          Voir
        </Link>
      ),
    },
  ];
  return (
    <>
      <PageHeader title="Annonces à la une" description="Les annonces mises en avant par un abonnement." />
      <div
        role="tablist"
        aria-label="Période"
        className="mb-4 inline-flex rounded-lg border border-slate-200 bg-white p-1"
      >
        {(
          [
            ['true', 'En cours'],
            ['false', 'Passées'],
          ] as const
        ).map(([value, label]) => (
          <button
            key={value}
            type="button"
            role="tab"
            aria-selected={current === value}
            className={cn(
              'h-11 rounded-md px-4 text-sm font-semibold sm:h-9',
              current === value ? 'bg-primary-700 text-white' : 'text-slate-700 hover:bg-slate-100',
            )}
            onClick={() => update({ current: value === 'true' ? null : value })}
          >
            {label}
          </button>
        ))}
      </div>
      <DataTable
        caption="Annonces à la une"
        columns={columns}
        rows={list.data?.data}
        rowKey={(b) => b.id}
        query={list}
        testId="boosted"
        empty={{
          icon: <StarIcon size={26} />,
          title: current === 'true' ? 'Aucune annonce à la une' : 'Aucune annonce passée',
        }}
        card={(b) => (
          <>
            <Link to={`/books/${b.book_id}`} className="font-semibold text-primary-700 hover:underline">
              {b.book_title}
            </Link>
            <p className="text-sm text-slate-600">
              {formatDate(b.starts_at)} → {formatDate(b.ended_at ?? b.ends_at)}
            </p>
          </>
        )}
      />
      <Pagination
        edges
        className="mt-5"
        page={list.data?.meta.current_page ?? page}
        lastPage={list.data?.meta.last_page ?? 1}
        onPage={(target) => update({ page: target > 1 ? target : null })}
      />
    </>
  );
}
