import type { CurrentUserResponse, UnreadCountResponse } from '@cartable/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../api/client';
import { queryKeys } from './keys';

/** GET /user: the signed-in member as the server knows them now (the session keeps a copy). */
export const currentUserQuery = (token: string | null) =>
  queryOptions({
    queryKey: queryKeys.user.me(token),
    queryFn: ({ signal }) => api.get<CurrentUserResponse>('/user', { signal }),
    enabled: Boolean(token),
  });

/** Polling of the envelope badge in the header, while the live stream is not open (SPEC: 30 s). */
export const UNREAD_POLL_MS = 30_000;

/**
 * GET /messages/unread/count for the header's envelope. While the live stream is open
 * (`live`, from useLiveMessages) it sets the count itself and nothing is polled; otherwise the
 * badge is polled every 30 s and refreshed when a thread is read or sent.
 */
export const unreadCountQuery = (userId: string, live = false) =>
  queryOptions({
    queryKey: queryKeys.messages.unreadCountOf(userId),
    queryFn: ({ signal }) => api.get<UnreadCountResponse>('/messages/unread/count', { signal }),
    refetchInterval: live ? false : UNREAD_POLL_MS,
    retry: false,
  });
