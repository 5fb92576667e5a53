import { api, queryKeys } from '@cartable/ui';
import { queryOptions, useQuery } from '@tanstack/react-query';

/** GET /user/stats (API.md "Profile"). */
export interface UserStats {
  books_total: number;
  books_available: number;
  books_sold: number;
  conversations: number;
  messages_received: number;
  comments: number;
}

export interface Activity {
  id: string | number;
  type: string;
  title: string;
  link: string | null;
  occurred_at: string;
}

export const statsQuery = (userId: string | undefined) =>
  queryOptions({
    queryKey: queryKeys.user.stats(userId),
    queryFn: ({ signal }) => api.get<{ stats?: Partial<UserStats> }>('/user/stats', { signal }),
    select: (data): Partial<UserStats> => data?.stats ?? {},
  });

export const recentActivityQuery = (userId: string | undefined) =>
  queryOptions({
    queryKey: queryKeys.user.activity(userId),
    queryFn: ({ signal }) => api.get<{ activities?: Activity[] }>('/user/recent-activity', { signal }),
    select: (data): Activity[] => (Array.isArray(data?.activities) ? data.activities : []),
  });

export const useStats = (userId: string | undefined) => useQuery(statsQuery(userId));
export const useRecentActivity = (userId: string | undefined) => useQuery(recentActivityQuery(userId));
