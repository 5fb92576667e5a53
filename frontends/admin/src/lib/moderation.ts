import { api } from '@cartable/ui';

/** Calls of the moderation service used by the back office (services/moderation/API.md). */

export interface PageMeta {
  current_page: number;
  last_page: number;
  total: number;
  per_page?: number;
}

export interface PendingComment {
  id: number;
  content: string;
  created_at: string;
  book_id: number;
  parent_id: number | null;
  user: { id: string; name: string };
}

export type ContactStatus = 'new' | 'read' | 'answered' | 'archived';

export interface Contact {
  id: number;
  name: string;
  email: string;
  subject: string;
  message: string;
  status: ContactStatus;
  response: string | null;
  responded_at: string | null;
  created_at: string;
}

export type ContactStats = Record<'total' | ContactStatus, number>;

export const CONTACT_STATUSES: ContactStatus[] = ['new', 'read', 'answered', 'archived'];

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

export const moderationMessages = {
  approved: 'Commentaire approuvé avec succès',
  rejected: 'Commentaire rejeté avec succès',
  moderateError: 'Impossible de modérer le commentaire',
  noPending: 'Aucun commentaire en attente de modération',
  loadError: 'Erreur lors du chargement des données',
} as const;

export const adminKeys = {
  pendingComments: (page: number) => ['admin', 'comments', 'pending', page] as const,
  contacts: ['admin', 'contacts'] as const,
  contactList: (params: Record<string, unknown>) => ['admin', 'contacts', 'list', params] as const,
  contactStats: ['admin', 'contacts', 'stats'] as const,
  contact: (id: string) => ['admin', 'contacts', 'detail', id] as const,
};

export function fetchPendingComments(page: number, signal?: AbortSignal) {
  return api.get<{ data: PendingComment[]; meta: PageMeta }>('/admin/comments/pending', { query: { page }, signal });
}

export function moderateComment(id: number, status: 'approved' | 'rejected') {
  return api.patch<{ message?: string }>(`/admin/comments/${id}/moderate`, { status });
}

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

export function respondToContact(id: number, response: string) {
  return api.post<{ message?: string; data: Contact }>(`/admin/contacts/${id}/respond`, { response });
}

export function setContactStatus(id: number, status: ContactStatus) {
  return api.patch<{ data: Contact }>(`/admin/contacts/${id}/status`, { status });
}

export function deleteContact(id: number) {
  return api.delete<{ message?: string }>(`/admin/contacts/${id}`);
}

export function bulkDeleteContacts(ids: number[]) {
  return api.post<{ deleted: number }>('/admin/contacts/bulk-delete', { ids });
}
