import {
  type Conversation,
  type ConversationBook,
  type ConversationMember,
  type ConversationThread,
  type Message,
  messages as m,
  type SendMessage,
  type SendMessageResponse,
} from '@cartable/contracts';
import { forbidden, notFound, unprocessable } from '@cartable/service-kit';
import {
  type BookRow,
  conversationsOf,
  countMessages,
  countUnread,
  findBook,
  findBooks,
  findConversation,
  findMember,
  findMembers,
  findMessage,
  insertMessage,
  lastMessagesOf,
  type MemberRow,
  type MessageRow,
  markConversationRead,
  markMessageRead,
  messageSlice,
  receivedMessages,
  unreadPerConversation,
} from '../db/queries.ts';
import type { MessagingDeps } from '../deps.ts';
import { messageSent, messagesRead } from '../events/published.ts';
import { refuseIfBlocked } from './blocks.ts';

/**
 * Conversations (services/messaging/API.md): a conversation is one book and two members, one of
 * them its owner, and only they can read it. The rules live here, free of HTTP; the routes pass
 * the signed-in member's id (`me`) and the request's values, and send back what these return.
 */

type Deps = Pick<MessagingDeps, 'uow'>;

const RECENT_MESSAGES = 5;

// ── how rows are shown (libs/contracts/src/messaging.ts) ─────────────────────────────────────

export const toMessage = (row: MessageRow, me: string, bookId: number): Message => ({
  id: row.id,
  conversation_id: row.conversationId,
  book_id: bookId,
  sender_id: row.senderId,
  receiver_id: row.receiverId,
  content: row.content,
  read_at: row.readAt?.toISOString() ?? null,
  created_at: row.createdAt.toISOString(),
  is_mine: row.senderId === me,
});

/** A member as a conversation shows them; unknown to the projection yet → a neutral name. */
export const toMember = (id: string, row: MemberRow | undefined): ConversationMember => ({
  id,
  name: row?.name ?? m.messaging.unknownMember,
  username: row?.username ?? '',
  profile_image: row?.profileImage ?? null,
});

export const toBook = (row: BookRow | undefined): ConversationBook | null =>
  row ? { id: row.id, title: row.title, thumbnail: row.thumbnail, price: row.price, status: row.status } : null;

// ── rules ────────────────────────────────────────────────────────────────────────────────────

/**
 * A member writes about a book: to its owner, or (the owner) to a member who wrote. The
 * conversation is created with its first message; message and event commit together.
 */
export async function sendMessage({ uow }: Deps, me: string, request: SendMessage): Promise<SendMessageResponse> {
  const { receiver_id, book_id, content, send_email_copy } = request;
  const db = uow.db;
  if (receiver_id === me) throw unprocessable({ receiver_id: [m.messaging.toYourself] });
  const book = await findBook(db, book_id, { listedOnly: true });
  if (!book) throw unprocessable({ book_id: [m.messaging.bookGone] });
  // A conversation is about the owner's book: one of the two must be its owner.
  if (book.ownerId !== me && book.ownerId !== receiver_id) {
    throw unprocessable({ receiver_id: [m.messaging.writeToSeller] });
  }
  const receiver = await findMember(db, receiver_id);
  if (receiver?.deletedAt) throw unprocessable({ receiver_id: [m.messaging.receiverGone] });
  await refuseIfBlocked(db, me, receiver_id);
  const sender = toMember(me, await findMember(db, me));
  const saved = await uow.run(async (t) => {
    const { message } = await insertMessage(t.db, { bookId: book_id, senderId: me, receiverId: receiver_id, content });
    await messageSent(t, { message, book, senderName: sender.name, sendEmailCopy: send_email_copy });
    return message;
  });
  return { message: m.messaging.sent, data: toMessage(saved, me, book_id), email_copy_sent: send_email_copy };
}

