import type { BookSuggestion, SearchInterpretation } from '@cartable/contracts';
import { api } from '@cartable/ui';
import { queryOptions } from '@tanstack/react-query';
import { type BookQuery, bookKeys } from '../../../shared/api/books';
import type { Book, Paginated } from '../../../shared/books';

/** A catalogue page with what the search understood (services/catalog/API.md « Search »). */
export interface CataloguePage extends Paginated<Book> {
  interpreted: SearchInterpretation | null;
  did_you_mean: string | null;
  /** Page 1 only: boosted listings matching the same filters, shown first with « Sponsorisé ». */
  sponsored: Book[];
}

/**
 * GET /books for the catalogue screen: the page, and how the text was read (« maths 6e » is
 * Mathématiques · 6e) or the query that would find something. Its own key under the books'
 * lists, so every change to books still refreshes it.
 */
export const catalogueQuery = (query: BookQuery) =>
  queryOptions({
    queryKey: [...bookKeys.list(query), 'understood'] as const,
    queryFn: async ({ signal }): Promise<CataloguePage> => {
      const data = await api.get<Partial<CataloguePage>>('/books', { query, signal });
      const list = Array.isArray(data?.data) ? data.data : [];
      return {
        data: list,
        total: data?.total ?? list.length,
        per_page: data?.per_page ?? list.length,
        current_page: data?.current_page ?? 1,
        last_page: Math.max(1, data?.last_page ?? 1),
        interpreted: data?.interpreted ?? null,
        did_you_mean: data?.did_you_mean ?? null,
        sponsored: Array.isArray(data?.sponsored) ? data.sponsored.map((book) => ({ ...book, sponsored: true })) : [],
      };
    },
  });

/** GET /books/suggestions: what the search box proposes for a text (kept a minute here too). */
export const suggestionsQuery = (q: string) =>
  queryOptions({
    queryKey: ['books', 'suggestions', q] as const,
    queryFn: async ({ signal }) =>
      (await api.get<{ suggestions?: BookSuggestion[] }>('/books/suggestions', { query: { q }, signal })).suggestions ??
      [],
    staleTime: 60_000,
    enabled: q.trim().length > 0,
  });
