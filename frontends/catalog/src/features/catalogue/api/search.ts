import type { BookListPage, BookSuggestionsResponse } from '@cartable/contracts';
import { api } from '@cartable/ui';
import { queryOptions } from '@tanstack/react-query';
import { type BookQuery, bookKeys } from '../../../shared/api/books';

/** A catalogue page with what the search understood (services/catalog/API.md « Search »). */
export type CataloguePage = BookListPage;

/**
 * GET /books for the catalogue screen: the page, and how the text was read (« maths 6e » is
 * Mathématiques · 6e) or the query that would find something. Its own key under the books'
 * lists, so every change to books still refreshes it. The boosted listings of page 1 come marked.
 */
export const catalogueQuery = (query: BookQuery) =>
  queryOptions({
    queryKey: [...bookKeys.list(query), 'understood'] as const,
    queryFn: async ({ signal }): Promise<CataloguePage> => {
      const page = await api.get<BookListPage>('/books', { query, signal });
      return { ...page, sponsored: page.sponsored?.map((book) => ({ ...book, sponsored: true })) ?? [] };
    },
  });

/** GET /books/suggestions: what the search box proposes for a text (kept a minute here too). */
export const suggestionsQuery = (q: string) =>
  queryOptions({
    queryKey: ['books', 'suggestions', q] as const,
    queryFn: async ({ signal }) =>
      (await api.get<BookSuggestionsResponse>('/books/suggestions', { query: { q }, signal })).suggestions,
    staleTime: 60_000,
    enabled: q.trim().length > 0,
  });
