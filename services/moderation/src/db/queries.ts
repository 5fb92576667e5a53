import type { ContactStatus } from '@cartable/contracts';
import type { Db } from '@cartable/service-kit';
import { and, asc, count, desc, eq, gt, ilike, inArray, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import { books, captchas, comments, contacts, members } from './schema.ts';

/** Moderation's reads and writes, one function each; the rules that use them are in src/domain/. */

export type BookRow = typeof books.$inferSelect;
export type CommentRow = typeof comments.$inferSelect;
export type ContactRow = typeof contacts.$inferSelect;

// ── books and members (projections) ──────────────────────────────────────────────────────────

/** A book still listed (not a tombstone). */
export async function findListedBook(db: Db, id: number) {
  const [book] = await db
    .select()
    .from(books)
    .where(and(eq(books.id, id), isNull(books.deletedAt)));
  return book;
}

export async function findBook(db: Db, id: number) {
  const [book] = await db.select().from(books).where(eq(books.id, id));
  return book;
}

export async function findMember(db: Db, id: string) {
  const [member] = await db.select().from(members).where(eq(members.id, id));
  return member;
}

export async function findMembers(db: Db, ids: string[]) {
  return ids.length ? db.select().from(members).where(inArray(members.id, ids)) : [];
}

// ── comments ─────────────────────────────────────────────────────────────────────────────────

/**
 * The comments a reader may see: a moderator every one but the rejected; a member the approved
 * and their own pending ones; a visitor the approved ones.
 */
export function visibleComments(reader: { moderator: boolean; userId?: string }) {
  if (reader.moderator) return ne(comments.status, 'rejected');
  if (reader.userId)
    return or(eq(comments.status, 'approved'), and(eq(comments.status, 'pending'), eq(comments.userId, reader.userId)));
  return eq(comments.status, 'approved');
}

/** Top-level comments of a book that match `shown`. */
export const topLevelOf = (bookId: number, shown: SQL | undefined) =>
  and(eq(comments.bookId, bookId), isNull(comments.parentId), shown);

export async function countComments(db: Db, where: SQL | undefined) {
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(comments).where(where);
  return total;
}

/** A page of comments, newest first. */
export function commentPage(db: Db, where: SQL | undefined, page: number, perPage: number) {
  return db
    .select()
    .from(comments)
    .where(where)
    .orderBy(desc(comments.createdAt), desc(comments.id))
    .limit(perPage)
    .offset((page - 1) * perPage);
}

/** Every reply under those comments, any depth, in one recursive query. */
export async function replyIdsUnder(db: Db, rootIds: string[]) {
  if (!rootIds.length) return [];
  const result = await db.execute(sql`
    with recursive thread as (
      select * from ${comments} where parent_id in ${rootIds}
      union all
      select c.* from ${comments} c join thread t on c.parent_id = t.id
    ) select id from thread`);
  // node-postgres and PGlite both answer { rows }.
  return (result as unknown as { rows: Array<{ id: string }> }).rows.map((r) => r.id);
}

/** These comments among those `where` allows, oldest first. */
export function commentsAmong(db: Db, ids: string[], where: SQL | undefined) {
  return ids.length
    ? db
        .select()
        .from(comments)
        .where(and(inArray(comments.id, ids), where))
        .orderBy(asc(comments.createdAt))
    : Promise.resolve([]);
}

export async function findComment(db: Db, id: string, bookId?: number) {
  const [row] = await db
    .select()
    .from(comments)
    .where(bookId === undefined ? eq(comments.id, id) : and(eq(comments.id, id), eq(comments.bookId, bookId)));
  return row;
}

export async function insertComment(tx: Db, values: typeof comments.$inferInsert) {
  const [row] = await tx.insert(comments).values(values).returning();
  return row!;
}

export async function updateComment(tx: Db, id: string, changes: Partial<typeof comments.$inferInsert>) {
  const [row] = await tx.update(comments).set(changes).where(eq(comments.id, id)).returning();
  return row!;
}

/** A comment and its replies, any depth. */
export async function deleteThread(db: Db, id: string) {
  await db.execute(sql`
    with recursive thread as (
      select id from ${comments} where id = ${id}
      union all
      select c.id from ${comments} c join thread t on c.parent_id = t.id
    ) delete from ${comments} where id in (select id from thread)`);
}

/** The moderation queue, oldest first, with the authors' names. */
export const countPending = (db: Db) => countComments(db, eq(comments.status, 'pending'));

export function pendingPage(db: Db, page: number, perPage: number) {
  return db
    .select({ comment: comments, name: members.name, bookTitle: books.title })
    .from(comments)
    .leftJoin(members, eq(members.id, comments.userId))
    .leftJoin(books, eq(books.id, comments.bookId))
    .where(eq(comments.status, 'pending'))
    .orderBy(asc(comments.createdAt))
    .limit(perPage)
    .offset((page - 1) * perPage);
}

// ── the contact form ─────────────────────────────────────────────────────────────────────────

export async function insertCaptcha(db: Db, answer: number, expiresAt: Date) {
  const [row] = await db.insert(captchas).values({ answer, expiresAt }).returning({ id: captchas.id });
  return row!.id;
}

/** Uses up a live question (answered or not) and returns it; undefined when used or expired. */
export async function useCaptcha(db: Db, id: string) {
  const [captcha] = await db
    .update(captchas)
    .set({ usedAt: new Date() })
    .where(and(eq(captchas.id, id), isNull(captchas.usedAt), gt(captchas.expiresAt, new Date())))
    .returning();
  return captcha;
}

export async function insertContact(db: Db, values: typeof contacts.$inferInsert) {
  await db.insert(contacts).values(values);
}

/** Filters of the back office: a status, and words in the name, address or subject. */
export function contactFilter(status: ContactStatus | undefined, search: string | undefined) {
  const pattern = search ? `%${search.replace(/[%_\\]/g, (c) => `\\${c}`)}%` : undefined;
  return and(
    status ? eq(contacts.status, status) : undefined,
    pattern
      ? or(ilike(contacts.name, pattern), ilike(contacts.email, pattern), ilike(contacts.subject, pattern))
      : undefined,
  );
}

export async function countContacts(db: Db, where: SQL | undefined) {
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(contacts).where(where);
  return total;
}

export function contactPage(db: Db, where: SQL | undefined, page: number, perPage: number) {
  return db
    .select()
    .from(contacts)
    .where(where)
    .orderBy(desc(contacts.createdAt))
    .limit(perPage)
    .offset((page - 1) * perPage);
}

export function contactCountsByStatus(db: Db) {
  return db.select({ status: contacts.status, n: count() }).from(contacts).groupBy(contacts.status);
}

export async function findContact(db: Db, id: string) {
  const [row] = await db.select().from(contacts).where(eq(contacts.id, id));
  return row;
}

export async function updateContact(tx: Db, id: string, changes: Partial<typeof contacts.$inferInsert>) {
  const [row] = await tx.update(contacts).set(changes).where(eq(contacts.id, id)).returning();
  return row;
}

export async function deleteContacts(db: Db, ids: string[]) {
  return db.delete(contacts).where(inArray(contacts.id, ids)).returning({ id: contacts.id });
}
