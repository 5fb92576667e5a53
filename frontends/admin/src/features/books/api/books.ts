// Types only: the list must not load the contracts (and zod).
import type {
  AdminBook,
  AdminBookActionResponse,
  AdminBookPage,
  AdminBookResponse,
  BookStatus,
  CategoriesResponse,
  MessageResponse,
} from '@cartable/contracts';
import { ApiError, api } from '@cartable/ui';
import { keepPreviousData, type QueryClient, queryOptions, useMutation, useQuery } from '@tanstack/react-query';

/**
 * Listings in the back office (services/catalog/API.md « Books in the back office »; shapes from
 * libs/contracts/src/catalog.ts), for holders of books.update.any.
 */
export type { AdminBook, BookStatus };

export const BOOK_STATUSES = ['disponible', 'réservé', 'vendu'] satisfies BookStatus[];
export const BOOK_STATUS_LABELS: Record<BookStatus, string> = {
  disponible: 'Disponible',
  réservé: 'Réservé',
  vendu: 'Vendu',
};
export const BOOK_STATUS_TONES = { disponible: 'success', réservé: 'accent', vendu: 'neutral' } as const;

export const BOOK_SORTS = {
  created_at: 'Date de publication',
  price: 'Prix',
  title: 'Titre',
  views: 'Vues',
} as const;
export type BookSort = keyof typeof BOOK_SORTS;

/** The server's limits on a moderation reason (bookModerationRequestSchema). */
export const REASON_MIN = 5;
export const REASON_MAX = 500;

export interface BookQuery {
  search?: string;
  status?: BookStatus | '';
  hidden?: 'true' | 'false' | '';
  city_id?: number | '';
  category_id?: number | '';
  owner_id?: string;
  sort_by?: BookSort;
  sort_direction?: 'asc' | 'desc';
  page: number;
  per_page?: number;
}

export const bookKeys = {
  all: ['admin', 'books'] as const,
  lists: ['admin', 'books', 'list'] as const,
  list: (query: BookQuery) => ['admin', 'books', 'list', query] as const,
  detail: (id: number) => ['admin', 'books', 'detail', id] as const,
  categories: ['admin', 'books', 'categories'] as const,
};

export function fetchBooks(query: BookQuery, signal?: AbortSignal) {
  return api.get<AdminBookPage>('/admin/books', { query: { ...query }, signal });
}

export async function fetchBook(id: number, signal?: AbortSignal) {
  return (await api.get<AdminBookResponse>(`/admin/books/${id}`, { signal })).book;
}

export const booksQuery = (query: BookQuery) =>
  queryOptions({
    queryKey: bookKeys.list(query),
    queryFn: ({ signal }) => fetchBooks(query, signal),
    placeholderData: keepPreviousData,
  });

export const useBooks = (query: BookQuery) => useQuery(booksQuery(query));

export const useBook = (id: number | null) =>
  useQuery({
    queryKey: bookKeys.detail(id ?? 0),
    queryFn: ({ signal }) => fetchBook(id ?? 0, signal),
    enabled: id !== null,
    retry: (failures, error) => !(error instanceof ApiError && error.status === 404) && failures < 2,
  });

/** Categories for the filter: the flat list, names only. */
export const useCategoryOptions = () =>
  useQuery({
    queryKey: bookKeys.categories,
    queryFn: async ({ signal }) => (await api.get<CategoriesResponse>('/categories', { signal })).categories,
    staleTime: 15 * 60_000,
  });

export type BookAction =
  | { kind: 'status'; book: AdminBook; status: BookStatus; reason?: string }
  | { kind: 'hide'; book: AdminBook; reason: string }
  | { kind: 'unhide'; book: AdminBook }
  | { kind: 'delete'; book: AdminBook; reason: string };

/** One moderation call; answers the server's French message. */
export async function runBookAction(action: BookAction): Promise<string> {
  const id = action.book.id;
  switch (action.kind) {
    case 'status':
      return (
        await api.put<AdminBookActionResponse>(`/admin/books/${id}/status`, {
          status: action.status,
          ...(action.reason ? { reason: action.reason } : {}),
        })
      ).message;
    case 'hide':
      return (await api.post<AdminBookActionResponse>(`/admin/books/${id}/hide`, { reason: action.reason })).message;
    case 'unhide':
      return (await api.post<AdminBookActionResponse>(`/admin/books/${id}/unhide`)).message;
    case 'delete':
      return (await api.delete<MessageResponse>(`/admin/books/${id}`, { reason: action.reason })).message;
  }
}

export function refreshBooks(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: bookKeys.all });
}

export function useBookAction(
  queryClient: QueryClient,
  handlers: { onSuccess: (message: string, action: BookAction) => void; onError: (error: unknown) => void },
) {
  return useMutation({
    mutationFn: runBookAction,
    onSuccess: (message, action) => {
      handlers.onSuccess(message, action);
      if (action.kind === 'delete') queryClient.removeQueries({ queryKey: bookKeys.detail(action.book.id) });
      refreshBooks(queryClient);
    },
    onError: handlers.onError,
  });
}
