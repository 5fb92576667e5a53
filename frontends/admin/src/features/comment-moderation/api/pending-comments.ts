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

export function fetchPendingComments(page: number, signal?: AbortSignal) {
  return api.get<PendingPage>('/admin/comments/pending', { query: { page }, signal });
}

/** GET /admin/comments/pending: oldest first; the previous page stays shown while the next loads. */
export const pendingCommentsQuery = (page: number) =>
  queryOptions({
    queryKey: queryKeys.moderation.pendingCommentsPage(page),
    queryFn: ({ signal }) => fetchPendingComments(page, signal),
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
  page: number,
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
      queryClient.setQueryData<PendingPage>(queryKeys.moderation.pendingCommentsPage(page), (old) =>
        old
          ? {
              data: old.data.filter((row) => row.id !== comment.id),
              meta: { ...old.meta, total: Math.max(0, old.meta.total - 1) },
            }
          : old,
      );
      void queryClient.invalidateQueries({
        queryKey: queryKeys.moderation.pendingComments,
        predicate: (query) => query.queryKey[3] !== page,
      });
      void queryClient.invalidateQueries({ queryKey: queryKeys.comments.book(comment.book_id) });
      handlers.onSuccess(answer, status);
    },
    onError: handlers.onError,
  });
}
