import { ApiError, api } from '@cartable/ui';
import { queryOptions, useQuery } from '@tanstack/react-query';

/** GET /users/{userId}: contact details only when the member shows them. */
export interface PublicProfile {
  id: string;
  name: string;
  username: string;
  profile_image: string | null;
  bio: string | null;
  country_id: number | null;
  city_id: number | null;
  created_at: string;
  email: string | null;
  phone: string | null;
}

export const publicProfileQuery = (userId: string) =>
  queryOptions({
    queryKey: ['users', 'public', userId] as const,
    queryFn: ({ signal }) => api.get<{ user: PublicProfile }>(`/users/${encodeURIComponent(userId)}`, { signal }),
    select: (data) => data.user,
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 1,
  });

export const usePublicProfile = (userId: string) => useQuery(publicProfileQuery(userId));
