// Types only: /books and the pages must not load the contracts (and zod); the save dialog does.
import type {
  MessageResponse,
  SavedSearch,
  SavedSearchCreateRequest,
  SavedSearchFrequency,
  SavedSearchListResponse,
  SavedSearchUnsubscribeInfo,
  SavedSearchUnsubscribeResponse,
  SavedSearchUpdateRequest,
  SavedSearchWriteResponse,
} from '@cartable/contracts';
import { ApiError, api } from '@cartable/ui';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

/**
 * Saved searches with alerts (services/catalog/API.md « Saved searches »; shapes from
 * libs/contracts/src/saved-searches.ts): the member's searches, saving /books' filters, changing
 * the frequency, the name or the alerts, deleting, and the e-mail's unsubscribe link.
 */
export type { SavedSearch, SavedSearchFrequency, SavedSearchUnsubscribeInfo };

/** The pages' paths (as the contract's SAVED_SEARCHES_PAGE and SAVED_SEARCH_UNSUBSCRIBE_PAGE). */
export const SAVED_SEARCHES_PATH = '/mes-recherches';

/** The three frequencies, in the page's words, each with its one-line explanation. */
export const FREQUENCIES: Array<{ value: SavedSearchFrequency; label: string; hint: string }> = [
  {
    value: 'instant',
    label: 'Immédiate',
    hint: 'Un e-mail dès qu’une annonce correspond (au plus un par quart d’heure).',
  },
  {
    value: 'daily',
    label: 'Quotidienne',
    hint: 'Un seul e-mail chaque matin avec les nouvelles annonces de la veille.',
  },
  { value: 'weekly', label: 'Hebdomadaire', hint: 'Un récapitulatif le lundi matin avec les annonces de la semaine.' },
];
export const frequencyLabel = (value: SavedSearchFrequency) =>
  FREQUENCIES.find((f) => f.value === value)?.label ?? value;

export const savedSearchKeys = {
  all: ['saved-searches'] as const,
  unsubscribe: (token: string) => ['saved-searches', 'unsubscribe', token] as const,
};

const noRetryOn4xx = (failures: number, error: unknown) =>
  !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2;

/** GET /saved-searches: the member's saved searches, newest first, and the limits. */
export const savedSearchesQuery = () =>
  queryOptions({
    queryKey: savedSearchKeys.all,
    queryFn: async ({ signal }) => {
      const answer = await api.get<SavedSearchListResponse>('/saved-searches', { signal });
      return { data: Array.isArray(answer?.data) ? answer.data : [], limits: answer?.limits };
    },
    staleTime: 30_000,
    retry: noRetryOn4xx,
  });

/** GET /saved-searches/unsubscribe?token=: what the e-mail's link stops (no login). */
export const unsubscribeInfoQuery = (token: string) =>
  queryOptions({
    queryKey: savedSearchKeys.unsubscribe(token),
    queryFn: ({ signal }) =>
      api.get<SavedSearchUnsubscribeInfo>('/saved-searches/unsubscribe', { query: { token }, signal }),
    enabled: token !== '',
    retry: noRetryOn4xx,
    staleTime: Number.POSITIVE_INFINITY,
  });

/** POST /saved-searches: /books' whole query string as the filters (the server keeps the filters). */
export function useCreateSavedSearch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SavedSearchCreateRequest) => api.post<SavedSearchWriteResponse>('/saved-searches', body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: savedSearchKeys.all }),
  });
}

type ListCache = Awaited<ReturnType<NonNullable<ReturnType<typeof savedSearchesQuery>['queryFn']>>>;

/** PUT /saved-searches/{id}: name, frequency or `active` (true switches alerts back on). */
export function useUpdateSavedSearch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: SavedSearchUpdateRequest & { id: number }) =>
      api.put<SavedSearchWriteResponse>(`/saved-searches/${id}`, body),
    onSuccess: (answer) => {
      const saved = answer?.saved_search;
      if (saved) {
        queryClient.setQueryData<ListCache>(savedSearchKeys.all, (old) =>
          old ? { ...old, data: old.data.map((s) => (s.id === saved.id ? saved : s)) } : old,
        );
      }
      void queryClient.invalidateQueries({ queryKey: savedSearchKeys.all });
    },
  });
}

/** DELETE /saved-searches/{id}. */
export function useDeleteSavedSearch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<MessageResponse>(`/saved-searches/${id}`),
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<ListCache>(savedSearchKeys.all, (old) =>
        old ? { ...old, data: old.data.filter((s) => s.id !== id) } : old,
      );
      void queryClient.invalidateQueries({ queryKey: savedSearchKeys.all });
    },
  });
}

/** POST /saved-searches/unsubscribe?token=: stops the alerts (again is fine too). */
export function useUnsubscribe(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api.post<SavedSearchUnsubscribeResponse>('/saved-searches/unsubscribe', undefined, { query: { token } }),
    onSuccess: (answer) => {
      if (answer?.saved_search) queryClient.setQueryData(savedSearchKeys.unsubscribe(token), answer);
      void queryClient.invalidateQueries({ queryKey: savedSearchKeys.all });
    },
  });
}
