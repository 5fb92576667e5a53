import type { IsbnLookup } from '@cartable/contracts';
import { api } from '@cartable/ui';
import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';

/** GET /books/isbn/{isbn}: what the class lists and past listings say of a book, by its ISBN-13. */
export const isbnLookupQuery = (isbn13: string) =>
  queryOptions({
    queryKey: ['books', 'isbn', isbn13] as const,
    queryFn: ({ signal }) => api.get<IsbnLookup>(`/books/isbn/${isbn13}`, { signal }),
    // A book's title does not change while its seller lists it.
    staleTime: 10 * 60_000,
    retry: 1,
  });

/** Looks an ISBN-13 up once (a scan or a typed ISBN asks once, not as a query the screen keeps). */
export function useIsbnLookup() {
  const client = useQueryClient();
  return useCallback((isbn13: string) => client.fetchQuery(isbnLookupQuery(isbn13)), [client]);
}
