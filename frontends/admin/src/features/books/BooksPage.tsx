import { Button, errorMessage, notify, PageHeader, Pagination, RefreshIcon, useDocumentTitle } from '@cartable/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useListParams } from '../../shared/useListParams';
import {
  type AdminBook,
  BOOK_SORTS,
  BOOK_STATUSES,
  type BookQuery,
  type BookSort,
  refreshBooks,
  useBookAction,
  useBooks,
} from './api/books';
import { BookActionDialog, type PendingAction } from './BookActionDialog';
import { BookDetailDialog } from './BookDetailDialog';
import { BookFilters } from './BookFilters';
import { BooksTable } from './BooksTable';

const PER_PAGE = 20;

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | '' =>
  value !== null && (values as readonly string[]).includes(value) ? (value as T) : '';
const positive = (value: string | null) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : '';
};

/** The back office's listings (SPEC section 2 « Gestion des livres »): find, hide, change the status, delete. */
export default function BooksPage() {
  useDocumentTitle('Gestion des livres · Administration');
  const { params, update, page } = useListParams();
  const queryClient = useQueryClient();
  const [detail, setDetail] = useState<number | null>(null);
  const [pending, setPending] = useState<PendingAction | null>(null);
  const [serverError, setServerError] = useState<string>();

  const sortBy = (oneOf(Object.keys(BOOK_SORTS) as BookSort[], params.get('sort_by')) || 'created_at') as BookSort;
  const direction = params.get('sort_direction') === 'asc' ? 'asc' : 'desc';
  const query = {
    search: params.get('search') ?? '',
    status: oneOf(BOOK_STATUSES, params.get('status')),
    hidden: oneOf(['true', 'false'] as const, params.get('hidden')),
    city_id: positive(params.get('city_id')),
    category_id: positive(params.get('category_id')),
    ...(params.get('owner_id') ? { owner_id: params.get('owner_id') as string } : {}),
    sort_by: sortBy,
    sort_direction: direction,
    page,
    per_page: PER_PAGE,
  } satisfies BookQuery;
  const list = useBooks(query);

  const action = useBookAction(queryClient, {
    onSuccess: (message) => {
      setPending(null);
      setServerError(undefined);
      void notify.success(message);
    },
    onError: (error) => {
      const fieldError = (error as { errors?: Record<string, string[]> }).errors?.reason?.[0];
      if (fieldError) setServerError(fieldError);
      else {
        setPending(null);
        void notify.error(errorMessage(error, 'L’action n’a pas pu être effectuée.'));
      }
    },
  });

  const ask = (kind: PendingAction['kind'], book: AdminBook) => {
    setServerError(undefined);
    setPending({ kind, book });
  };
  const unhiding = action.isPending && action.variables?.kind === 'unhide' ? action.variables.book.id : null;

  const filtered = Boolean(
    query.search || query.status || query.hidden || query.city_id || query.category_id || query.owner_id,
  );
  const meta = list.data?.meta;

  return (
    <>
      <PageHeader
        title="Gestion des livres"
        description={
          meta ? `${meta.total.toLocaleString('fr-FR')} annonce${meta.total > 1 ? 's' : ''}` : 'Toutes les annonces'
        }
        actions={
          <Button
            variant="outline"
            size="sm"
            leftIcon={<RefreshIcon size={16} />}
            loading={list.isFetching && !list.isPending}
            onClick={() => refreshBooks(queryClient)}
          >
            Actualiser
          </Button>
        }
      />

      <BookFilters query={query} update={update} ownerName={list.data?.data[0]?.owner?.name} />

      <BooksTable
        rows={list.data?.data}
        query={list}
        filtered={filtered}
        onClearFilters={() =>
          update({ search: null, status: null, hidden: null, city_id: null, category_id: null, owner_id: null })
        }
        onOpen={setDetail}
        onAsk={ask}
        onUnhide={(book) => action.mutate({ kind: 'unhide', book })}
        unhiding={unhiding}
      />

      <Pagination
        edges
        compact
        className="mt-5"
        page={meta?.current_page ?? page}
        lastPage={meta?.last_page ?? 1}
        onPage={(target) => update({ page: target > 1 ? target : null })}
      />

      <BookDetailDialog id={detail} onClose={() => setDetail(null)} />
      <BookActionDialog
        pending={pending}
        onClose={() => setPending(null)}
        onSubmit={(next) => action.mutate(next)}
        loading={action.isPending}
        serverError={serverError}
      />
    </>
  );
}
