// Types only: the screens must not load the contracts (and zod) for their shapes.
import type {
  AdminBookPage,
  AdminUser,
  AdminUserDetail,
  AuditEntry,
  AuditPage,
  MessageResponse,
  UserListResponse,
} from '@cartable/contracts';
import { ApiError, api } from '@cartable/ui';
import {
  keepPreviousData,
  type QueryClient,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';

/** Members in the back office (services/auth/API.md, "Administration"). */
export type { AdminUser, AdminUserDetail, AuditEntry };

/** GET /users/all: every filter as the URL holds it (strings; empty ones are not sent). */
export interface UserListFilters {
  search?: string;
  verified?: string;
  admin?: string;
  role?: string;
  created_from?: string;
  created_to?: string;
  status?: string;
  sort?: string;
  direction?: string;
  page: number;
  per_page: number;
}

export const userKeys = {
  all: ['admin', 'users'] as const,
  lists: ['admin', 'users', 'list'] as const,
  list: (filters: UserListFilters) => ['admin', 'users', 'list', filters] as const,
  detail: (id: string) => ['admin', 'users', 'detail', id] as const,
  audit: (id: string) => ['admin', 'users', 'audit', id] as const,
  books: (id: string) => ['admin', 'users', 'books', id] as const,
};

export const usersQuery = (filters: UserListFilters) =>
  queryOptions({
    queryKey: userKeys.list(filters),
    queryFn: ({ signal }) =>
      api.get<UserListResponse>('/users/all', {
        query: { ...filters },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
export const useUsers = (filters: UserListFilters) => useQuery(usersQuery(filters));

export const useUserDetail = (id: string) =>
  useQuery({
    queryKey: userKeys.detail(id),
    queryFn: ({ signal }) => api.get<AdminUserDetail>(`/admin/users/${id}`, { signal }),
    retry: (failures, error) => !(error instanceof ApiError && error.status === 404) && failures < 2,
  });

/** The trail about a member, newest first; the first page comes with the detail. */
export function useUserAudit(id: string, first: AuditPage | undefined) {
  return useInfiniteQuery({
    queryKey: userKeys.audit(id),
    queryFn: ({ pageParam, signal }) =>
      api.get<AuditPage>(`/admin/users/${id}/audit`, { query: { cursor: pageParam, limit: 20 }, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    enabled: first !== undefined,
  });
}

/** The member's listings, from catalog's back office (GET /admin/books?owner_id=). */
export const useUserBooks = (id: string) =>
  useQuery({
    queryKey: userKeys.books(id),
    queryFn: ({ signal }) => api.get<AdminBookPage>('/admin/books', { query: { owner_id: id, per_page: 10 }, signal }),
    retry: 1,
  });

type UserAnswer = { message: string; user: AdminUser };

/** Every change to a member: the detail, their trail and the lists are read again. */
function refreshUser(queryClient: QueryClient, id: string) {
  void queryClient.invalidateQueries({ queryKey: userKeys.detail(id) });
  void queryClient.invalidateQueries({ queryKey: userKeys.audit(id) });
  void queryClient.invalidateQueries({ queryKey: userKeys.lists });
  void queryClient.invalidateQueries({ queryKey: ['admin', 'roles'] });
}

export type UserAction =
  | { kind: 'promote' }
  | { kind: 'revoke' }
  | { kind: 'deactivate'; reason: string }
  | { kind: 'reactivate' }
  | { kind: 'resend' }
  | { kind: 'roles'; roles: string[] }
  | { kind: 'permissions'; permissions: string[] };

function run(id: string, action: UserAction): Promise<{ message: string }> {
  const base = `/admin/users/${id}`;
  switch (action.kind) {
    case 'promote':
    case 'revoke':
    case 'reactivate':
      return api.post<UserAnswer>(`${base}/${action.kind}`);
    case 'deactivate':
      return api.post<UserAnswer>(`${base}/deactivate`, { reason: action.reason });
    case 'resend':
      return api.post<MessageResponse>(`${base}/resend-verification`);
    case 'roles':
      return api.put<UserAnswer>(`${base}/roles`, { roles: action.roles });
    case 'permissions':
      return api.put<UserAnswer>(`${base}/permissions`, { permissions: action.permissions });
  }
}

export function useUserAction(
  id: string,
  handlers: {
    onSuccess: (action: UserAction, answer: { message: string }) => void;
    onError: (action: UserAction, error: unknown) => void;
  },
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: UserAction) => run(id, action),
    onSuccess: (answer, action) => {
      refreshUser(queryClient, id);
      handlers.onSuccess(action, answer);
    },
    onError: (error, action) => handlers.onError(action, error),
  });
}
