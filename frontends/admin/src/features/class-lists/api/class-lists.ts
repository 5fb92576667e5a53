import type {
  AdminClassListQuery,
  ClassList,
  ClassListCoverage,
  ClassListCreateRequest,
  ClassListDetail,
  ClassListImportReport,
  ClassListItem,
  ClassListItemRequest,
  ClassListItemUpdateRequest,
  ClassListItemWriteResponse,
  ClassListPage,
  ClassListResponse,
  ClassListUpdateRequest,
  ClassListVersion,
  ClassListVersionsResponse,
  ClassListWriteResponse,
  MessageResponse,
} from '@cartable/contracts';
import { api } from '@cartable/ui';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

/**
 * Class book lists in the back office (lists.manage; services/catalog/API.md « Class book lists »):
 * every status, proposals first; lists and their books, copy, CSV import, approval.
 */
export type {
  AdminClassListQuery,
  ClassList,
  ClassListCoverage,
  ClassListCreateRequest,
  ClassListDetail,
  ClassListImportReport,
  ClassListItem,
  ClassListItemRequest,
  ClassListItemUpdateRequest,
  ClassListUpdateRequest,
  ClassListVersion,
};

export const adminClassListKeys = {
  all: ['admin', 'class-lists'] as const,
  list: (query: ListFilters) => ['admin', 'class-lists', 'list', query] as const,
  detail: (id: number) => ['admin', 'class-lists', 'detail', id] as const,
  versions: (id: number) => ['admin', 'class-lists', 'versions', id] as const,
  coverage: (schoolYear: string) => ['admin', 'class-lists', 'coverage', schoolYear] as const,
};

const enc = encodeURIComponent;

/** The back office's filters (what the URL holds), as GET /admin/class-lists reads them. */
export interface ListFilters {
  page: number;
  level_id?: number;
  school_year?: string;
  kind?: 'official' | 'school';
  status?: ClassList['status'];
  q?: string;
}

export const adminClassListsQuery = (query: ListFilters) =>
  queryOptions({
    queryKey: adminClassListKeys.list(query),
    queryFn: ({ signal }) => api.get<ClassListPage>('/admin/class-lists', { query: { ...query }, signal }),
    placeholderData: keepPreviousData,
  });

export const adminClassListQuery = (id: number) =>
  queryOptions({
    queryKey: adminClassListKeys.detail(id),
    queryFn: async ({ signal }) => (await api.get<ClassListResponse>(`/admin/class-lists/${enc(id)}`, { signal })).list,
  });

/** GET /admin/class-lists/{id}/versions: every change of its books, the newest first. */
export const adminClassListVersionsQuery = (id: number) =>
  queryOptions({
    queryKey: adminClassListKeys.versions(id),
    queryFn: async ({ signal }) =>
      (await api.get<ClassListVersionsResponse>(`/admin/class-lists/${enc(id)}/versions`, { signal })).data,
  });

/**
 * GET /admin/class-lists/coverage: per level and town, the families' saved lists fully coverable,
 * the median saving and the missing titles most wanted. The server keeps it a minute: no need to
 * ask more often.
 */
export const adminClassListCoverageQuery = (schoolYear: string) =>
  queryOptions({
    queryKey: adminClassListKeys.coverage(schoolYear),
    queryFn: ({ signal }) =>
      api.get<ClassListCoverage>('/admin/class-lists/coverage', { query: { school_year: schoolYear }, signal }),
    staleTime: 60_000,
  });

/** Every write answers the list (or item) as it is now: the detail is refreshed, the lists refetched. */
function useListWrite<V, R extends { message: string; list?: ClassListDetail }>(call: (v: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (answer) => {
      if (answer.list) queryClient.setQueryData(adminClassListKeys.detail(answer.list.id), answer.list);
      void queryClient.invalidateQueries({ queryKey: adminClassListKeys.all });
    },
  });
}

export const useCreateList = () =>
  useListWrite((body: ClassListCreateRequest) => api.post<ClassListWriteResponse>('/admin/class-lists', body));

export const useUpdateList = () =>
  useListWrite(({ id, body }: { id: number; body: ClassListUpdateRequest }) =>
    api.put<ClassListWriteResponse>(`/admin/class-lists/${enc(id)}`, body),
  );

export const useDeleteList = () =>
  useListWrite((id: number) => api.delete<MessageResponse>(`/admin/class-lists/${enc(id)}`));

export const useCopyList = () =>
  useListWrite(({ id, school_year }: { id: number; school_year: string }) =>
    api.post<ClassListWriteResponse>(`/admin/class-lists/${enc(id)}/copy`, { school_year }),
  );

export const useApproveList = () =>
  useListWrite((id: number) => api.post<ClassListWriteResponse>(`/admin/class-lists/${enc(id)}/approve`, {}));

export const useRejectList = () =>
  useListWrite(({ id, reason }: { id: number; reason: string }) =>
    api.post<ClassListWriteResponse>(`/admin/class-lists/${enc(id)}/reject`, { reason }),
  );

export const useSaveItem = () =>
  useListWrite(
    ({ listId, itemId, body }: { listId: number; itemId?: number; body: ClassListItemRequest }) =>
      (itemId
        ? api.put<ClassListItemWriteResponse>(`/admin/class-lists/${enc(listId)}/items/${enc(itemId)}`, body)
        : api.post<ClassListItemWriteResponse>(`/admin/class-lists/${enc(listId)}/items`, body)) as Promise<{
        message: string;
      }>,
  );

/** A book replaced by another: the old one is withdrawn (families and sellers are told). */
export const useReplaceItem = () =>
  useListWrite(
    ({ listId, itemId, body }: { listId: number; itemId: number; body: ClassListItemRequest }) =>
      api.post<ClassListItemWriteResponse>(
        `/admin/class-lists/${enc(listId)}/items/${enc(itemId)}/replace`,
        body,
      ) as Promise<{ message: string }>,
  );

export const useDeleteItem = () =>
  useListWrite(({ listId, itemId }: { listId: number; itemId: number }) =>
    api.delete<MessageResponse>(`/admin/class-lists/${enc(listId)}/items/${enc(itemId)}`),
  );

/** After an import (its answer has no list): every list and detail is read again. */
export function useRefreshClassLists() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: adminClassListKeys.all });
}

/** POST /admin/class-lists/{id}/import: `dryRun` is the per-line preview (nothing written). */
export function importItems(listId: number, file: File, dryRun: boolean) {
  const form = new FormData();
  form.append('csv_file', file);
  return api.post<ClassListImportReport>(
    `/admin/class-lists/${enc(listId)}/import${dryRun ? '?dry_run=true' : ''}`,
    form,
  );
}
