import type {
  BookDetailResponse,
  BookListPage,
  BookListResponse,
  BookWriteResponse,
  MessageResponse,
} from '@cartable/contracts';
import { VISITOR_BOOK_PAGE } from '@cartable/contracts/book-page';
import { ApiError, api, getSession } from '@cartable/ui';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import type { BookDetail, BookQuery, BookStatus, Id } from '../books';

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

export async function fetchBooks(query: BookQuery, signal?: AbortSignal): Promise<BookListPage> {
  return api.get<BookListPage>('/books', { query, signal });
}

export async function fetchBook(id: Id, signal?: AbortSignal): Promise<BookDetail> {
  // Without a token, the visitor's page at its own address: the one a book page's HTML preloads.
  const query = getSession().token ? undefined : VISITOR_BOOK_PAGE;
  const data = await api.get<BookDetailResponse>(`/books/${encodeURIComponent(String(id))}`, { signal, query });
  return data.book;
}

/** The member's listings, every status (GET /user/books): « Mes manuels » and a boost's choice. */
export async function fetchMyBooks(signal?: AbortSignal) {
  return (await api.get<BookListResponse>('/user/books', { signal })).data;
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

export function deleteBook(id: Id) {
  return api.delete<MessageResponse>(`/books/${encodeURIComponent(String(id))}`);
}

export function updateBookStatus(id: Id, status: BookStatus) {
  return api.put<BookWriteResponse>(`/books/${encodeURIComponent(String(id))}/status`, { status });
}

/** After a deletion: every list is stale, but the deleted book's page must not be fetched again (404). */
export function invalidateListsAfterDeletion(queryClient: QueryClient, id: Id) {
  const deleted = bookKeys.detail(id);
  return queryClient.invalidateQueries({
    queryKey: bookKeys.all,
    predicate: (query) => query.queryKey[1] !== deleted[1] || query.queryKey[2] !== deleted[2],
  });
}
