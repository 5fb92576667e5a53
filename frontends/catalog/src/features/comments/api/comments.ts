import type { Comment, CommentPage, CommentResponse, MessageResponse, ModerationDecision } from '@cartable/contracts';
import { api, queryKeys } from '@cartable/ui';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Id } from '../../../shared/books';

/**
 * Comments on a book (services/moderation/API.md; shapes from libs/contracts/src/moderation.ts:
 * comment ids are UUIDs, replies nest at any depth).
 */
export type { Comment, CommentPage };
export type ModerationStatus = ModerationDecision;

/** SPEC sections 5 and 8: what the comment screens say (the rules' own messages are the contract's). */
export const commentMessages = {
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

/** Shared with the back office, which refreshes a book's comments after a decision. */
export const commentKeys = queryKeys.comments;

export function fetchComments(bookId: Id, page: number, signal?: AbortSignal): Promise<CommentPage> {
  return api.get<CommentPage>(`/books/${bookId}/comments`, { query: { page }, signal });
}

/** A page of a book's comments; the previous page stays on screen while the next one loads. */
export const commentsQuery = (bookId: Id, page: number) =>
  queryOptions({
    queryKey: commentKeys.page(bookId, page),
    queryFn: ({ signal }) => fetchComments(bookId, page, signal),
    placeholderData: keepPreviousData,
  });

type Answer = Partial<CommentResponse>;

export function postComment(bookId: Id, content: string, parentId?: string | null, idempotencyKey?: string) {
  return api.post<Answer>(
    `/books/${bookId}/comments`,
    { content, ...(parentId ? { parent_id: parentId } : {}) },
    idempotencyKey ? { idempotencyKey } : {},
  );
}

export function updateComment(bookId: Id, commentId: string, content: string) {
  return api.put<Answer>(`/books/${bookId}/comments/${commentId}`, { content });
}

export function deleteComment(bookId: Id, commentId: string) {
  return api.delete<MessageResponse>(`/books/${bookId}/comments/${commentId}`);
}

export function moderateComment(commentId: string, status: ModerationStatus) {
  return api.patch<Answer>(`/admin/comments/${commentId}/moderate`, { status });
}

interface Handlers<Answer, Variables> {
  onMutate?: (variables: Variables) => void;
  onSettled?: () => void;
  onSuccess?: (answer: Answer, variables: Variables) => void;
  onError?: (error: unknown) => void;
}

/** A change to a book's comments: every page of them is fetched again afterwards. */
function useCommentChange<Variables, Answer>(
  bookId: Id,
  mutationFn: (variables: Variables) => Promise<Answer>,
  handlers: Handlers<Answer, Variables>,
  { queue = false } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onMutate: handlers.onMutate,
    onSettled: handlers.onSettled,
    onSuccess: (answer, variables) => {
      void queryClient.invalidateQueries({ queryKey: commentKeys.book(bookId) });
      // The back office's queue of pending comments changes with a decision.
      if (queue) void queryClient.invalidateQueries({ queryKey: queryKeys.moderation.pendingComments });
      handlers.onSuccess?.(answer, variables);
    },
    onError: handlers.onError,
  });
}

/** POST /books/{id}/comments: a comment, or a reply under `parentId`; one Idempotency-Key per submission. */
export const useAddComment = (
  bookId: Id,
  handlers: Handlers<Answer, { content: string; parentId?: string; idempotencyKey: string }>,
) =>
  useCommentChange(
    bookId,
    ({ content, parentId, idempotencyKey }) => postComment(bookId, content, parentId, idempotencyKey),
    handlers,
  );

export const useEditComment = (bookId: Id, handlers: Handlers<Answer, { id: string; content: string }>) =>
  useCommentChange(bookId, ({ id, content }) => updateComment(bookId, id, content), handlers);

export const useDeleteComment = (bookId: Id, handlers: Handlers<{ message?: string }, string>) =>
  useCommentChange(bookId, (id) => deleteComment(bookId, id), handlers);

/** PATCH /admin/comments/{id}/moderate, by the book's owner or an administrator. */
export const useModerateComment = (bookId: Id, handlers: Handlers<Answer, { id: string; status: ModerationStatus }>) =>
  useCommentChange(bookId, ({ id, status }) => moderateComment(id, status), handlers, { queue: true });
