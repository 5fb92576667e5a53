// Types only: the screens must not load the contracts (and zod) for their shapes.
import type { AdminRole, PageMeta } from '@cartable/contracts';
import { api } from '@cartable/ui';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';

/** Roles and permissions in the back office (services/auth/API.md, "Administration"). */
export type { AdminRole };
export interface PermissionDetail {
  id: string;
  slug: string;
  name: string;
}
export interface RoleHolder {
  id: string;
  name: string;
  email: string;
}
export interface RoleFields {
  slug: string;
  name: string;
  permissions: string[];
}

export const roleKeys = {
  all: ['admin', 'roles'] as const,
  list: ['admin', 'roles', 'list'] as const,
  permissions: ['admin', 'permissions'] as const,
  holders: (id: string) => ['admin', 'roles', 'holders', id] as const,
};

export const rolesQuery = () =>
  queryOptions({
    queryKey: roleKeys.list,
    queryFn: async ({ signal }) => (await api.get<{ roles: AdminRole[] }>('/roles', { signal })).roles,
  });

export const permissionsQuery = () =>
  queryOptions({
    queryKey: roleKeys.permissions,
    queryFn: async ({ signal }) =>
      (await api.get<{ permissions: PermissionDetail[] }>('/permissions', { signal })).permissions,
    staleTime: 5 * 60_000,
  });

export const useRoles = (enabled = true) => useQuery({ ...rolesQuery(), enabled });
export const usePermissions = (enabled = true) => useQuery({ ...permissionsQuery(), enabled });

export const useRoleHolders = (id: string | null) =>
  useQuery({
    queryKey: roleKeys.holders(id ?? ''),
    queryFn: ({ signal }) =>
      api.get<{ data: RoleHolder[]; meta: PageMeta }>(`/roles/${id}/holders`, {
        query: { per_page: 100 },
        signal,
      }),
    enabled: id !== null,
  });

export const createRole = (fields: RoleFields) => api.post<{ message: string; role: AdminRole }>('/roles', fields);
export const updateRole = (id: string, fields: RoleFields) =>
  api.put<{ message: string; role: AdminRole }>(`/roles/${id}`, fields);
/** A held role is refused (409) unless `force`: then its holders lose it. */
export const deleteRole = (id: string, force: boolean) =>
  api.delete<{ message: string }>(`/roles/${id}`, undefined, force ? { query: { force: 'true' } } : undefined);

/** Roles, their holders and the members' rights change together. */
export function refreshRoles(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: roleKeys.all });
  void queryClient.invalidateQueries({ queryKey: ['admin', 'users'] });
}