/** The member's conversations, latest first, each with its last message and unread count. */
export async function listConversations({ uow }: Deps, me: string): Promise<Conversation[]> {
  const db = uow.db;
  const rows = await conversationsOf(db, me);
  if (!rows.length) return [];
  const ids = rows.map((c) => c.id);
  const otherIds = rows.map((c) => (c.memberA === me ? c.memberB : c.memberA));
  const [lasts, unread, bookRows, people] = await Promise.all([
    lastMessagesOf(db, ids),
    unreadPerConversation(db, ids, me),
    findBooks(db, [...new Set(rows.map((c) => c.bookId))]),
    findMembers(db, [...new Set(otherIds)]),
  ]);
  return rows.map((c, i) => {
    const last = lasts.find((row) => row.conversationId === c.id)!;
    return {
      id: c.id,
      book: toBook(bookRows.find((b) => b.id === c.bookId)),
      other_user: toMember(
        otherIds[i]!,
        people.find((p) => p.id === otherIds[i]),
      ),
      last_message: toMessage(last, me, c.bookId),
      unread_count: unread.find((u) => u.id === c.id)?.n ?? 0,
      updated_at: c.lastMessageAt.toISOString(),
    };
  });
}

/** What the member received in a conversation becomes read; the change and its event commit together. */
async function markRead({ uow }: Deps, conversationId: string, me: string) {
  return uow.run(async (t) => {
    const read = await markConversationRead(t.db, conversationId, me);
    if (read.length) await messagesRead(t, conversationId, me, read.length);
    return read.length;
  });
}

/**
 * A page of the conversation between the member and `userId` about `bookId`, oldest first.
 * Pages are counted from the end: the last page, shown first, holds the latest messages and is
 * full; page 1 holds the oldest, possibly fewer. Opening it marks the other's messages read.
 */
export async function openThread(
  deps: Deps,
  me: string,
  { bookId, userId, page: asked, perPage }: { bookId: number; userId: string; page?: number; perPage: number },
): Promise<ConversationThread> {
  const db = deps.uow.db;
  // The URL names the other member: a third party gets nothing but an empty thread of their own.
  if (userId === me) throw forbidden(m.messaging.notYourConversation);
  const book = await findBook(db, bookId);
  if (!book) throw notFound(m.messaging.bookNotFound);
  if (book.ownerId !== me && book.ownerId !== userId) throw forbidden(m.messaging.notYourConversation);
  const conversation = await findConversation(db, bookId, me, userId);
  const other = toMember(userId, await findMember(db, userId));
  if (!conversation) {
    return {
      conversation: { id: null, book: toBook(book), other_user: other },
      data: [],
      meta: { current_page: 1, last_page: 1, total: 0 },
    };
  }
  const total = await countMessages(db, conversation.id);
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const page = Math.min(asked ?? lastPage, lastPage);
  const end = total - (lastPage - page) * perPage;
  const start = Math.max(0, end - perPage);
  const rows = await messageSlice(db, conversation.id, start, end);
  await markRead(deps, conversation.id, me);
  return {
    conversation: { id: conversation.id, book: toBook(book), other_user: other },
    data: rows.map((row) => toMessage(row, me, bookId)),
    meta: { current_page: page, last_page: lastPage, total },
  };
}

/** POST …/mark-read: the conversation must exist. */
export async function markThreadRead(deps: Deps, me: string, bookId: number, userId: string) {
  const conversation = await findConversation(deps.uow.db, bookId, me, userId);
  if (!conversation) throw notFound(m.messaging.conversationNotFound);
  return markRead(deps, conversation.id, me);
}

export const unreadCount = ({ uow }: Deps, me: string) => countUnread(uow.db, me);

/**
 * One message, for its sender or receiver; the receiver reading it marks it read (with its
 * event, as for a thread: the live streams update the badge and the sender's « Lu »).
 */
export async function readMessage({ uow }: Deps, me: string, id: string): Promise<Message> {
  const row = await findMessage(uow.db, id);
  if (!row) throw notFound(m.messaging.messageNotFound);
  if (row.message.receiverId !== me && row.message.senderId !== me) throw forbidden(m.messaging.notYourMessage);
  let message = row.message;
  if (message.receiverId === me && !message.readAt) {
    const unread = message;
    const read = await uow.run(async (t) => {
      const updated = await markMessageRead(t.db, unread.id);
      if (updated) await messagesRead(t, unread.conversationId, me, 1);
      return updated;
    });
    message = read ?? message;
  }
  return toMessage(message, me, row.bookId);
}

/** The last messages the member received (the dashboard). */
export async function recentMessages({ uow }: Deps, me: string): Promise<Message[]> {
  const rows = await receivedMessages(uow.db, me, RECENT_MESSAGES);
  return rows.map((r) => toMessage(r.message, me, r.bookId));
}
