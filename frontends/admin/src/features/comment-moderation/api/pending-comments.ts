import type { CommentResponse, ModerationDecision, PendingComment, PendingCommentsResponse } from '@cartable/contracts';
import { api, queryKeys } from '@cartable/ui';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

/** The moderation queue (services/moderation/API.md; shapes from libs/contracts/src/moderation.ts). */
export type { ModerationDecision, PendingComment };
export type PendingPage = PendingCommentsResponse;

export const moderationMessages = {
  approved: 'Commentaire approuvé avec succès',
  rejected: 'Commentaire rejeté avec succès',
  moderateError: 'Impossible de modérer le commentaire',
  noPending: 'Aucun commentaire en attente de modération',
} as const;

/** Which part of the queue: a page, words searched, newest or oldest first. */
export interface PendingQuery {
  page: number;
  q: string;
  order: 'newest' | 'oldest';
}

const keyOf = ({ page, q, order }: PendingQuery) => queryKeys.moderation.pendingCommentsPage(page, q, order);

export function fetchPendingComments({ page, q, order }: PendingQuery, signal?: AbortSignal) {
  return api.get<PendingPage>('/admin/comments/pending', {
    query: { page, ...(q ? { q } : {}), ...(order === 'oldest' ? { order } : {}) },
    signal,
  });
}

/** GET /admin/comments/pending: newest first unless asked; the previous page stays shown while the next loads. */
export const pendingCommentsQuery = (query: PendingQuery) =>
  queryOptions({
    queryKey: keyOf(query),
    queryFn: ({ signal }) => fetchPendingComments(query, signal),
    placeholderData: keepPreviousData,
  });

export function moderateComment(id: string, status: ModerationDecision) {
  return api.patch<CommentResponse>(`/admin/comments/${id}/moderate`, { status });
}

/**
 * A decision on a comment: the row leaves the page and the total drops by one (SPEC section 4);
 * the other pages shift and the book's own comments change, so they are fetched again.
 */
export function useModerateComment(
  current: PendingQuery,
  handlers: {
    onMutate: (comment: PendingComment) => void;
    onSettled: () => void;
    onSuccess: (answer: { message?: string }, status: ModerationDecision) => void;
    onError: (error: unknown) => void;
  },
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ comment, status }: { comment: PendingComment; status: ModerationDecision }) =>
      moderateComment(comment.id, status),
    onMutate: ({ comment }) => handlers.onMutate(comment),
    onSettled: handlers.onSettled,
    onSuccess: (answer, { comment, status }) => {
      queryClient.setQueryData<PendingPage>(keyOf(current), (old) =>
        old
          ? {
              data: old.data.filter((row) => row.id !== comment.id),
              meta: { ...old.meta, total: Math.max(0, old.meta.total - 1) },
            }
          : old,
      );
      void queryClient.invalidateQueries({
        queryKey: queryKeys.moderation.pendingComments,
        predicate: (query) => JSON.stringify(query.queryKey) !== JSON.stringify(keyOf(current)),
      });
      void queryClient.invalidateQueries({ queryKey: queryKeys.comments.book(comment.book_id) });
      handlers.onSuccess(answer, status);
    },
    onError: handlers.onError,
  });
}
