import { forbidden, notFound, recordEvent, unprocessable } from '@cartable/service-kit';
import { and, asc, count, desc, eq, inArray, isNull, or } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { MessagingDeps } from '../app.ts';
import { books, conversations, members, messages } from '../db/schema.ts';

export const MAX_MESSAGE_LENGTH = 2000;
const BLANK = 'Veuillez saisir un message';

const sendBody = z.object({
  receiver_id: z.string({ error: 'Destinataire manquant' }).uuid('Destinataire invalide'),
  book_id: z.coerce.number({ error: 'Manuel manquant' }).int().positive('Manuel invalide'),
  content: z
    .string({ error: BLANK })
    .trim()
    .min(1, BLANK)
    .max(MAX_MESSAGE_LENGTH, `Le message ne peut pas dépasser ${MAX_MESSAGE_LENGTH} caractères`),
  send_email_copy: z.boolean().default(false),
});
const threadParams = z.object({ bookId: z.coerce.number().int().positive(), userId: z.string().uuid() });

/** The ordered pair a conversation is stored under. */
const pair = (a: string, b: string) => (a < b ? [a, b] : [b, a]) as [string, string];

type MessageRow = typeof messages.$inferSelect;
const messageDto = (m: MessageRow, me: string, bookId: number) => ({
  id: m.id,
  conversation_id: m.conversationId,
  book_id: bookId,
  sender_id: m.senderId,
  receiver_id: m.receiverId,
  content: m.content,
  read_at: m.readAt?.toISOString() ?? null,
  created_at: m.createdAt.toISOString(),
  is_mine: m.senderId === me,
});

