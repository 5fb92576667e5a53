import type { CategoryStatsResponse } from '@cartable/contracts';
import { api } from '@cartable/ui';
import { categoryKeys, forgetStoredHierarchy } from '@cartable/ui/categories';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

/**
 * The category admin calls (SPEC section 7, "Categories"; services/catalog/API.md). Every change
 * drops the browser's 12-hour copy of the tree and reloads the category queries, so the tree,
 * the selectors and the catalogue's filters show it at once.
 */
export type CategoryStats = CategoryStatsResponse['stats'];

export const categoryStatsKey = ['admin', 'categories', 'stats'] as const;

export const useCategoryStats = () =>
  useQuery({
    queryKey: categoryStatsKey,
    queryFn: ({ signal }) => api.get<CategoryStatsResponse>('/admin/categories/stats', { signal }),
    select: (answer) => answer.stats,
  });

type Answer = { message?: string };

export const categoryCalls = {
  create: (body: { name: string; parent_id: number | null }) => api.post<Answer>('/admin/categories', body),
  rename: ({ id, name }: { id: number; name: string }) => api.put<Answer>(`/admin/categories/${id}`, { name }),
  remove: ({ id }: { id: number }) => api.delete<Answer>(`/admin/categories/${id}`),
  move: ({ id, parent_id }: { id: number; parent_id: number | null }) =>
    api.put<Answer>(`/admin/categories/${id}/move`, { parent_id }),
  reorder: ({ order }: { order: Array<{ id: number; order: number }> }) =>
    api.put<Answer>('/admin/categories/order', { order }),
};

export function useCategoryChange<Variables>(
  call: (variables: Variables) => Promise<Answer>,
  handlers: { onSuccess: (answer: Answer, variables: Variables) => void; onError: (error: unknown) => void },
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: async (answer, variables) => {
      forgetStoredHierarchy();
      handlers.onSuccess(answer ?? {}, variables);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: categoryKeys.all }),
        queryClient.invalidateQueries({ queryKey: categoryStatsKey }),
      ]);
    },
    onError: handlers.onError,
  });
}
