import { type Db, dailyCounts, isNewer, type StatsWindow, trend } from '@cartable/service-kit';
import { and, asc, count, desc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import { blocks, books, conversations, members, messageReports, messages } from './schema.ts';

/** Messaging's reads and writes, one function each; the rules that use them are in src/domain/. */

export type BookRow = typeof books.$inferSelect;
export type MemberRow = typeof members.$inferSelect;
export type ConversationRow = typeof conversations.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;

/** The ordered pair a conversation is stored under. */
export const pair = (a: string, b: string) => (a < b ? [a, b] : [b, a]) as [string, string];

export async function findBook(db: Db, id: number, { listedOnly = false } = {}) {
  const [book] = await db
    .select()
    .from(books)
    .where(listedOnly ? and(eq(books.id, id), isNull(books.deletedAt)) : eq(books.id, id));
  return book;
}

export async function findBooks(db: Db, ids: number[]) {
  return ids.length ? db.select().from(books).where(inArray(books.id, ids)) : [];
}

export async function findMember(db: Db, id: string) {
  const [member] = await db.select().from(members).where(eq(members.id, id));
  return member;
}

export async function findMembers(db: Db, ids: string[]) {
  return ids.length ? db.select().from(members).where(inArray(members.id, ids)) : [];
}

export async function findConversation(db: Db, bookId: number, me: string, other: string) {
  const [a, b] = pair(me, other);
  const [conversation] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.bookId, bookId), eq(conversations.memberA, a), eq(conversations.memberB, b)));
  return conversation;
}

export async function findConversationById(db: Db, id: string) {
  const [conversation] = await db.select().from(conversations).where(eq(conversations.id, id));
  return conversation;
}

/**
 * The messages the member sent or received after `since`, oldest first, with their books (the
 * live stream's replay after a reconnection): at most `limit`.
 */
export function messagesOfMemberSince(db: Db, me: string, since: Date, limit: number) {
  return db
    .select({ message: messages, bookId: conversations.bookId })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(and(or(eq(conversations.memberA, me), eq(conversations.memberB, me)), gt(messages.createdAt, since)))
    .orderBy(asc(messages.createdAt), asc(messages.id))
    .limit(limit);
}

/** The member's conversations, latest activity first (at most 200). */
export function conversationsOf(db: Db, me: string) {
  return db
    .select()
    .from(conversations)
    .where(or(eq(conversations.memberA, me), eq(conversations.memberB, me)))
    .orderBy(desc(conversations.lastMessageAt))
    .limit(200);
}

/** The latest message of each conversation, in one query. */
export function lastMessagesOf(db: Db, conversationIds: string[]) {
  return db
    .selectDistinctOn([messages.conversationId])
    .from(messages)
    .where(inArray(messages.conversationId, conversationIds))
    .orderBy(messages.conversationId, desc(messages.createdAt));
}

/** Messages the member has not read, per conversation. */
export function unreadPerConversation(db: Db, conversationIds: string[], me: string) {
  return db
    .select({ id: messages.conversationId, n: count() })
    .from(messages)
    .where(and(inArray(messages.conversationId, conversationIds), eq(messages.receiverId, me), isNull(messages.readAt)))
    .groupBy(messages.conversationId);
}

export async function countUnread(db: Db, me: string) {
  const [{ n } = { n: 0 }] = await db
    .select({ n: count() })
    .from(messages)
    .where(and(eq(messages.receiverId, me), isNull(messages.readAt)));
  return n;
}

export async function countMessages(db: Db, conversationId: string) {
  const [{ total } = { total: 0 }] = await db
    .select({ total: count() })
    .from(messages)
    .where(eq(messages.conversationId, conversationId));
  return total;
}

/** Messages `start` to `end` (exclusive) of a conversation, oldest first. */
export function messageSlice(db: Db, conversationId: string, start: number, end: number) {
  return db
    .select()
    .from(messages)
    .where(eq(messages.conversationId, conversationId))
    .orderBy(asc(messages.createdAt), asc(messages.id))
    .limit(end - start)
    .offset(start);
}

/** A message with the book its conversation is about. */
export async function findMessage(db: Db, id: string) {
  const [row] = await db
    .select({ message: messages, bookId: conversations.bookId })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(eq(messages.id, id));
  return row;
}

/** The last messages the member received, with their books. */
export function receivedMessages(db: Db, me: string, limit: number) {
  return db
    .select({ message: messages, bookId: conversations.bookId })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(eq(messages.receiverId, me))
    .orderBy(desc(messages.createdAt))
    .limit(limit);
}

/** The conversation of this book and pair, created or touched, and the new message in it. */
export async function insertMessage(
  tx: Db,
  values: { bookId: number; senderId: string; receiverId: string; content: string },
) {
  const [a, b] = pair(values.senderId, values.receiverId);
  const now = new Date();
  const [conversation] = await tx
    .insert(conversations)
    .values({ bookId: values.bookId, memberA: a, memberB: b, lastMessageAt: now })
    .onConflictDoUpdate({
      target: [conversations.bookId, conversations.memberA, conversations.memberB],
      set: { lastMessageAt: now },
    })
    .returning();
  const [message] = await tx
    .insert(messages)
    .values({
      conversationId: conversation!.id,
      senderId: values.senderId,
      receiverId: values.receiverId,
      content: values.content,
    })
    .returning();
  return { conversation: conversation!, message: message! };
}