/** Messages between members about a book (services/messaging/API.md). */
export const messageRoutes: FastifyPluginAsyncZod<MessagingDeps> = async (app, { db, guards, relay }) => {
  app.addHook('preHandler', guards.requireVerified);

  /** A member as a conversation shows them; unknown to the projection yet → a neutral name. */
  const toMember = (id: string, m: typeof members.$inferSelect | undefined) => ({
    id,
    name: m?.name ?? 'Membre',
    username: m?.username ?? '',
    profile_image: m?.profileImage ?? null,
  });
  async function memberDto(id: string) {
    const [m] = await db.select().from(members).where(eq(members.id, id));
    return toMember(id, m);
  }
  const bookDto = (b: typeof books.$inferSelect | undefined) =>
    b ? { id: b.id, title: b.title, thumbnail: b.thumbnail, price: b.price, status: b.status } : null;

  /** The change and its event commit together: a crash between them can lose neither. */
  async function markRead(conversationId: string, me: string) {
    const count = await db.transaction(async (tx) => {
      const read = await tx
        .update(messages)
        .set({ readAt: new Date() })
        .where(and(eq(messages.conversationId, conversationId), eq(messages.receiverId, me), isNull(messages.readAt)))
        .returning({ id: messages.id });
      if (read.length) {
        await recordEvent(tx, 'messaging.message.read', {
          conversation_id: conversationId,
          reader_id: me,
          count: read.length,
        });
      }
      return read.length;
    });
    if (count) relay.kick();
    return count;
  }

  app.post('/messages', { schema: { body: sendBody } }, async (request, reply) => {
    const me = request.claims!.sub;
    const { receiver_id, book_id, content, send_email_copy } = request.body;
    if (receiver_id === me) throw unprocessable({ receiver_id: ['Vous ne pouvez pas vous écrire à vous-même.'] });
    const [book] = await db
      .select()
      .from(books)
      .where(and(eq(books.id, book_id), isNull(books.deletedAt)));
    if (!book) throw unprocessable({ book_id: ["Ce manuel n'existe pas ou n'est plus en ligne."] });
    // A conversation is about the owner's book: one of the two must be its owner.
    if (book.ownerId !== me && book.ownerId !== receiver_id) {
      throw unprocessable({ receiver_id: ['Écrivez au vendeur de ce manuel.'] });
    }
    const [receiver] = await db.select().from(members).where(eq(members.id, receiver_id));
    if (receiver?.deletedAt) throw unprocessable({ receiver_id: ["Ce membre n'est plus inscrit."] });
    const [a, b] = pair(me, receiver_id);
    const sender = await memberDto(me);
    const saved = await db.transaction(async (tx) => {
      const now = new Date();
      const [conversation] = await tx
        .insert(conversations)
        .values({ bookId: book_id, memberA: a, memberB: b, lastMessageAt: now })
        .onConflictDoUpdate({
          target: [conversations.bookId, conversations.memberA, conversations.memberB],
          set: { lastMessageAt: now },
        })
        .returning();
      const [message] = await tx
        .insert(messages)
        .values({ conversationId: conversation!.id, senderId: me, receiverId: receiver_id, content })
        .returning();
      await recordEvent(tx, 'messaging.message.sent', {
        message_id: message!.id,
        conversation_id: conversation!.id,
        book_id,
        book_title: book.title,
        sender_id: me,
        sender_name: sender.name,
        receiver_id,
        content,
        send_email_copy,
        created_at: message!.createdAt.toISOString(),
      });
      return message!;
    });
    relay.kick();
    return reply.status(201).send({
      message: 'Message envoyé avec succès',
      data: messageDto(saved, me, book_id),
      email_copy_sent: send_email_copy,
    });
  });

  app.get('/messages', async (request) => {
    const me = request.claims!.sub;
    const rows = await db
      .select()
      .from(conversations)
      .where(or(eq(conversations.memberA, me), eq(conversations.memberB, me)))
      .orderBy(desc(conversations.lastMessageAt))
      .limit(200);
    if (!rows.length) return { conversations: [] };
    const ids = rows.map((c) => c.id);
    const [lasts, unread, bookRows] = await Promise.all([
      db
        .selectDistinctOn([messages.conversationId])
        .from(messages)
        .where(inArray(messages.conversationId, ids))
        .orderBy(messages.conversationId, desc(messages.createdAt)),
      db
        .select({ id: messages.conversationId, n: count() })
        .from(messages)
        .where(and(inArray(messages.conversationId, ids), eq(messages.receiverId, me), isNull(messages.readAt)))
        .groupBy(messages.conversationId),
      db
        .select()
        .from(books)
        .where(inArray(books.id, [...new Set(rows.map((c) => c.bookId))])),
    ]);
    const otherIds = rows.map((c) => (c.memberA === me ? c.memberB : c.memberA));
    const people = await db
      .select()
      .from(members)
      .where(inArray(members.id, [...new Set(otherIds)]));
    const others = otherIds.map((id) =>
      toMember(
        id,
        people.find((p) => p.id === id),
      ),
    );
    return {
      conversations: rows.map((c, i) => {
        const last = lasts.find((m) => m.conversationId === c.id)!;
        return {
          id: c.id,
          book: bookDto(bookRows.find((b) => b.id === c.bookId)),
          other_user: others[i]!,
          last_message: messageDto(last, me, c.bookId),
          unread_count: unread.find((u) => u.id === c.id)?.n ?? 0,
          updated_at: c.lastMessageAt.toISOString(),
        };
      }),
    };
  });

  async function conversationWith(me: string, bookId: number, userId: string) {
    const [a, b] = pair(me, userId);
    const [conversation] = await db
      .select()
      .from(conversations)
      .where(and(eq(conversations.bookId, bookId), eq(conversations.memberA, a), eq(conversations.memberB, b)));
    return conversation;
  }

  app.get(
    '/messages/conversation/:bookId/:userId',
    {
      schema: {
        params: threadParams,
        querystring: z.object({
          page: z.coerce.number().int().min(1).optional(),
          per_page: z.coerce.number().int().min(1).max(100).default(30),
        }),
      },
    },
    async (request) => {
      const me = request.claims!.sub;
      const { bookId, userId } = request.params;
      // The URL names the other member: a third party gets nothing but an empty thread of their own.
      if (userId === me) throw forbidden('Cette conversation ne vous concerne pas.');
      const [book] = await db.select().from(books).where(eq(books.id, bookId));
      if (!book) throw notFound('Manuel introuvable.');
      if (book.ownerId !== me && book.ownerId !== userId) throw forbidden('Cette conversation ne vous concerne pas.');
      const conversation = await conversationWith(me, bookId, userId);
      const other = await memberDto(userId);
      const perPage = request.query.per_page;
      if (!conversation) {
        return {
          conversation: { id: null, book: bookDto(book), other_user: other },
          data: [],
          meta: { current_page: 1, last_page: 1, total: 0 },
        };
      }
      const [{ total } = { total: 0 }] = await db
        .select({ total: count() })
        .from(messages)
        .where(eq(messages.conversationId, conversation.id));
      const lastPage = Math.max(1, Math.ceil(total / perPage));
      // Pages are counted from the end: the last page, shown first, holds the latest messages
      // and is full; page 1 holds the oldest, possibly fewer.
      const page = Math.min(request.query.page ?? lastPage, lastPage);
      const end = total - (lastPage - page) * perPage;
      const start = Math.max(0, end - perPage);
      const rows = await db
        .select()
        .from(messages)
        .where(eq(messages.conversationId, conversation.id))
        .orderBy(asc(messages.createdAt), asc(messages.id))
        .limit(end - start)
        .offset(start);
      await markRead(conversation.id, me);
      return {
        conversation: { id: conversation.id, book: bookDto(book), other_user: other },
        data: rows.map((m) => messageDto(m, me, bookId)),
        meta: { current_page: page, last_page: lastPage, total },
      };
    },
  );

  app.post(
    '/messages/conversation/:bookId/:userId/mark-read',
    { schema: { params: threadParams } },
    async (request) => {
      const me = request.claims!.sub;
      const conversation = await conversationWith(me, request.params.bookId, request.params.userId);
      if (!conversation) throw notFound('Conversation introuvable.');
      return { marked: await markRead(conversation.id, me) };
    },
  );

  app.get('/messages/unread/count', async (request) => {
    const [{ n } = { n: 0 }] = await db
      .select({ n: count() })
      .from(messages)
      .where(and(eq(messages.receiverId, request.claims!.sub), isNull(messages.readAt)));
    return { unreadCount: n };
  });

  app.get('/messages/:id/read', { schema: { params: z.object({ id: z.string().uuid() }) } }, async (request) => {
    const me = request.claims!.sub;
    const [row] = await db
      .select({ message: messages, bookId: conversations.bookId })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .where(eq(messages.id, request.params.id));
    if (!row) throw notFound('Message introuvable.');
    if (row.message.receiverId !== me && row.message.senderId !== me)
      throw forbidden('Ce message ne vous concerne pas.');
    let message = row.message;
    if (message.receiverId === me && !message.readAt) {
      const [updated] = await db
        .update(messages)
        .set({ readAt: new Date() })
        .where(eq(messages.id, message.id))
        .returning();
      message = updated ?? message;
    }
    return { data: messageDto(message, me, row.bookId) };
  });

  app.get('/user/messages/recent', async (request) => {
    const me = request.claims!.sub;
    const rows = await db
      .select({ message: messages, bookId: conversations.bookId })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .where(eq(messages.receiverId, me))
      .orderBy(desc(messages.createdAt))
      .limit(5);
    return { messages: rows.map((r) => messageDto(r.message, me, r.bookId)) };
  });
};
