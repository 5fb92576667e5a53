// Types only: the screens must not load the contracts (and zod).
import type {
  CatalogStats,
  DailySeries,
  MemberStats,
  MessagingStats,
  ModerationStats,
  StatsPeriodQuery,
  SubscriptionStats,
  Trend,
} from '@cartable/contracts';
import { api } from '@cartable/ui';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

/**
 * The back office's figures (libs/contracts/src/stats.ts): each service answers for what it owns,
 * four reads side by side, each with its own loading and error state so one service away does
 * not blank the others.
 */
export type { CatalogStats, DailySeries, MemberStats, MessagingStats, ModerationStats, Trend };

export const statsKeys = {
  all: ['admin', 'stats'] as const,
  of: (owner: string, period: StatsPeriodQuery) => ['admin', 'stats', owner, period] as const,
};

const statsQuery = <T>(owner: 'members' | 'catalog' | 'messaging' | 'moderation', period: StatsPeriodQuery) =>
  queryOptions({
    queryKey: statsKeys.of(owner, period),
    queryFn: ({ signal }) => api.get<T>(`/admin/stats/${owner}`, { query: { ...period }, signal }),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

export const useMemberStats = (period: StatsPeriodQuery, enabled = true) =>
  useQuery({ ...statsQuery<MemberStats>('members', period), enabled });
export const useCatalogStats = (period: StatsPeriodQuery, enabled = true) =>
  useQuery({ ...statsQuery<CatalogStats>('catalog', period), enabled });
export const useMessagingStats = (period: StatsPeriodQuery, enabled = true) =>
  useQuery({ ...statsQuery<MessagingStats>('messaging', period), enabled });
export const useModerationStats = (period: StatsPeriodQuery, enabled = true) =>
  useQuery({ ...statsQuery<ModerationStats>('moderation', period), enabled });

/** GET /admin/stats/subscriptions (reports.view): active subscriptions, boosted listings, revenue per month. */
export const useSubscriptionStats = () =>
  useQuery({
    queryKey: [...statsKeys.all, 'subscriptions'] as const,
    queryFn: ({ signal }) => api.get<SubscriptionStats>('/admin/stats/subscriptions', { signal }),
    staleTime: 60_000,
  });
