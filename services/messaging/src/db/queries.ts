import type { Db } from '@cartable/service-kit';
import { and, asc, count, desc, eq, gt, inArray, isNull, or } from 'drizzle-orm';
import { books, conversations, members, messages } from './schema.ts';

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
