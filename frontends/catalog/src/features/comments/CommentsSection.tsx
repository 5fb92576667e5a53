import {
  Alert,
  ApiError,
  Button,
  cn,
  EmptyState,
  errorMessage,
  LazyConfirmDialog,
  MessageIcon,
  notify,
  Pagination,
  RefreshIcon,
  Skeleton,
  useSession,
  useSubmissionKey,
} from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { type Id, sameId } from '../../shared/books';
import {
  type Comment,
  commentMessages,
  commentsQuery,
  useAddComment,
  useDeleteComment,
  useEditComment,
  useModerateComment,
} from './api/comments';
import { type CommentActions, CommentItem } from './CommentItem';
import { CommentForm } from './LazyCommentForm';

export interface CommentsSectionProps {
  bookId: Id;
  /** The listing's owner: they see and moderate pending comments (SPEC section 6). */
  ownerId: Id | null | undefined;
}

/** A toast with the screen's message and, when the server said more, its words underneath. */
function failed(title: string, error: unknown) {
  const detail = errorMessage(error, '');
  void notify.error(title, { description: detail && detail !== title ? detail : undefined });
}

/**
 * The comments of a book (SPEC section 2, "Book detail"): approved ones, the viewer's own pending
 * ones with a badge, and for the owner and admins the pending ones with approve and reject.
 */
