import {
  type AccessClaims,
  blockMessages,
  COMMENTS_PER_PAGE,
  type Comment,
  type CommentPage,
  type CommentResponse,
  type ModerationDecision,
  messages,
  type PageMeta,
  type PendingComment,
} from '@cartable/contracts';
import { type Db, forbidden, notFound, unprocessable } from '@cartable/service-kit';
import {
  blockBetween,
  type CommentRow,
  commentPage,
  commentsAmong,
  countComments,
  countPending,
  deleteThread,
  findBook,
  findComment,
  findListedBook,
  findMember,
  findMembers,
  insertComment,
  ownsABook,
  pendingPage,
  replyIdsUnder,
  topLevelOf,
  updateComment,
  visibleComments,
} from '../db/queries.ts';
import type { ModerationDeps } from '../deps.ts';
import { commentCreated, commentModerated } from '../events/published.ts';

/**
 * Comments on books and their moderation (services/moderation/API.md, SPEC.md sections 4 and 6).
 * The rules live here, free of HTTP; the routes pass the caller's claims (undefined for a
 * visitor) and the request's values, and send back what these return.
 */

const c = messages.comments;

type Writer = Pick<ModerationDeps, 'uow'>;

/** Admins moderate everything; a book's owner the comments on that book. */
export const canModerate = (claims: AccessClaims | undefined, ownerId: string) =>
  Boolean(claims && (claims.is_admin || claims.sub === ownerId));

const pageMeta = (page: number, total: number, perPage: number): PageMeta => ({
  current_page: page,
  last_page: Math.max(1, Math.ceil(total / perPage)),
  total,
});

async function listedBook(db: Db, id: number) {
  const book = await findListedBook(db, id);
  if (!book) throw notFound(c.bookNotFound);
  return book;
}

/** Comments as this reader may act on them (replies left empty), with their authors' names. */
async function toComments(db: Db, rows: CommentRow[], claims: AccessClaims | undefined, ownerId: string) {
  const people = await findMembers(db, [...new Set(rows.map((r) => r.userId))]);
  const moderator = canModerate(claims, ownerId);
  return rows.map((r): Comment => {
    const who = people.find((p) => p.id === r.userId);
    return {
      id: r.id,
      content: r.content,
      parent_id: r.parentId,
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
      status: r.status,
      user: { id: r.userId, name: who?.name ?? c.unknownMember, profile_image: who?.profileImage ?? null },
      can_edit: claims?.sub === r.userId,
      can_delete: claims?.sub === r.userId || moderator,
      can_moderate: moderator && r.status === 'pending',
      replies: [],
    };
  });
}

async function toComment(db: Db, row: CommentRow, claims: AccessClaims | undefined, ownerId: string) {
  const [comment] = await toComments(db, [row], claims, ownerId);
  return comment!;
}

/**
 * A page of a book's top-level comments, newest first, each with its replies (any depth)
 * nested. Everyone sees the approved ones; authors their own pending ones; the book's owner and
 * admins every pending one.
 */
export async function listComments(
  db: Db,
  claims: AccessClaims | undefined,
  bookId: number,
  page: number,
): Promise<CommentPage> {
  const book = await listedBook(db, bookId);
  const shown = visibleComments({ moderator: canModerate(claims, book.ownerId), userId: claims?.sub });
  const top = topLevelOf(book.id, shown);
  const total = await countComments(db, top);
  const roots = await commentPage(db, top, page, COMMENTS_PER_PAGE);
  const replyRows = await commentsAmong(
    db,
    await replyIdsUnder(
      db,
      roots.map((r) => r.id),
    ),
    shown,
  );
  const all = await toComments(db, [...roots, ...replyRows], claims, book.ownerId);
  const byId = new Map(all.map((comment) => [comment.id, comment]));
  for (const reply of all.slice(roots.length)) byId.get(reply.parent_id!)?.replies.push(reply);
  return { data: all.slice(0, roots.length), meta: pageMeta(page, total, COMMENTS_PER_PAGE) };
}

/**
 * A member comments (or replies under `parentId`). SPEC.md section 4: anyone but the book's
 * owner or an admin waits for moderation. The comment and its event commit together.
 */
