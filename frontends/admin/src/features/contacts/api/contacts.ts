// Types only: the list must not load the contracts (and zod); the answer form does.
import type { Contact, ContactStatus, PageMeta } from '@cartable/contracts';
import { api } from '@cartable/ui';
import { keepPreviousData, type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';

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
  return api.get<{ data: Contact[]; meta: PageMeta }>('/admin/contacts', { query: { ...query }, signal });
}

export async function fetchContactStats(signal?: AbortSignal): Promise<ContactStats> {
  const answer = await api.get<{ stats: ContactStats }>('/admin/contacts/stats', { signal });
  return answer.stats;
}

export async function fetchContact(id: string, signal?: AbortSignal): Promise<Contact> {
  const answer = await api.get<{ data: Contact }>(`/admin/contacts/${id}`, { signal });
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
  return api.post<{ message?: string; data: Contact }>(`/admin/contacts/${id}/respond`, { response });
}

export function setContactStatus(id: string, status: ContactStatus) {
  return api.patch<{ data: Contact }>(`/admin/contacts/${id}/status`, { status });
}

export function deleteContact(id: string) {
  return api.delete<{ message?: string }>(`/admin/contacts/${id}`);
}

export function bulkDeleteContacts(ids: string[]) {
  return api.post<{ deleted: number }>('/admin/contacts/bulk-delete', { ids });
}
