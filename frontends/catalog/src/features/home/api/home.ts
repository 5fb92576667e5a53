import type { Banner, BannersResponse, FeaturedBooksResponse } from '@cartable/contracts';
import { api } from '@cartable/ui';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { bookKeys, booksQuery } from '../../../shared/api/books';
import type { Book } from '../../../shared/books';

/** The home page's data (services/catalog/API.md): banners, the most viewed and the latest books. */

export type { Banner };

export async function fetchActiveBanners(signal?: AbortSignal): Promise<Banner[]> {
  const { banners } = await api.get<BannersResponse>('/banners/active', { signal });
  return [...banners].sort((a, b) => a.order - b.order);
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
  return (await api.get<FeaturedBooksResponse>('/books/featured', { signal })).featured_books;
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
