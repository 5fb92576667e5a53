import type { BookClassLists } from '@cartable/contracts';
import { api } from '@cartable/ui';
import { queryOptions, useQuery } from '@tanstack/react-query';

/** GET /books/{id}/class-lists: the published lists that name a listing's book, and those that withdrew it. */
export const bookClassListsQuery = (bookId: number) =>
  queryOptions({
    queryKey: ['class-lists', 'of-book', bookId] as const,
    queryFn: ({ signal }) => api.get<BookClassLists>(`/books/${encodeURIComponent(bookId)}/class-lists`, { signal }),
    staleTime: 5 * 60_000,
  });

export const useBookClassLists = (bookId: number) => useQuery({ ...bookClassListsQuery(bookId), enabled: bookId > 0 });
