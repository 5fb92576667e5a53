import type { BookListPage, MemberDeals, PublicProfileResponse, RatingList, ReplyTime } from '@cartable/contracts';
import { ApiError, api } from '@cartable/ui';
import { queryOptions } from '@tanstack/react-query';

/** A member's public profile: auth's identity, catalog's listings, deals and ratings, messaging's reply time. */
/** GET /users/{userId} (auth): contact details only when the member shows them. */
export type PublicProfile = PublicProfileResponse['user'];
const enc = encodeURIComponent;
const notRetriedOn404 = (count: number, error: unknown) =>
  !(error instanceof ApiError && (error.status === 404 || error.status === 422)) && count < 1;

export const memberKeys = {
  all: (userId: string) => ['members', userId] as const,
};

export const memberQuery = (userId: string) =>
  queryOptions({
    queryKey: [...memberKeys.all(userId), 'profile'] as const,
    queryFn: ({ signal }) => api.get<PublicProfileResponse>(`/users/${enc(userId)}`, { signal }),
    select: (data) => data.user,
    retry: notRetriedOn404,
  });

export const memberBooksQuery = (userId: string, page: number) =>
  queryOptions({
    queryKey: [...memberKeys.all(userId), 'books', page] as const,
    queryFn: ({ signal }) => api.get<BookListPage>(`/users/${enc(userId)}/books`, { query: { page }, signal }),
  });

export const memberDealsQuery = (userId: string) =>
  queryOptions({
    queryKey: [...memberKeys.all(userId), 'deals'] as const,
    queryFn: ({ signal }) => api.get<MemberDeals>(`/users/${enc(userId)}/deals`, { signal }),
  });

export const memberRatingsQuery = (userId: string) =>
  queryOptions({
    queryKey: [...memberKeys.all(userId), 'ratings'] as const,
    queryFn: ({ signal }) => api.get<RatingList>(`/users/${enc(userId)}/ratings`, { signal }),
    retry: false,
  });

export const memberReplyTimeQuery = (userId: string) =>
  queryOptions({
    queryKey: [...memberKeys.all(userId), 'reply-time'] as const,
    queryFn: ({ signal }) => api.get<ReplyTime>(`/users/${enc(userId)}/reply-time`, { signal }),
    retry: false,
  });
