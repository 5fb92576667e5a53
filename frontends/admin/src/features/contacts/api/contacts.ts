// Types only: the list must not load the contracts (and zod); the answer form does.
import type {
  Contact,
  ContactBulkDeleteResponse,
  ContactListResponse,
  ContactRespondResponse,
  ContactResponse,
  ContactStatsResponse,
  ContactStatus,
  MessageResponse,
} from '@cartable/contracts';
import { ApiError, api } from '@cartable/ui';
import {
  keepPreviousData,
  type QueryClient,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';

/**
 * Contact messages in the back office (services/moderation/API.md; shapes from
 * libs/contracts/src/moderation.ts: ids are UUIDs).
 */
export type { Contact, ContactStatus };
export type ContactStats = Record<'total' | ContactStatus, number>;

export const CONTACT_STATUSES = ['new', 'read', 'answered', 'archived'] satisfies ContactStatus[];

export const CONTACT_STATUS_LABELS: Record<ContactStatus, string> = {
  new: 'Nouveau',
  read: 'Lu',
  answered: 'Répondu',
  archived: 'Archivé',
};

export const CONTACT_STATUS_TONES = {
  new: 'accent',
  read: 'ocean',
  answered: 'primary',
  archived: 'neutral',
} as const;

export const contactKeys = {
  all: ['admin', 'contacts'] as const,
  lists: ['admin', 'contacts', 'list'] as const,
  list: (params: Record<string, unknown>) => ['admin', 'contacts', 'list', params] as const,
  stats: ['admin', 'contacts', 'stats'] as const,
  detail: (id: string) => ['admin', 'contacts', 'detail', id] as const,
};

export interface ContactQuery {
  status?: ContactStatus | '';
  search?: string;
  page: number;
  per_page?: number;
}

export function fetchContacts(query: ContactQuery, signal?: AbortSignal) {
  return api.get<ContactListResponse>('/admin/contacts', { query: { ...query }, signal });
}

export async function fetchContactStats(signal?: AbortSignal): Promise<ContactStats> {
  const answer = await api.get<ContactStatsResponse>('/admin/contacts/stats', { signal });
  return answer.stats;
}

export async function fetchContact(id: string, signal?: AbortSignal): Promise<Contact> {
  const answer = await api.get<ContactResponse>(`/admin/contacts/${id}`, { signal });
  return answer.data;
}

export const contactsQuery = (query: ContactQuery) =>
  queryOptions({
    queryKey: contactKeys.list({ ...query }),
    queryFn: ({ signal }) => fetchContacts(query, signal),
    placeholderData: keepPreviousData,
  });

export const contactStatsQuery = () =>
  queryOptions({ queryKey: contactKeys.stats, queryFn: ({ signal }) => fetchContactStats(signal) });

export const useContacts = (query: ContactQuery) => useQuery(contactsQuery(query));
export const useContactStats = () => useQuery(contactStatsQuery());

/** The lists and the counters change whenever a message is read, answered, moved or deleted. */
export function refreshContactLists(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: contactKeys.lists });
  void queryClient.invalidateQueries({ queryKey: contactKeys.stats });
}

export function respondToContact(id: string, response: string) {
  return api.post<ContactRespondResponse>(`/admin/contacts/${id}/respond`, { response });
}

export function setContactStatus(id: string, status: ContactStatus) {
  return api.patch<ContactResponse>(`/admin/contacts/${id}/status`, { status });
}

export function deleteContact(id: string) {
  return api.delete<MessageResponse>(`/admin/contacts/${id}`);
}

export function bulkDeleteContacts(ids: string[]) {
  return api.post<ContactBulkDeleteResponse>('/admin/contacts/bulk-delete', { ids });
}

/** GET /admin/contacts/{id}: opening a new message marks it read, so lists and counters change. */
export function useContact(id: string) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: contactKeys.detail(id),
    queryFn: async ({ signal }) => {
      const data = await fetchContact(id, signal);
      refreshContactLists(queryClient);
      return data;
    },
    retry: (failures, error) => !(error instanceof ApiError && error.status === 404) && failures < 2,
  });
}

interface Handlers<Answer> {
  onSuccess: (answer: Answer) => void;
  onError: (error: unknown) => void;
}

/** A change to one message: the answer's copy of it replaces the cached one, lists and counters follow. */
function useContactChange<Variables, Answer extends { data?: Contact }>(
  id: string,
  mutationFn: (variables: Variables) => Promise<Answer>,
  handlers: Handlers<Answer>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (answer) => {
      handlers.onSuccess(answer);
      if (answer?.data) queryClient.setQueryData(contactKeys.detail(id), answer.data);
      refreshContactLists(queryClient);
    },
    onError: handlers.onError,
  });
}

/** POST /admin/contacts/{id}/respond: the answer goes by e-mail. */
export const useRespondToContact = (id: string, handlers: Handlers<{ message?: string; data?: Contact }>) =>
  useContactChange(id, (response: string) => respondToContact(id, response), handlers);

export const useSetContactStatus = (id: string, handlers: Handlers<{ data?: Contact }>) =>
  useContactChange(id, (status: ContactStatus) => setContactStatus(id, status), handlers);

/** DELETE /admin/contacts/{id}: its page leaves the cache, the lists are fetched again. */
export function useDeleteContact(id: string, handlers: Handlers<{ message?: string }>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteContact(id),
    onSuccess: (answer) => {
      queryClient.removeQueries({ queryKey: contactKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: contactKeys.all });
      handlers.onSuccess(answer);
    },
    onError: handlers.onError,
  });
}

/** Deletes one message (DELETE) or several (POST bulk-delete); answers how many went. */
export function useDeleteContacts(handlers: Handlers<number>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (ids: string[]) => {
      if (ids.length === 1) {
        await deleteContact(ids[0] as string);
        return 1;
      }
      return (await bulkDeleteContacts(ids)).deleted ?? ids.length;
    },
    onSuccess: (deleted) => {
      handlers.onSuccess(deleted);
      void queryClient.invalidateQueries({ queryKey: contactKeys.all });
    },
    onError: handlers.onError,
  });
}
