import type { BookClassLists, ClassListRef, WithdrawnBooksResponse } from '@cartable/contracts';
import { api } from '@cartable/ui';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

/** GET /books/{id}/class-lists: the published lists that name a listing's book, and those that withdrew it. */
export const bookClassListsQuery = (bookId: number) =>
  queryOptions({
    queryKey: ['class-lists', 'of-book', bookId] as const,
    queryFn: ({ signal }) => api.get<BookClassLists>(`/books/${encodeURIComponent(bookId)}/class-lists`, { signal }),
    staleTime: 5 * 60_000,
  });

export const useBookClassLists = (bookId: number) => useQuery({ ...bookClassListsQuery(bookId), enabled: bookId > 0 });

const NONE = new Map<number, ClassListRef[]>();

/**
 * GET /class-lists/withdrawn-books: of the listings a grid shows, those a list withdrew (their
 * cards say so to buyers); one small request per grid, asked after the cards.
 */
export function useWithdrawnBooks(bookIds: number[]) {
  const ids = [...new Set(bookIds)].sort((a, b) => a - b).slice(0, 48);
  const query = useQuery({
    queryKey: ['class-lists', 'withdrawn-books', ids.join(',')] as const,
    queryFn: ({ signal }) =>
      api.get<WithdrawnBooksResponse>('/class-lists/withdrawn-books', { query: { ids: ids.join(',') }, signal }),
    enabled: ids.length > 0,
    staleTime: 5 * 60_000,
    placeholderData: keepPreviousData,
    select: (answer) => new Map(answer.data.map((b) => [b.book_id, b.withdrawn])),
  });
  return query.data ?? NONE;
}
