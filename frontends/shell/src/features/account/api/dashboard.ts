import type { Activity, RecentActivityResponse, UserStats, UserStatsResponse } from '@cartable/contracts';
import { api, queryKeys } from '@cartable/ui';
import { queryOptions, useQuery } from '@tanstack/react-query';

/** The dashboard's figures and recent activity (API.md "Profile"). */
export type { Activity, UserStats };

export const statsQuery = (userId: string | undefined) =>
  queryOptions({
    queryKey: queryKeys.user.stats(userId),
    queryFn: ({ signal }) => api.get<UserStatsResponse>('/user/stats', { signal }),
    select: (data) => data.stats,
  });

export const recentActivityQuery = (userId: string | undefined) =>
  queryOptions({
    queryKey: queryKeys.user.activity(userId),
    queryFn: ({ signal }) => api.get<RecentActivityResponse>('/user/recent-activity', { signal }),
    select: (data) => data.activities,
  });

export const useStats = (userId: string | undefined) => useQuery(statsQuery(userId));
export const useRecentActivity = (userId: string | undefined) => useQuery(recentActivityQuery(userId));