export function CommentsSection({ bookId, ownerId }: CommentsSectionProps) {
  const { user, isAuthenticated } = useSession();
  const [page, setPage] = useState(1);
  const [toDelete, setToDelete] = useState<Comment | null>(null);
  const [moderating, setModerating] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const comments = useQuery(commentsQuery(bookId, page));

  const isAdmin = Boolean(user?.is_admin);
  const isOwner = isAuthenticated && sameId(user?.id, ownerId ?? undefined);

  const rights: CommentActions['rights'] = (comment) => {
    const own = isAuthenticated && sameId(user?.id, comment.user.id);
    return {
      own,
      edit: isAuthenticated && (comment.can_edit ?? own),
      remove: isAuthenticated && (comment.can_delete ?? (own || isOwner || isAdmin)),
      moderate: isAuthenticated && (comment.can_moderate ?? (isOwner || isAdmin)),
    };
  };

  const submission = useSubmissionKey();
  const add = useAddComment(bookId, {
    onSuccess: (answer) => {
      submission.renew();
      const held = answer?.data?.status === 'pending';
      const message = answer?.message || `${commentMessages.added}${held ? commentMessages.pendingSuffix : ''}`;
      void notify.success(message);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 422) return;
      failed(commentMessages.addError, error);
    },
  });

  const edit = useEditComment(bookId, {
    onSuccess: (answer) => void notify.success(answer?.message || commentMessages.updated),
    onError: (error) => {
      if (error instanceof ApiError && error.status === 422) return;
      failed(commentMessages.updateError, error);
    },
  });

  const remove = useDeleteComment(bookId, {
    onSuccess: (answer) => {
      setToDelete(null);
      void notify.success(answer?.message || commentMessages.deleted);
    },
    onError: (error) => {
      setToDelete(null);
      failed(commentMessages.deleteError, error);
    },
  });

  const moderate = useModerateComment(bookId, {
    onMutate: ({ id }) => setModerating(id),
    onSettled: () => setModerating(null),
    onSuccess: (answer, { status }) =>
      void notify.success(
        answer?.message || (status === 'approved' ? commentMessages.approved : commentMessages.rejected),
      ),
    onError: (error) => failed(commentMessages.moderateError, error),
  });

  const actions: CommentActions = {
    rights,
    moderating,
    blockReply: isAuthenticated ? undefined : () => void notify.error(commentMessages.loginToReply),
    reply: (parent, content) => add.mutateAsync({ content, parentId: parent.id, idempotencyKey: submission.current() }),
    edit: (comment, content) => {
      if (!isAuthenticated) {
        void notify.error(commentMessages.loginToEdit);
        return Promise.reject(new Error('signed out'));
      }
      return edit.mutateAsync({ id: comment.id, content });
    },
    askDelete: (comment) => {
      if (!isAuthenticated) {
        void notify.error(commentMessages.loginToDelete);
        return;
      }
      setToDelete(comment);
    },
    moderate: (comment, status) => moderate.mutate({ id: comment.id, status }),
  };

  const meta = comments.data?.meta;
  const total = meta?.total ?? 0;
  const lastPage = meta?.last_page ?? 1;
  const list = comments.data?.data ?? [];

  function goTo(target: number) {
    setPage(target);
    headingRef.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
    headingRef.current?.focus({ preventScroll: true });
  }

  const returnUrl = encodeURIComponent(`/books/${bookId}#commentaires`);

  return (
    <section id="commentaires" aria-labelledby="commentaires-title" className="mt-12 scroll-mt-24">
      <h2
        id="commentaires-title"
        ref={headingRef}
        tabIndex={-1}
        className="flex items-center gap-2 text-xl font-bold text-slate-900 focus:outline-none"
      >
        <MessageIcon size={20} className="text-primary-700" />
        Commentaires
        {meta ? (
          <span className="text-base font-normal text-slate-500" data-testid="comments-total">
            ({total})
          </span>
        ) : null}
      </h2>

      <div className="mt-4 rounded-xl border border-slate-200 bg-white p-4 sm:p-5">
        <CommentForm
          label="Votre commentaire"
          submitLabel="Publier"
          placeholder="Posez une question au vendeur ou partagez votre avis sur ce manuel…"
          onBlocked={isAuthenticated ? undefined : () => void notify.error(commentMessages.loginToComment)}
          onSubmit={(content) => add.mutateAsync({ content, idempotencyKey: submission.current() })}
          note={
            isAuthenticated && !isOwner && !isAdmin
              ? 'Votre commentaire sera visible par tous après validation par le vendeur ou un modérateur.'
              : undefined
          }
        />
        {!isAuthenticated ? (
          <p className="mt-3 text-sm text-slate-600">
            <Link to={`/login?return_url=${returnUrl}`} className="font-semibold text-primary-700 hover:underline">
              Connectez-vous
            </Link>{' '}
            pour commenter ou répondre.
          </p>
        ) : null}
      </div>

      <div className="mt-4" aria-busy={comments.isFetching || undefined}>
        {comments.isError && !comments.data ? (
          <Alert
            tone="error"
            title={commentMessages.loadError}
            action={
              <Button
                variant="outline"
                size="sm"
                leftIcon={<RefreshIcon size={16} />}
                loading={comments.isFetching}
                onClick={() => void comments.refetch()}
              >
                Réessayer
              </Button>
            }
          />
        ) : comments.isPending ? (
          <div className="space-y-4" data-testid="comments-loading">
            {[0, 1, 2].map((n) => (
              <div key={n} className="flex gap-3">
                <Skeleton className="h-10 w-10 rounded-full" />
                <div className="flex-1 space-y-2">
                  <Skeleton className="h-4 w-1/3" />
                  <Skeleton className="h-4 w-5/6" />
                </div>
              </div>
            ))}
          </div>
        ) : list.length === 0 ? (
          <EmptyState
            icon={<MessageIcon size={26} />}
            title="Aucun commentaire pour le moment"
            description="Soyez le premier à poser une question sur ce manuel."
            className="py-8"
          />
        ) : (
          <ul className={cn('divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white px-3 sm:px-5')}>
            {list.map((comment) => (
              <CommentItem key={comment.id} comment={comment} actions={actions} />
            ))}
          </ul>
        )}
      </div>

      {/* SPEC section 9: comment pager, window of 5 with the first and last pages and ellipses. */}
      <Pagination
        edges
        compact
        label="Pages des commentaires"
        className="mt-5"
        page={meta?.current_page ?? page}
        lastPage={lastPage}
        onPage={goTo}
      />

      <LazyConfirmDialog
        open={toDelete !== null}
        title="Supprimer ce commentaire ?"
        description="Le commentaire et ses réponses seront supprimés définitivement."
        confirmLabel="Supprimer le commentaire"
        loading={remove.isPending}
        onConfirm={() => toDelete && remove.mutate(toDelete.id)}
        onCancel={() => setToDelete(null)}
      />
    </section>
  );
}
