import type { ClassListItemSearchResponse } from '@cartable/contracts';
import { api } from '@cartable/ui';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

/** GET /class-list-items/search?q: at most 10 books of the published class lists. */
export const classListItemSearchQuery = (q: string) =>
  queryOptions({
    queryKey: ['class-lists', 'item-search', q] as const,
    queryFn: async ({ signal }) =>
      (await api.get<ClassListItemSearchResponse>('/class-list-items/search', { query: { q }, signal })).suggestions,
    staleTime: 5 * 60_000,
    placeholderData: keepPreviousData,
  });

export const useClassListItemSearch = (q: string, enabled: boolean) =>
  useQuery({ ...classListItemSearchQuery(q), enabled });
