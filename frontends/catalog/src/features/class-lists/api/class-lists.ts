// Types only: the pages must not load the contracts (and zod); the proposal form does.
import type {
  ClassList,
  ClassListAvailability,
  ClassListBasket,
  ClassListBaskets,
  ClassListBookCard,
  ClassListDetail,
  ClassListItemAvailability,
  ClassListPage,
  ClassListProposalRequest,
  ClassListResponse,
  ClassListWriteResponse,
  MessageResponse,
  SavedClassList,
  SavedClassListResponse,
  SavedClassListsResponse,
  SendMessageRequest,
  SendMessageResponse,
} from '@cartable/contracts';
import { ApiError, api } from '@cartable/ui';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

/**
 * Class book lists and « Ma liste » (services/catalog/API.md « Class book lists »; shapes from
 * libs/contracts/src/class-lists.ts): published lists of a level, their availability near a
 * town, the member's saved lists, proposals.
 */
export type {
  ClassList,
  ClassListAvailability,
  ClassListBasket,
  ClassListBaskets,
  ClassListBookCard,
  ClassListDetail,
  ClassListItemAvailability,
  SavedClassList,
};

/** The school year a date falls in (from August, the coming year): as the contract's schoolYearOf. */
export function currentSchoolYear(date: Date = new Date()) {
  const y = date.getUTCFullYear();
  const start = date.getUTCMonth() >= 7 ? y : y - 1;
  return `${start}-${start + 1}`;
}

export const classListKeys = {
  all: ['class-lists'] as const,
  byLevel: (levelId: number) => ['class-lists', 'level', levelId] as const,
  availability: (listId: number, cityId: number | null) => ['class-lists', 'availability', listId, cityId] as const,
  saved: ['class-lists', 'saved'] as const,
  baskets: (listId: number) => ['class-lists', 'baskets', listId] as const,
};

const noRetryOn4xx = (failures: number, error: unknown) =>
  !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2;

/** GET /class-lists?level_id: the published lists of a level (official first, then schools by name). */
export const levelListsQuery = (levelId: number) =>
  queryOptions({
    queryKey: classListKeys.byLevel(levelId),
    queryFn: async ({ signal }) => {
      const page = await api.get<ClassListPage>('/class-lists', { query: { level_id: levelId }, signal });
      return Array.isArray(page?.data) ? page.data : [];
    },
    staleTime: 10 * 60_000,
    retry: noRetryOn4xx,
  });

/**
 * GET /class-lists/{id}/availability?city_id: each book with its listings near the town. The
 * « déjà obtenu » marks stay on the page (and in the member's saved list): no new call per tap.
 */
export const availabilityQuery = (listId: number, cityId: number | null) =>
  queryOptions({
    queryKey: classListKeys.availability(listId, cityId),
    queryFn: ({ signal }) =>
      api.get<ClassListAvailability>(`/class-lists/${listId}/availability`, {
        query: { city_id: cityId ?? undefined },
        signal,
      }),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    retry: noRetryOn4xx,
  });

/** GET /class-lists/{id}: the list with its books (« Vendre ma liste »). */
export const listDetailQuery = (listId: number) =>
  queryOptions({
    queryKey: ['class-lists', 'detail', listId] as const,
    queryFn: async ({ signal }) => (await api.get<ClassListResponse>(`/class-lists/${listId}`, { signal })).list,
    staleTime: 10 * 60_000,
    retry: noRetryOn4xx,
  });

/** GET /my-class-lists: the member's saved lists. */
export const savedListsQuery = () =>
  queryOptions({
    queryKey: classListKeys.saved,
    queryFn: async ({ signal }) => {
      const data = await api.get<SavedClassListsResponse>('/my-class-lists', { signal });
      return Array.isArray(data?.data) ? data.data : [];
    },
  });

/** PUT /my-class-lists/{list_id}: save the list (or its new town and marks). */
export function useSaveList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ listId, cityId, owned }: { listId: number; cityId: number | null; owned: number[] }) =>
      api.put<SavedClassListResponse>(`/my-class-lists/${listId}`, {
        city_id: cityId,
        owned_item_ids: owned,
      }),
    onSuccess: (data, { listId }) => {
      queryClient.setQueriesData<ClassListAvailability>({ queryKey: ['class-lists', 'availability', listId] }, (old) =>
        old ? { ...old, saved: true } : old,
      );
      void queryClient.invalidateQueries({ queryKey: classListKeys.saved });
      // New marks or a new town make other baskets.
      void queryClient.invalidateQueries({ queryKey: classListKeys.baskets(listId) });
      return data;
    },
  });
}

/** DELETE /my-class-lists/{list_id}: no more alerts for it. */
export function useForgetList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (listId: number) => api.delete<MessageResponse>(`/my-class-lists/${listId}`),
    onSuccess: (_data, listId) => {
      queryClient.setQueriesData<ClassListAvailability>({ queryKey: ['class-lists', 'availability', listId] }, (old) =>
        old ? { ...old, saved: false } : old,
      );
      queryClient.setQueryData<SavedClassList[]>(classListKeys.saved, (old) =>
        old?.filter((s) => s.list.id !== listId),
      );
      void queryClient.invalidateQueries({ queryKey: classListKeys.saved });
    },
  });
}

/** POST /class-lists/proposals with an Idempotency-Key: a family proposes its school's list. */
export function useProposeList(handlers: {
  onSuccess: (answer: ClassListWriteResponse) => void;
  onError: (error: unknown) => void;
}) {
  return useMutation({
    mutationFn: ({ body, key }: { body: ClassListProposalRequest; key: string }) =>
      api.post<ClassListWriteResponse>('/class-lists/proposals', body, { idempotencyKey: key }),
    ...handlers,
  });
}

/** GET /my-class-lists/{list_id}/baskets: « Compléter ma liste », three baskets for the missing books. */
export const basketsQuery = (listId: number) =>
  queryOptions({
    queryKey: classListKeys.baskets(listId),
    queryFn: ({ signal }) => api.get<ClassListBaskets>(`/my-class-lists/${listId}/baskets`, { signal }),
    staleTime: 60_000,
    retry: noRetryOn4xx,
  });

/** POST /messages (messaging's own route): one prepared message to a seller of a basket, about one of their listings. */
export function useMessageSeller() {
  return useMutation({
    mutationFn: ({ body, key }: { body: SendMessageRequest; key: string }) =>
      api.post<Partial<SendMessageResponse>>('/messages', body, { idempotencyKey: key }),
  });
}
