import { api } from '@cartable/ui';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { bookKeys, booksQuery } from '../../../shared/api/books';
import type { Book } from '../../../shared/books';

/** The home page's data (services/catalog/API.md): banners, the most viewed and the latest books. */

export interface Banner {
  id: number | string;
  title: string;
  subtitle: string | null;
  image_url: string | null;
  button_text: string | null;
  button_link: string | null;
  color: 'light' | 'dark';
  order?: number;
}

export async function fetchActiveBanners(signal?: AbortSignal): Promise<Banner[]> {
  const data = await api.get<{ banners?: Banner[] }>('/banners/active', { signal });
  const list = Array.isArray(data?.banners) ? data.banners : [];
  return [...list].sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
}

/** The carousel falls back on its built-in slides at once: no retry. */
export const activeBannersQuery = () =>
  queryOptions({
    queryKey: ['banners', 'active'] as const,
    queryFn: ({ signal }) => fetchActiveBanners(signal),
    staleTime: 15 * 60_000,
    retry: 0,
  });

export async function fetchFeaturedBooks(signal?: AbortSignal): Promise<Book[]> {
  const data = await api.get<{ featured_books?: Book[] }>('/books/featured', { signal });
  return Array.isArray(data?.featured_books) ? data.featured_books : [];
}

export const featuredBooksQuery = () =>
  queryOptions({
    queryKey: bookKeys.featured,
    queryFn: ({ signal }) => fetchFeaturedBooks(signal),
    staleTime: 5 * 60_000,
  });

export const RECENT_QUERY = { sort_by: 'created_at', sort_direction: 'desc', per_page: 8 } as const;

export const useActiveBanners = () => useQuery(activeBannersQuery());
export const useFeaturedBooks = () => useQuery(featuredBooksQuery());
export const useRecentBooks = () => useQuery(booksQuery(RECENT_QUERY));
