import { VISITOR_BOOK_PAGE } from '@cartable/contracts/book-page';
import { ApiError, api, getSession } from '@cartable/ui';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import type { Book, BookQuery, BookStatus, Id, Paginated } from '../books';

export type { BookQuery };

/**
 * The book calls several catalogue features share (services/catalog/API.md): the list, the detail
 * and its deletion, with their query keys. A feature's own calls live in its api/ folder.
 */

export const bookKeys = {
  all: ['books'] as const,
  list: (query: BookQuery) => ['books', 'list', query] as const,
  detail: (id: Id) => ['books', 'detail', String(id)] as const,
  featured: ['books', 'featured'] as const,
  mine: ['books', 'mine'] as const,
};

export async function fetchBooks(query: BookQuery, signal?: AbortSignal): Promise<Paginated<Book>> {
  const data = await api.get<Partial<Paginated<Book>>>('/books', { query, signal });
  const list = Array.isArray(data?.data) ? data.data : [];
  return {
    data: list,
    total: data?.total ?? list.length,
    per_page: data?.per_page ?? list.length,
    current_page: data?.current_page ?? 1,
    last_page: Math.max(1, data?.last_page ?? 1),
  };
}

export async function fetchBook(id: Id, signal?: AbortSignal): Promise<Book> {
  // Without a token, the visitor's page at its own address: the one a book page's HTML preloads.
  const query = getSession().token ? undefined : VISITOR_BOOK_PAGE;
  const data = await api.get<{ book: Book }>(`/books/${encodeURIComponent(String(id))}`, { signal, query });
  return data.book;
}

/** The member's listings, every status (GET /user/books): « Mes manuels » and a boost's choice. */
export async function fetchMyBooks(signal?: AbortSignal): Promise<Book[]> {
  const data = await api.get<{ data?: Book[] }>('/user/books', { signal });
  return Array.isArray(data?.data) ? data.data : [];
}

export const myBooksQuery = () =>
  queryOptions({ queryKey: bookKeys.mine, queryFn: ({ signal }) => fetchMyBooks(signal) });

/** GET /books with the catalogue's filters (a page of results). */
export const booksQuery = (query: BookQuery) =>
  queryOptions({ queryKey: bookKeys.list(query), queryFn: ({ signal }) => fetchBooks(query, signal) });

/** GET /books/{id}; a 4xx (gone, never existed) is not retried. */
export const bookQuery = (id: Id) =>
  queryOptions({
    queryKey: bookKeys.detail(id),
    queryFn: ({ signal }) => fetchBook(id, signal),
    retry: (failures, error) =>
      !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 1,
  });

export const useBook = (id: Id, options: { enabled?: boolean; retry?: boolean } = {}) =>
  useQuery({ ...bookQuery(id), ...options });

export function deleteBook(id: Id): Promise<{ message?: string }> {
  return api.delete<{ message?: string }>(`/books/${encodeURIComponent(String(id))}`);
}

export function updateBookStatus(id: Id, status: BookStatus): Promise<{ message?: string; book?: Book }> {
  return api.put<{ message?: string; book?: Book }>(`/books/${encodeURIComponent(String(id))}/status`, { status });
}

/** After a deletion: every list is stale, but the deleted book's page must not be fetched again (404). */
export function invalidateListsAfterDeletion(queryClient: QueryClient, id: Id) {
  const deleted = bookKeys.detail(id);
  return queryClient.invalidateQueries({
    queryKey: bookKeys.all,
    predicate: (query) => query.queryKey[1] !== deleted[1] || query.queryKey[2] !== deleted[2],
  });
}