/** Marks what the member received in a conversation as read; returns the ids marked. */
export function markConversationRead(tx: Db, conversationId: string, me: string) {
  return tx
    .update(messages)
    .set({ readAt: new Date() })
    .where(and(eq(messages.conversationId, conversationId), eq(messages.receiverId, me), isNull(messages.readAt)))
    .returning({ id: messages.id });
}

export async function markMessageRead(db: Db, id: string) {
  const [updated] = await db.update(messages).set({ readAt: new Date() }).where(eq(messages.id, id)).returning();
  return updated;
}

/** Whether `blocker` blocked `blocked`. */
export async function hasBlocked(db: Db, blocker: string, blocked: string) {
  const [row] = await db
    .select({ at: blocks.createdAt })
    .from(blocks)
    .where(and(eq(blocks.blockerId, blocker), eq(blocks.blockedId, blocked)));
  return Boolean(row);
}

/** Who blocked whom between two members (none, either or both ways). */
export async function blockersBetween(db: Db, a: string, b: string) {
  const rows = await db
    .select({ blocker: blocks.blockerId })
    .from(blocks)
    .where(
      or(and(eq(blocks.blockerId, a), eq(blocks.blockedId, b)), and(eq(blocks.blockerId, b), eq(blocks.blockedId, a))),
    );
  return rows.map((r) => r.blocker);
}

/** The block's date, or undefined when it was there already. */
export async function insertBlock(tx: Db, blockerId: string, blockedId: string) {
  const [inserted] = await tx
    .insert(blocks)
    .values({ blockerId, blockedId })
    .onConflictDoNothing()
    .returning({ at: blocks.createdAt });
  return inserted?.at;
}

/** Whether there was a block to remove. */
export async function deleteBlock(tx: Db, blockerId: string, blockedId: string) {
  const rows = await tx
    .delete(blocks)
    .where(and(eq(blocks.blockerId, blockerId), eq(blocks.blockedId, blockedId)))
    .returning({ at: blocks.createdAt });
  return rows.length > 0;
}

/** The members `blocker` blocked, newest first. */
export const blocksOf = (db: Db, blocker: string) =>
  db.select().from(blocks).where(eq(blocks.blockerId, blocker)).orderBy(desc(blocks.createdAt));

export async function messageById(db: Db, id: string) {
  const [row] = await db.select().from(messages).where(eq(messages.id, id));
  return row;
}

/** A report of a message; the unique index refuses a second one by the same member. */
export async function insertMessageReport(tx: Db, messageId: string, reporterId: string) {
  await tx.insert(messageReports).values({ messageId, reporterId });
}

const conversationRows = { from: sql`conversations`, at: sql`created_at` };
const messageRows = { from: sql`messages`, at: sql`created_at` };

/** Conversations and messages begun in the window, with the previous one to compare, and per day. */
export async function activityFigures(db: Db, window: StatsWindow) {
  const [conversations, sent, conversationsPerDay, messagesPerDay] = await Promise.all([
    trend(db, conversationRows, window),
    trend(db, messageRows, window),
    dailyCounts(db, conversationRows, window),
    dailyCounts(db, messageRows, window),
  ]);
  return { conversations, messages: sent, conversationsPerDay, messagesPerDay };
}

/**
 * The median and the number of a member's reply delays since `since`: in each conversation where
 * the other member wrote first, from that first message to the member's first answer after it.
 */
export async function replyDelays(db: Db, userId: string, since: Date) {
  const result = await db.execute(sql`
    select percentile_cont(0.5) within group (order by delay) as median, count(*)::int as samples
    from (
      select extract(epoch from (answered.at - asked.at)) as delay
      from conversations c
      cross join lateral (
        select min(m.created_at) as at from messages m
        where m.conversation_id = c.id and m.sender_id <> ${userId}
      ) asked
      cross join lateral (
        select min(m.created_at) as at from messages m
        where m.conversation_id = c.id and m.sender_id = ${userId} and m.created_at > asked.at
      ) answered
      where (c.member_a = ${userId} or c.member_b = ${userId})
        and asked.at >= ${since.toISOString()}::timestamptz
        and answered.at is not null
        -- The member wrote first: that conversation measures the other's reply, not theirs.
        and not exists (
          select 1 from messages f
          where f.conversation_id = c.id and f.sender_id = ${userId} and f.created_at < asked.at
        )
    ) delays`);
  const row = (result as unknown as { rows: Array<{ median: number | string | null; samples: number }> }).rows[0];
  return {
    samples: Number(row?.samples ?? 0),
    median: row?.median === null || row?.median === undefined ? null : Math.round(Number(row.median)),
  };
}

/** A member from auth; the newest version wins. */
export async function keepMember(
  tx: Db,
  id: string,
  row: { name: string; username: string; profileImage: string | null; deletedAt: Date | null; version: number },
) {
  await tx
    .insert(members)
    .values({ id, ...row })
    .onConflictDoUpdate({ target: members.id, set: row, setWhere: isNewer(members.version) });
}

/** A book from catalog; kept unless what is held is newer. */
export async function keepBook(tx: Db, id: number, row: Omit<typeof books.$inferInsert, 'id'>) {
  await tx
    .insert(books)
    .values({ id, ...row })
    .onConflictDoUpdate({ target: books.id, set: row, setWhere: isNewer(books.version) });
}
