import { BookIcon, Button, formatDate, formatPrice } from '@cartable/ui';
import { type Column, DataTable, type TableQueryState } from '../../shared/DataTable';
import type { AdminBook } from './api/books';
import { Badges, type BookActionHandlers, BookActions, BookOwner, BookTitle, Thumbnail } from './BookParts';

/**
 * The listings of the page: a table on a wide screen, cards on a phone, with the list's loading,
 * failed and empty states (DataTable); an empty filtered list offers to clear the filters.
 */
export function BooksTable({
  rows,
  query,
  filtered,
  onClearFilters,
  onOpen,
  ...handlers
}: BookActionHandlers & {
  rows: AdminBook[] | undefined;
  query: TableQueryState;
  filtered: boolean;
  onClearFilters: () => void;
  onOpen: (id: number) => void;
}) {
  const columns: Column<AdminBook>[] = [
    {
      key: 'book',
      header: 'Livre',
      cell: (book) => (
        <span className="flex items-start gap-3">
          <Thumbnail book={book} />
          <BookTitle book={book} onOpen={onOpen} />
        </span>
      ),
    },
    {
      key: 'owner',
      header: 'Propriétaire',
      cell: (book) => (
        <>
          <BookOwner book={book} />
          {book.owner?.email ? (
            <span className="block text-xs break-all text-slate-500">{book.owner.email}</span>
          ) : null}
        </>
      ),
      className: 'w-44',
    },
    { key: 'city', header: 'Ville', cell: (book) => book.city?.name ?? '—', className: 'w-28' },
    {
      key: 'price',
      header: 'Prix',
      cell: (book) => <span className="whitespace-nowrap">{formatPrice(book.price, { zeroLabel: 'Don' })}</span>,
      className: 'w-28',
    },
    { key: 'status', header: 'Statut', cell: (book) => <Badges book={book} />, className: 'w-28' },
    {
      key: 'date',
      header: 'Publiée le',
      cell: (book) => <span className="whitespace-nowrap text-slate-600">{formatDate(book.created_at)}</span>,
      className: 'w-32',
    },
    {
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      cell: (book) => <BookActions book={book} {...handlers} />,
      className: 'w-px',
    },
  ];

  return (
    <DataTable
      caption="Annonces"
      testId="book"
      columns={columns}
      rows={rows}
      rowKey={(book) => book.id}
      query={query}
      errorText="Les annonces n’ont pas pu être chargées."
      rowClassName={(book) => (book.hidden ? 'bg-red-50/40' : undefined)}
      empty={{
        icon: <BookIcon size={26} />,
        title: filtered ? 'Aucune annonce ne correspond à ces critères' : 'Aucune annonce pour le moment',
        action: filtered ? (
          <Button variant="outline" onClick={onClearFilters}>
            Effacer les filtres
          </Button>
        ) : undefined,
      }}
      card={(book) => (
        <div className="flex gap-3">
          <Thumbnail book={book} />
          <div className="min-w-0 flex-1 space-y-1">
            <BookTitle book={book} onOpen={onOpen} />
            <p className="text-sm">
              <BookOwner book={book} /> <span className="text-slate-500">· {book.city?.name ?? '—'}</span>
            </p>
            <p className="font-semibold text-slate-900">{formatPrice(book.price, { zeroLabel: 'Don' })}</p>
            <Badges book={book} />
            <BookActions book={book} withLabels {...handlers} />
          </div>
        </div>
      )}
    />
  );
}
