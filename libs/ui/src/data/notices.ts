import type { NoticeList, NotificationPreferencesResponse, UnreadNoticesResponse } from '@cartable/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../api/client';
import { UNREAD_POLL_MS } from './account';
import { queryKeys } from './keys';

/** GET /notifications/unread-count for the header's bell, polled like the envelope (30 s). */
export const unreadNoticesQuery = (userId: string) =>
  queryOptions({
    queryKey: queryKeys.notices.unreadCount(userId),
    queryFn: ({ signal }) => api.get<UnreadNoticesResponse>('/notifications/unread-count', { signal }),
    refetchInterval: UNREAD_POLL_MS,
    retry: false,
  });

/** A page of the member's notices, newest first. */
export const noticesPageQuery = (userId: string, page: number) =>
  queryOptions({
    queryKey: queryKeys.notices.page(userId, page),
    queryFn: ({ signal }) => api.get<NoticeList>(`/notifications?page=${page}`, { signal }),
  });

/** The member's notification preferences (favourite alerts by e-mail and in the notice centre). */
export const notificationPreferencesQuery = (userId: string) =>
  queryOptions({
    queryKey: queryKeys.notices.preferences(userId),
    queryFn: ({ signal }) => api.get<NotificationPreferencesResponse>('/notifications/preferences', { signal }),
  });

/** The bell's badge: 99+ above 99 (SPEC section 2, as the envelope). */
export const badgeCount = (count: number) => (count > 99 ? '99+' : String(count));
