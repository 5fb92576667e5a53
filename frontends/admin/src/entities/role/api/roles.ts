// Types only: the screens must not load the contracts (and zod) for their shapes.
import type {
  AdminRole,
  MessageResponse,
  PermissionsResponse,
  RoleHoldersResponse,
  RoleRequest,
  RoleResponseWithMessage,
  RolesResponse,
} from '@cartable/contracts';
import { api } from '@cartable/ui';
import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

/** Roles and permissions in the back office (services/auth/API.md, "Administration"). */
export type { AdminRole };
export type PermissionDetail = PermissionsResponse['permissions'][number];
export type RoleHolder = RoleHoldersResponse['data'][number];
/** What the role form sends (POST /roles, PUT /roles/{id}). */
export type RoleFields = RoleRequest;

export const roleKeys = {
  all: ['admin', 'roles'] as const,
  list: ['admin', 'roles', 'list'] as const,
  permissions: ['admin', 'permissions'] as const,
  holders: (id: string) => ['admin', 'roles', 'holders', id] as const,
};

export const rolesQuery = () =>
  queryOptions({
    queryKey: roleKeys.list,
    queryFn: async ({ signal }) => (await api.get<RolesResponse>('/roles', { signal })).roles,
  });

export const permissionsQuery = () =>
  queryOptions({
    queryKey: roleKeys.permissions,
    queryFn: async ({ signal }) => (await api.get<PermissionsResponse>('/permissions', { signal })).permissions,
    staleTime: 5 * 60_000,
  });

export const useRoles = (enabled = true) => useQuery({ ...rolesQuery(), enabled });
export const usePermissions = (enabled = true) => useQuery({ ...permissionsQuery(), enabled });

export const useRoleHolders = (id: string | null) =>
  useQuery({
    queryKey: roleKeys.holders(id ?? ''),
    queryFn: ({ signal }) =>
      api.get<RoleHoldersResponse>(`/roles/${id}/holders`, {
        query: { per_page: 100 },
        signal,
      }),
    enabled: id !== null,
  });

export const createRole = (fields: RoleFields) => api.post<RoleResponseWithMessage>('/roles', fields);
export const updateRole = (id: string, fields: RoleFields) => api.put<RoleResponseWithMessage>(`/roles/${id}`, fields);
/** A held role is refused (409) unless `force`: then its holders lose it. */
export const deleteRole = (id: string, force: boolean) =>
  api.delete<MessageResponse>(`/roles/${id}`, undefined, force ? { query: { force: 'true' } } : undefined);

/** Roles, their holders and the members' rights change together. */
export function refreshRoles(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: roleKeys.all });
  void queryClient.invalidateQueries({ queryKey: ['admin', 'users'] });
}

/** Creates the role, or saves the one being edited; the lists refresh. */
export function useSaveRole(
  editing: AdminRole | null,
  handlers: { onSuccess: (answer: RoleResponseWithMessage) => void; onError: (error: unknown) => void },
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fields: RoleFields) => (editing ? updateRole(editing.id, fields) : createRole(fields)),
    onSuccess: (answer) => {
      refreshRoles(queryClient);
      handlers.onSuccess(answer);
    },
    onError: handlers.onError,
  });
}

/** Deletes a role (its holders lose it when it is held); the lists refresh either way. */
export function useDeleteRole(handlers: {
  onSuccess: (answer: MessageResponse) => void;
  onError: (error: unknown) => void;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (role: AdminRole) => deleteRole(role.id, role.holders_count > 0),
    onSuccess: (answer) => {
      refreshRoles(queryClient);
      handlers.onSuccess(answer);
    },
    onError: (error) => {
      // Given to someone meanwhile (409): the counts are read again.
      refreshRoles(queryClient);
      handlers.onError(error);
    },
  });
}
