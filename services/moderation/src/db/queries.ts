import type { ContactStatus } from '@cartable/contracts';
import { type Db, dailyCounts, isNewer, type StatsWindow, trend } from '@cartable/service-kit';
import { and, asc, count, desc, eq, gt, ilike, inArray, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import { books, captchas, comments, contacts, members, reports } from './schema.ts';

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

/** Whether the member owns a listing (deleted ones aside). */
export async function ownsABook(db: Db, ownerId: string) {
  const [book] = await db
    .select({ id: books.id })
    .from(books)
    .where(and(eq(books.ownerId, ownerId), isNull(books.deletedAt)))
    .limit(1);
  return Boolean(book);
}

export async function findMember(db: Db, id: string) {
  const [member] = await db.select().from(members).where(eq(members.id, id));
  return member;
}

export async function findMembers(db: Db, ids: string[]) {
  return ids.length ? db.select().from(members).where(inArray(members.id, ids)) : [];
}

/** A member from auth; the newest version wins. */
export async function keepMember(
  tx: Db,
  id: string,
  row: { name: string; profileImage: string | null; version: number },
) {
  await tx
    .insert(members)
    .values({ id, ...row })
    .onConflictDoUpdate({ target: members.id, set: row, setWhere: isNewer(members.version) });
}

/** A book from catalog; kept unless what is held is newer. */
export async function keepBook(
  tx: Db,
  id: number,
  row: { ownerId: string; title: string; version: number; deletedAt: Date | null },
) {
  await tx
    .insert(books)
    .values({ id, ...row })
    .onConflictDoUpdate({ target: books.id, set: row, setWhere: isNewer(books.version) });
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
/** What an administrator looks for in the queue: words of the comment, its author's name, its book's title. */
export interface PendingFilter {
  text?: string | undefined;
  order: 'newest' | 'oldest';
}

function pendingConditions(filter: PendingFilter) {
  const text = filter.text?.trim();
  if (!text) return eq(comments.status, 'pending');
  const like = `%${text.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
  return and(
    eq(comments.status, 'pending'),
    or(ilike(comments.content, like), ilike(members.name, like), ilike(books.title, like)),
  );
}

export async function countPending(db: Db, filter: PendingFilter = { order: 'newest' }) {
  const [{ total } = { total: 0 }] = await db
    .select({ total: count() })
    .from(comments)
    .leftJoin(members, eq(members.id, comments.userId))
    .leftJoin(books, eq(books.id, comments.bookId))
    .where(pendingConditions(filter));
  return total;
}

export function pendingPage(db: Db, page: number, perPage: number, filter: PendingFilter = { order: 'newest' }) {
  const by = filter.order === 'oldest' ? asc : desc;
  return db
    .select({ comment: comments, name: members.name, bookTitle: books.title })
    .from(comments)
    .leftJoin(members, eq(members.id, comments.userId))
    .leftJoin(books, eq(books.id, comments.bookId))
    .where(pendingConditions(filter))
    .orderBy(by(comments.createdAt), by(comments.id))
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

// ── reports ──────────────────────────────────────────────────────────────────────────────────

export type ReportRow = typeof reports.$inferSelect;
export type NewReport = typeof reports.$inferInsert;

/** A report; the unique index refuses a second one by the same reporter on the same target. */
export async function insertReport(db: Db, values: NewReport) {
  const [row] = await db.insert(reports).values(values).returning({ id: reports.id });
  return row!;
}

/** A report that may be there already (an event delivered twice): kept once. */
export async function insertReportOnce(tx: Db, values: NewReport) {
  await tx.insert(reports).values(values).onConflictDoNothing();
}

/** How many open reports each of these targets has, by `type:id`. */
export async function openReportsOnTargets(db: Db, targetIds: string[]) {
  if (!targetIds.length) return new Map<string, number>();
  const rows = await db
    .select({ type: reports.targetType, id: reports.targetId, n: count() })
    .from(reports)
    .where(and(eq(reports.status, 'open'), inArray(reports.targetId, targetIds)))
    .groupBy(reports.targetType, reports.targetId);
  return new Map(rows.map((t) => [`${t.type}:${t.id}`, t.n]));
}

/**
 * A page of reports, open ones first, then those whose action is under way, newest first; with
 * the total and the number still open.
 */
export async function reportPage(
  db: Db,
  query: {
    status?: ReportRow['status'] | undefined;
    target_type?: ReportRow['targetType'] | undefined;
    page: number;
    per_page: number;
  },
) {
  const where = and(
    query.status ? eq(reports.status, query.status) : undefined,
    query.target_type ? eq(reports.targetType, query.target_type) : undefined,
  );
  const [[total], [open], rows] = await Promise.all([
    db.select({ n: count() }).from(reports).where(where),
    db.select({ n: count() }).from(reports).where(eq(reports.status, 'open')),
    db
      .select()
      .from(reports)
      .where(where)
      .orderBy(sql`${reports.status} = 'open' desc`, sql`${reports.status} = 'applying' desc`, desc(reports.createdAt))
      .limit(query.per_page)
      .offset((query.page - 1) * query.per_page),
  ]);
  return { rows, total: total?.n ?? 0, open: open?.n ?? 0 };
}

export async function findReport(db: Db, id: string) {
  const [row] = await db.select().from(reports).where(eq(reports.id, id));
  return row;
}

/** Locked until the end of the transaction: two administrators do not both handle it. */
export async function lockReport(tx: Db, id: string) {
  const [row] = await tx.select().from(reports).where(eq(reports.id, id)).for('update');
  return row;
}

/** Every open report of the target gets the decision; their ids. */
export function resolveOpenReports(
  tx: Db,
  target: Pick<ReportRow, 'targetType' | 'targetId'>,
  outcome: Pick<NewReport, 'status' | 'decision' | 'note' | 'handledBy' | 'handledAt'>,
) {
  return tx
    .update(reports)
    .set(outcome)
    .where(
      and(eq(reports.targetType, target.targetType), eq(reports.targetId, target.targetId), eq(reports.status, 'open')),
    )
    .returning({ id: reports.id });
}

/** Reports waiting for another service's action, closed now that it is applied; their ids. */
export function closeApplyingReports(tx: Db, ids: string[], at: Date) {
  return tx
    .update(reports)
    .set({ status: 'actioned', handledAt: at })
    .where(and(inArray(reports.id, ids), eq(reports.status, 'applying')))
    .returning({ id: reports.id });
}

/** Locked until the end of the transaction: a report's decision and a member's edit do not interleave. */
export async function lockComment(tx: Db, id: string) {
  const [row] = await tx.select().from(comments).where(eq(comments.id, id)).for('update');
  return row;
}

export async function countOpenReports(db: Db) {
  const [row] = await db.select({ n: count() }).from(reports).where(eq(reports.status, 'open'));
  return row?.n ?? 0;
}

// ── the back office's figures ────────────────────────────────────────────────────────────────

const commentRows = { from: sql`comments`, at: sql`created_at` };
const contactRows = { from: sql`contacts`, at: sql`created_at` };

/** What waits (pending comments, new contact messages, open reports) and what came in the window. */
export async function moderationFigures(db: Db, window: StatsWindow) {
  const [waiting, commentTrend, contactTrend, commentsPerDay, contactsPerDay] = await Promise.all([
    db.execute(sql`select (select count(*) from comments where status = 'pending')::int as pending_comments,
                          (select count(*) from contacts where status = 'new')::int as new_contacts,
                          (select count(*) from reports where status = 'open')::int as open_reports`),
    trend(db, commentRows, window),
    trend(db, contactRows, window),
    dailyCounts(db, commentRows, window),
    dailyCounts(db, contactRows, window),
  ]);
  const row = (
    waiting as unknown as { rows: Array<{ pending_comments: number; new_contacts: number; open_reports: number }> }
  ).rows[0]!;
  return { ...row, commentTrend, contactTrend, commentsPerDay, contactsPerDay };
}

/** messaging's blocks, as every service that respects them reads them. */
export { blockBetween } from '@cartable/service-kit';
