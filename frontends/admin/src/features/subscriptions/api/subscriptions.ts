import type {
  AdminSubscriptionListQuery,
  BoostedBook,
  BoostedBookPage,
  MessageResponse,
  Plan,
  PlanListResponse,
  PlanRequest,
  PlanWriteResponse,
  SubscriptionChangeResponse,
  SubscriptionDetail,
  SubscriptionDetailResponse,
  SubscriptionPage,
} from '@cartable/contracts';
import { ApiError, api } from '@cartable/ui';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

/**
 * Plans, members' subscriptions and boosted listings in the back office (services/catalog/API.md
 * « Subscriptions and payments »; shapes from libs/contracts/src/subscriptions.ts).
 */
export type { BoostedBook, Plan, PlanRequest, SubscriptionDetail };

export const subscriptionAdminKeys = {
  all: ['admin', 'subscriptions'] as const,
  plans: ['admin', 'subscriptions', 'plans'] as const,
  list: (query: AdminSubscriptionListQuery) => ['admin', 'subscriptions', 'list', query] as const,
  detail: (id: string) => ['admin', 'subscriptions', 'detail', id] as const,
  boosted: (query: { current: string; page: number }) => ['admin', 'subscriptions', 'boosted', query] as const,
};

const noRetryOn4xx = (failures: number, error: unknown) =>
  !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2;

/** GET /admin/subscription-plans: every plan, inactive ones included. */
export const usePlans = () =>
  useQuery({
    queryKey: subscriptionAdminKeys.plans,
    queryFn: async ({ signal }) =>
      (await api.get<PlanListResponse>('/admin/subscription-plans', { signal })).data ?? [],
  });

export function useSavePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: PlanRequest }) =>
      id
        ? api.put<PlanWriteResponse>(`/admin/subscription-plans/${id}`, body)
        : api.post<PlanWriteResponse>('/admin/subscription-plans', body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: subscriptionAdminKeys.plans }),
  });
}

export function useDeletePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<MessageResponse>(`/admin/subscription-plans/${id}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: subscriptionAdminKeys.plans }),
  });
}

/** GET /admin/subscriptions?status&kind&plan_id&user_id&q&page. */
export const useAdminSubscriptions = (query: AdminSubscriptionListQuery) =>
  useQuery({
    queryKey: subscriptionAdminKeys.list(query),
    queryFn: ({ signal }) =>
      api.get<SubscriptionPage>('/admin/subscriptions', {
        query: { ...query } as Record<string, string | number | undefined>,
        signal,
      }),
    placeholderData: keepPreviousData,
  });

export const adminSubscriptionQuery = (id: string) =>
  queryOptions({
    queryKey: subscriptionAdminKeys.detail(id),
    queryFn: async ({ signal }) =>
      (
        await api.get<SubscriptionDetailResponse>(`/admin/subscriptions/${encodeURIComponent(id)}`, {
          signal,
        })
      ).subscription,
    retry: noRetryOn4xx,
  });

/** POST /admin/subscriptions/{id}/cancel { reason } or /extend { days, reason }. */
export function useSubscriptionAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action, body }: { id: string; action: 'cancel' | 'extend'; body: Record<string, unknown> }) =>
      api.post<SubscriptionChangeResponse>(`/admin/subscriptions/${encodeURIComponent(id)}/${action}`, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: subscriptionAdminKeys.all }),
  });
}

/** GET /admin/boosted-books?current&page: the listings « À la une » with their dates. */
export const useBoostedBooks = (query: { current: 'true' | 'false'; page: number }) =>
  useQuery({
    queryKey: subscriptionAdminKeys.boosted(query),
    queryFn: ({ signal }) => api.get<BoostedBookPage>('/admin/boosted-books', { query: { ...query }, signal }),
    placeholderData: keepPreviousData,
  });