export async function addComment(
  { uow }: Writer,
  claims: AccessClaims,
  bookId: number,
  { content, parentId }: { content: string; parentId?: string | null },
): Promise<CommentResponse> {
  const db = uow.db;
  const book = await listedBook(db, bookId);
  if (claims.sub !== book.ownerId && (await blockBetween(db, claims.sub, book.ownerId)))
    throw forbidden(blockMessages.comment);
  if (parentId) {
    const parent = await findComment(db, parentId, book.id);
    if (!parent || parent.status === 'rejected') throw unprocessable({ parent_id: [c.parentNotFound] }, c.parentGone);
  }
  const held = !canModerate(claims, book.ownerId);
  const author = await findMember(db, claims.sub);
  const saved = await uow.run(async (t) => {
    const row = await insertComment(t.db, {
      bookId: book.id,
      userId: claims.sub,
      parentId: parentId ?? null,
      content,
      status: held ? 'pending' : 'approved',
    });
    await commentCreated(t, row, book, author?.name ?? c.someMember);
    return row;
  });
  return {
    message: `${c.added}${held ? c.pendingSuffix : ''}`,
    data: await toComment(db, saved, claims, book.ownerId),
  };
}

/** Only its author edits a comment; it is checked again, unless its author may publish directly. */
export async function editComment(
  db: Db,
  claims: AccessClaims,
  bookId: number,
  commentId: string,
  content: string,
): Promise<CommentResponse> {
  const book = await listedBook(db, bookId);
  const row = await findComment(db, commentId, book.id);
  if (!row || row.status === 'rejected') throw notFound(c.notFound);
  if (row.userId !== claims.sub) throw forbidden(c.authorOnly);
  const status = canModerate(claims, book.ownerId) ? row.status : 'pending';
  const saved = await updateComment(db, row.id, { content, status, updatedAt: new Date() });
  return { message: c.updated, data: await toComment(db, saved, claims, book.ownerId) };
}

/** Its author, the book's owner or an admin deletes a comment; its replies go with it. */
export async function deleteComment(db: Db, claims: AccessClaims, bookId: number, commentId: string) {
  const book = await listedBook(db, bookId);
  const row = await findComment(db, commentId, book.id);
  if (!row) throw notFound(c.notFound);
  if (row.userId !== claims.sub && !canModerate(claims, book.ownerId)) throw forbidden();
  await deleteThread(db, row.id);
  return { message: c.deleted };
}

/** The moderation queue (admins), newest first unless asked otherwise, searched when asked. */
export async function pendingComments(
  db: Db,
  page: number,
  perPage: number,
  filter: { q?: string | undefined; order?: 'newest' | 'oldest' | undefined } = {},
): Promise<{ data: PendingComment[]; meta: PageMeta }> {
  const wanted = { text: filter.q, order: filter.order ?? 'newest' };
  const [total, rows] = await Promise.all([countPending(db, wanted), pendingPage(db, page, perPage, wanted)]);
  return {
    data: rows.map(({ comment, name, bookTitle }) => ({
      id: comment.id,
      content: comment.content,
      created_at: comment.createdAt.toISOString(),
      book_id: comment.bookId,
      book_title: bookTitle,
      parent_id: comment.parentId,
      user: { id: comment.userId, name: name ?? c.unknownMember },
    })),
    meta: pageMeta(page, total, perPage),
  };
}

/** An admin, or the book's owner, approves or rejects a comment; the change and its event commit together. */
/**
 * Whether the member may moderate any comment at all: an administrator, or the owner of a
 * listing. Asked before the request is read, so anyone else is refused (403) whatever they sent.
 */
export const mayModerateComments = async (db: Db, claims: AccessClaims) =>
  claims.is_admin || (await ownsABook(db, claims.sub));

export async function moderateComment(
  { uow }: Writer,
  claims: AccessClaims,
  commentId: string,
  status: ModerationDecision,
): Promise<CommentResponse> {
  const db = uow.db;
  const row = await findComment(db, commentId);
  if (!row) throw notFound(c.notFound);
  const book = await findBook(db, row.bookId);
  if (!claims.is_admin && claims.sub !== book?.ownerId) throw forbidden(messages.forbidden);
  const saved = await uow.run(async (t) => {
    const updated = await updateComment(t.db, row.id, { status, moderatedBy: claims.sub, moderatedAt: new Date() });
    await commentModerated(t, row, status, claims.sub);
    return updated;
  });
  return {
    message: status === 'approved' ? c.approved : c.rejected,
    data: await toComment(db, saved, claims, book?.ownerId ?? ''),
  };
}
