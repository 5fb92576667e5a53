import {
  Avatar,
  Badge,
  Button,
  CheckCircleIcon,
  CloseIcon,
  cn,
  MessageIcon,
  PencilIcon,
  TrashIcon,
} from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import { useState } from 'react';
import { ReportButton } from '../../entities/report/ReportButton';

import { type Comment, commentMessages, type ModerationStatus } from './api/comments';
import { fullDate, relativeDate } from './dates';
import { CommentForm } from './LazyCommentForm';

export interface CommentActions {
  /** Who may do what with this comment (the server's flags, else the SPEC section 6 rules). */
  rights: (comment: Comment) => { edit: boolean; remove: boolean; moderate: boolean; own: boolean };
  reply: (parent: Comment, content: string) => Promise<unknown>;
  edit: (comment: Comment, content: string) => Promise<unknown>;
  askDelete: (comment: Comment) => void;
  moderate: (comment: Comment, status: ModerationStatus) => void;
  moderating: string | null;
  /** Not signed in: the reply button shows the login toast instead of the form. */
  blockReply?: () => void;
}

/** One comment and, indented under it, its replies (deeper levels stay indented once more). */
export function CommentItem({
  comment,
  depth = 0,
  actions,
}: {
  comment: Comment;
  depth?: number;
  actions: CommentActions;
}) {
  const [mode, setMode] = useState<'read' | 'reply' | 'edit'>('read');
  const rights = actions.rights(comment);
  const pending = comment.status === 'pending';
  const replies = comment.replies ?? [];
  const busy = actions.moderating === comment.id;

  return (
    <li className={cn(depth > 0 && 'border-l-2 border-slate-100 pl-2 sm:pl-5')} data-testid="comment">
      <article aria-label={`Commentaire de ${comment.user.name}`} className="flex gap-2.5 py-3 sm:gap-3">
        <Link to={`/profile/${comment.user.id}`} className="shrink-0 rounded-full" tabIndex={-1} aria-hidden="true">
          <Avatar
            name={comment.user.name}
            image={comment.user.profile_image}
            size={depth > 0 ? 'sm' : 'md'}
            className={depth > 0 ? 'sm:h-10 sm:w-10 sm:text-sm' : undefined}
          />
        </Link>
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <Link
              to={`/profile/${comment.user.id}`}
              className="font-semibold text-slate-900 underline-offset-2 hover:underline"
            >
              {comment.user.name}
            </Link>
            <time dateTime={comment.created_at} title={fullDate(comment.created_at)} className="text-xs text-slate-500">
              {relativeDate(comment.created_at)}
            </time>
            {pending ? <Badge tone="accent">{commentMessages.pendingBadge}</Badge> : null}
          </div>

          {mode === 'edit' ? (
            <div className="mt-2">
              <CommentForm
                label="Modifier le commentaire"
                submitLabel="Enregistrer"
                initialValue={comment.content}
                autoFocus
                onCancel={() => setMode('read')}
                onSubmit={async (content) => {
                  await actions.edit(comment, content);
                  setMode('read');
                }}
              />
            </div>
          ) : (
            <p className="mt-1 text-sm whitespace-pre-line break-words text-slate-800">{comment.content}</p>
          )}

          {mode !== 'edit' ? (
            <div className="mt-1 -ml-3 flex flex-wrap items-center gap-x-1">
              <Button
                variant="ghost"
                size="sm"
                leftIcon={<MessageIcon size={16} />}
                aria-expanded={mode === 'reply'}
                onClick={() => {
                  if (actions.blockReply) actions.blockReply();
                  else setMode(mode === 'reply' ? 'read' : 'reply');
                }}
              >
                Répondre
              </Button>
              {rights.own ? null : <ReportButton target={{ type: 'comment', id: comment.id }} compact />}
              {rights.edit ? (
                <Button
                  variant="ghost"
                  size="sm"
                  leftIcon={<PencilIcon size={16} />}
                  aria-label={`Modifier le commentaire de ${comment.user.name}`}
                  onClick={() => setMode('edit')}
                >
                  Modifier
                </Button>
              ) : null}
              {rights.remove ? (
                <Button
                  variant="ghost"
                  size="sm"
                  className="text-red-700 hover:bg-red-50"
                  leftIcon={<TrashIcon size={16} />}
                  aria-label={`Supprimer le commentaire de ${comment.user.name}`}
                  onClick={() => actions.askDelete(comment)}
                >
                  Supprimer
                </Button>
              ) : null}
              {pending && rights.moderate && !rights.own ? (
                <>
                  <Button
                    variant="outline"
                    size="sm"
                    className="border-primary-300 text-primary-800"
                    leftIcon={<CheckCircleIcon size={16} />}
                    disabled={busy}
                    onClick={() => actions.moderate(comment, 'approved')}
                  >
                    Approuver
                  </Button>
                  <Button
                    variant="outline"
                    size="sm"
                    className="border-red-300 text-red-700"
                    leftIcon={<CloseIcon size={16} />}
                    disabled={busy}
                    onClick={() => actions.moderate(comment, 'rejected')}
                  >
                    Rejeter
                  </Button>
                </>
              ) : null}
            </div>
          ) : null}

          {mode === 'reply' ? (
            <div className="mt-2">
              <CommentForm
                label={`Répondre à ${comment.user.name}`}
                submitLabel="Répondre"
                autoFocus
                onCancel={() => setMode('read')}
                onSubmit={async (content) => {
                  await actions.reply(comment, content);
                  setMode('read');
                }}
              />
            </div>
          ) : null}
        </div>
      </article>
      {replies.length ? (
        <ul
          className={cn('space-y-0', depth < 3 ? 'ml-2 sm:ml-12' : 'ml-0')}
          aria-label={`Réponses à ${comment.user.name}`}
        >
          {replies.map((reply) => (
            <CommentItem key={reply.id} comment={reply} depth={depth + 1} actions={actions} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}
