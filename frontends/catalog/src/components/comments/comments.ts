import { api } from '@cartable/ui';
import type { Id } from '../../lib/books';

/** A comment as GET /api/books/{id}/comments answers it (services/moderation/API.md). */
export interface Comment {
  id: number;
  content: string;
  parent_id: number | null;
  replies?: Comment[];
  created_at: string;
  status: 'pending' | 'approved' | 'rejected';
  user: { id: string; name: string; profile_image: string | null };
  can_edit?: boolean;
  can_delete?: boolean;
  can_moderate?: boolean;
}

export interface CommentPage {
  data: Comment[];
  meta: { current_page: number; last_page: number; total: number };
}

export type ModerationStatus = 'approved' | 'rejected';

/** SPEC sections 5 and 8: the comment screens' French messages. */
export const commentMessages = {
  empty: 'Le commentaire ne peut pas être vide',
  tooShort: 'Le commentaire doit contenir au moins 2 caractères',
  tooLong: 'Le commentaire ne peut pas dépasser 500 caractères',
  added: 'Commentaire ajouté avec succès',
  pendingSuffix: ' (en attente de modération)',
  updated: 'Commentaire mis à jour avec succès',
  deleted: 'Commentaire supprimé avec succès',
  approved: 'Commentaire approuvé avec succès',
  rejected: 'Commentaire rejeté avec succès',
  loadError: 'Impossible de charger les commentaires',
  addError: "Impossible d'ajouter le commentaire",
  updateError: 'Impossible de mettre à jour le commentaire',
  deleteError: 'Impossible de supprimer le commentaire',
  moderateError: 'Impossible de modérer le commentaire',
  loginToComment: 'Vous devez être connecté pour commenter',
  loginToReply: 'Vous devez être connecté pour répondre',
  loginToEdit: 'Vous devez être connecté pour modifier un commentaire',
  loginToDelete: 'Vous devez être connecté pour supprimer un commentaire',
  pendingBadge: 'En attente de modération',
} as const;

/** SPEC section 9: 2 to 500 characters, the counter warns under 50 left. */
export const COMMENT_MIN = 2;
export const COMMENT_MAX = 500;
export const COMMENT_WARNING = 50;

/** The first rule a comment breaks (SPEC section 5), or null. */
export function validateComment(content: string): string | null {
  const text = content.trim();
  if (!text) return commentMessages.empty;
  if (text.length < COMMENT_MIN) return commentMessages.tooShort;
  if (text.length > COMMENT_MAX) return commentMessages.tooLong;
  return null;
}

export const commentKeys = {
  all: ['comments'] as const,
  book: (bookId: Id) => ['comments', 'book', String(bookId)] as const,
  page: (bookId: Id, page: number) => ['comments', 'book', String(bookId), page] as const,
};

export function fetchComments(bookId: Id, page: number, signal?: AbortSignal): Promise<CommentPage> {
  return api.get<CommentPage>(`/books/${bookId}/comments`, { query: { page }, signal });
}

export function postComment(bookId: Id, content: string, parentId?: number | null, idempotencyKey?: string) {
  return api.post<{ message?: string; data: Comment }>(
    `/books/${bookId}/comments`,
    { content, ...(parentId ? { parent_id: parentId } : {}) },
    idempotencyKey ? { idempotencyKey } : {},
  );
}

export function updateComment(bookId: Id, commentId: number, content: string) {
  return api.put<{ message?: string; data: Comment }>(`/books/${bookId}/comments/${commentId}`, { content });
}

export function deleteComment(bookId: Id, commentId: number) {
  return api.delete<{ message?: string }>(`/books/${bookId}/comments/${commentId}`);
}

export function moderateComment(commentId: number, status: ModerationStatus) {
  return api.patch<{ message?: string; data?: Comment }>(`/admin/comments/${commentId}/moderate`, { status });
}

const relative = new Intl.RelativeTimeFormat('fr', { numeric: 'auto' });
const absolute = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeStyle: 'short' });

/** "à l'instant", "il y a 5 minutes", "hier", "il y a 3 mois" (SPEC: French relative dates). */
export function relativeDate(value: string, now: number = Date.now()): string {
  const time = new Date(value).getTime();
  if (Number.isNaN(time)) return '';
  const seconds = Math.round((time - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return "à l'instant";
  const steps: Array<[Intl.RelativeTimeFormatUnit, number]> = [
    ['minute', 60],
    ['hour', 3600],
    ['day', 86_400],
    ['week', 604_800],
    ['month', 2_629_800],
    ['year', 31_557_600],
  ];
  let unit: Intl.RelativeTimeFormatUnit = 'minute';
  let size = 60;
  for (const [candidate, length] of steps) {
    if (abs >= length * 0.9 || candidate === 'minute') {
      unit = candidate;
      size = length;
    }
  }
  return relative.format(Math.round(seconds / size), unit);
}

/** Full date and time, for the title of a relative date. */
export function fullDate(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : absolute.format(date);
}
