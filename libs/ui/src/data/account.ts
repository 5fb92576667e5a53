import { queryOptions } from '@tanstack/react-query';
import { api } from '../api/client';
import type { User } from '../session/types';
import { queryKeys } from './keys';

/** GET /user: the signed-in member as the server knows them now (the session keeps a copy). */
export const currentUserQuery = (token: string | null) =>
  queryOptions({
    queryKey: queryKeys.user.me(token),
    queryFn: ({ signal }) => api.get<{ user: User }>('/user', { signal }),
    enabled: Boolean(token),
  });

/** Polling of the envelope badge in the header. */
export const UNREAD_POLL_MS = 30_000;

/** GET /messages/unread/count for the header's envelope; refreshed when a thread is read or sent. */
export const unreadCountQuery = (userId: string) =>
  queryOptions({
    queryKey: queryKeys.messages.unreadCountOf(userId),
    queryFn: ({ signal }) => api.get<{ unreadCount?: number }>('/messages/unread/count', { signal }),
    refetchInterval: UNREAD_POLL_MS,
    retry: false,
  });
