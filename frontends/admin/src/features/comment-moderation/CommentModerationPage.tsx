import {
  Badge,
  Button,
  CheckCircleIcon,
  CloseIcon,
  EmptyState,
  errorMessage,
  formatDateTime,
  LoadFailed,
  MessageIcon,
  notify,
  PageHeader,
  Pagination,
  RefreshIcon,
  Select,
  Skeleton,
  useDocumentTitle,
} from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { LOAD_ERROR } from '../../shared/messages';
import { SearchField } from '../../shared/SearchField';
import { useListParams } from '../../shared/useListParams';
import {
  moderationMessages,
  type PendingComment,
  pendingCommentsQuery,
  useModerateComment,
} from './api/pending-comments';

function readPage(params: URLSearchParams): number {
  const page = Number(params.get('page'));
  return Number.isInteger(page) && page > 0 ? page : 1;
}

/**
 * Comment moderation (SPEC section 2): pending comments with their author, book, content, a
 * 'Réponse' badge for replies and the date; approving or rejecting removes the row and lowers the
 * count (SPEC section 4).
 */
export default function CommentModerationPage() {
  useDocumentTitle('Modération des commentaires · Administration');
  const { params, update } = useListParams();
  const page = readPage(params);
  const q = params.get('q') ?? '';
  const order = params.get('order') === 'oldest' ? 'oldest' : 'newest';
  const current = { page, q, order } as const;
  const [busy, setBusy] = useState<string | null>(null);
  const pending = useQuery(pendingCommentsQuery(current));

  const goTo = (target: number) => update({ page: target <= 1 ? null : target });

  const decide = useModerateComment(current, {
    onMutate: (comment) => setBusy(comment.id),
    onSettled: () => setBusy(null),
    onSuccess: (answer, status) =>
      void notify.success(
        answer?.message || (status === 'approved' ? moderationMessages.approved : moderationMessages.rejected),
      ),
    onError: (error) => {
      const detail = errorMessage(error, '');
      void notify.error(moderationMessages.moderateError, {
        description: detail && detail !== moderationMessages.moderateError ? detail : undefined,
      });
    },
  });

  const rows = pending.data?.data ?? [];
  const meta = pending.data?.meta;
  const total = meta?.total ?? 0;

  // A page emptied by moderation: reload it (later rows move up) or step back when it was the last.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reacts to the emptied page only
  useEffect(() => {
    if (!pending.data || pending.isFetching || rows.length > 0 || total === 0) return;
    if (page > 1 && page >= (meta?.last_page ?? 1)) goTo(page - 1);
    else void pending.refetch();
  }, [rows.length, total]);

  const actions = (comment: PendingComment, inTable = false) => (
    // In the table the buttons stack: side by side they pushed « Rejeter » out of a 1366 px screen.
    <div className={inTable ? 'flex flex-col items-stretch gap-2' : 'flex flex-wrap gap-2'}>
      <Button
        size="sm"
        leftIcon={<CheckCircleIcon size={16} />}
        disabled={busy === comment.id}
        onClick={() => decide.mutate({ comment, status: 'approved' })}
        aria-label={`Approuver le commentaire de ${comment.user.name}`}
      >
        Approuver
      </Button>
      <Button
        size="sm"
        variant="danger"
        leftIcon={<CloseIcon size={16} />}
        disabled={busy === comment.id}
        onClick={() => decide.mutate({ comment, status: 'rejected' })}
        aria-label={`Rejeter le commentaire de ${comment.user.name}`}
      >
        Rejeter
      </Button>
    </div>
  );

  const userLink = (comment: PendingComment) => (
    <Link to={`/admin/users/${comment.user.id}`} className="font-semibold text-primary-700 hover:underline">
      {comment.user.name}
    </Link>
  );
  const bookLink = (comment: PendingComment) => (
    <Link
      to={`/books/${comment.book_id}`}
      target="_blank"
      rel="noopener"
      className="break-words text-primary-700 hover:underline"
    >
      {comment.book_title ?? `Manuel n° ${comment.book_id}`}
    </Link>
  );

  return (
    <>
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            Modération des commentaires
            {meta ? (
              <Badge tone={total > 0 ? 'accent' : 'neutral'} className="text-sm" data-testid="pending-count">
                {total} en attente
              </Badge>
            ) : null}
          </span>
        }
        description="Approuvez ou rejetez les commentaires déposés sur les annonces."
        actions={
          <Button
            variant="outline"
            size="sm"
            leftIcon={<RefreshIcon size={16} />}
            loading={pending.isFetching && !pending.isPending}
            onClick={() => void pending.refetch()}
          >
            Actualiser
          </Button>
        }
      />

      <div className="mb-4 grid gap-3 sm:grid-cols-[minmax(0,1fr)_14rem]">
        <SearchField
          label="Rechercher"
          placeholder="Mots du commentaire, membre ou manuel…"
          value={q}
          onSearch={(next) => update({ q: next })}
        />
        <Select
          label="Ordre"
          value={order}
          onChange={(event) => update({ order: event.target.value === 'oldest' ? 'oldest' : null })}
        >
          <option value="newest">Les plus récents d’abord</option>
          <option value="oldest">Les plus anciens d’abord</option>
        </Select>
      </div>

      {pending.isError && !pending.data ? (
        <LoadFailed
          title={LOAD_ERROR}
          query={pending}
          fallback="Les commentaires en attente n’ont pas pu être chargés."
        />
      ) : pending.isPending ? (
        <div className="space-y-3" data-testid="pending-loading">
          {[0, 1, 2, 3].map((n) => (
            <Skeleton key={n} className="h-16 w-full" />
          ))}
        </div>
      ) : rows.length === 0 ? (
        <EmptyState
          icon={<MessageIcon size={26} />}
          title={q ? 'Aucun commentaire en attente ne correspond à cette recherche' : moderationMessages.noPending}
          action={
            q ? (
              <Button variant="outline" onClick={() => update({ q: null })}>
                Effacer la recherche
              </Button>
            ) : undefined
          }
        />
      ) : (
        <>
          {/* Desktop: a table */}
          <div className="hidden rounded-xl border border-slate-200 bg-white desk:block">
            <table className="w-full table-fixed text-left text-sm">
              <caption className="sr-only">Commentaires en attente de modération</caption>
              <thead className="bg-slate-50 text-xs tracking-wide text-slate-600 uppercase">
                <tr>
                  <th scope="col" className="w-[16%] px-4 py-3 font-semibold">
                    Utilisateur
                  </th>
                  <th scope="col" className="w-[20%] px-4 py-3 font-semibold">
                    Manuel
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Commentaire
                  </th>
                  <th scope="col" className="w-[9rem] px-4 py-3 font-semibold">
                    Date
                  </th>
                  <th scope="col" className="w-[9.5rem] px-4 py-3 font-semibold">
                    Actions
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {rows.map((comment) => (
                  <tr key={comment.id} data-testid="pending-comment" className="align-top">
                    <td className="px-4 py-3 break-words">{userLink(comment)}</td>
                    <td className="px-4 py-3">{bookLink(comment)}</td>
                    <td className="px-4 py-3">
                      {comment.parent_id ? (
                        <Badge tone="ocean" className="mb-1">
                          Réponse
                        </Badge>
                      ) : null}
                      <p className="whitespace-pre-line break-words text-slate-800">{comment.content}</p>
                    </td>
                    <td className="px-4 py-3 text-slate-600">
                      <time dateTime={comment.created_at}>{formatDateTime(comment.created_at)}</time>
                    </td>
                    <td className="px-4 py-3">{actions(comment, true)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>

          {/* Mobile (768 px or less): cards */}
          <ul className="space-y-3 desk:hidden">
            {rows.map((comment) => (
              <li
                key={comment.id}
                data-testid="pending-comment-card"
                className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
              >
                <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
                  {userLink(comment)}
                  <span className="text-slate-400" aria-hidden="true">
                    ·
                  </span>
                  {bookLink(comment)}
                  {comment.parent_id ? <Badge tone="ocean">Réponse</Badge> : null}
                </div>
                <p className="mt-2 text-sm whitespace-pre-line break-words text-slate-800">{comment.content}</p>
                <p className="mt-2 text-xs text-slate-500">
                  <time dateTime={comment.created_at}>{formatDateTime(comment.created_at)}</time>
                </p>
                <div className="mt-3">{actions(comment)}</div>
              </li>
            ))}
          </ul>
        </>
      )}

      <Pagination
        edges
        className="mt-5"
        page={meta?.current_page ?? page}
        lastPage={meta?.last_page ?? 1}
        onPage={goTo}
      />
    </>
  );
}
