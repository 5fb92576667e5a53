import { z } from 'zod';
import { dbInt, int4, multilineText, pageMetaSchema, positiveId } from './common.ts';
import { MAX_MESSAGE_LENGTH } from './limits.ts';
import { messages } from './messages.ts';

/**
 * Conversations and messages (services/messaging/API.md): what the API accepts and answers,
 * used by the messaging service for validation and serialisation and by the conversation screens.
 */
const m = messages.messaging;

// ── requests ────────────────────────────────────────────────────────────────────────────────

/** POST /messages: to the seller of a book, or from the seller to a member who wrote. */
export const sendMessageRequestSchema = z.object({
  receiver_id: z.string({ error: m.receiverMissing }).uuid(m.receiverInvalid),
  book_id: int4(z.coerce.number({ error: m.bookMissing }).int(m.bookInvalid).positive(m.bookInvalid), m.bookInvalid),
  content: multilineText({ error: m.blank }).trim().min(1, m.blank).max(MAX_MESSAGE_LENGTH, m.tooLong),
  send_email_copy: z.boolean().default(false),
});
/** What a client sends (the form's values)… */
export type SendMessageRequest = z.input<typeof sendMessageRequestSchema>;
/** …and what the service reads once checked. */
export type SendMessage = z.output<typeof sendMessageRequestSchema>;

/** /messages/conversation/{bookId}/{userId}: the book and the other member. */
export const conversationParamsSchema = z.object({
  bookId: positiveId(),
  userId: z.string().uuid(),
});

/** Pages are counted from the end: no page = the last one, the latest messages. */
export const conversationQuerySchema = z.object({
  page: dbInt().min(1).optional(),
  per_page: dbInt().min(1).max(100).default(30),
});

export const messageParamsSchema = z.object({ id: z.string().uuid() });

// ── answers ─────────────────────────────────────────────────────────────────────────────────

export const messageSchema = z
  .object({
    id: z.string().uuid(),
    conversation_id: z.string().uuid(),
    book_id: z.number().int(),
    sender_id: z.string().uuid(),
    receiver_id: z.string().uuid(),
    content: z.string(),
    read_at: z.string().nullable(),
    created_at: z.string(),
    /** Sent by the member asking. */
    is_mine: z.boolean(),
  })
  .meta({ id: 'Message' });
export type Message = z.infer<typeof messageSchema>;

/** The other member, as messaging's projection of auth knows them. */
export const conversationMemberSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  username: z.string(),
  profile_image: z.string().nullable(),
});
export type ConversationMember = z.infer<typeof conversationMemberSchema>;

/** The book a conversation is about, as messaging's projection of catalog knows it. */
export const conversationBookSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  thumbnail: z.string().nullable(),
  price: z.number().int(),
  status: z.string(),
});
export type ConversationBook = z.infer<typeof conversationBookSchema>;

/** A line of GET /messages. `book` is null once the book is gone from the projection. */
export const conversationSchema = z
  .object({
    id: z.string().uuid(),
    book: conversationBookSchema.nullable(),
    other_user: conversationMemberSchema,
    last_message: messageSchema,
    unread_count: z.number().int(),
    updated_at: z.string(),
  })
  .meta({ id: 'Conversation' });
export type Conversation = z.infer<typeof conversationSchema>;

export const sendMessageResponseSchema = z.object({
  message: z.string(),
  data: messageSchema,
  email_copy_sent: z.boolean(),
});
export type SendMessageResponse = z.infer<typeof sendMessageResponseSchema>;

export const conversationsResponseSchema = z.object({ conversations: z.array(conversationSchema) });
export type ConversationsResponse = z.infer<typeof conversationsResponseSchema>;

/** GET /messages/conversation/{bookId}/{userId}: `conversation.id` is null before the first message. */
export const conversationThreadSchema = z.object({
  conversation: z.object({
    id: z.string().uuid().nullable(),
    book: conversationBookSchema.nullable(),
    other_user: conversationMemberSchema,
  }),
  /** Oldest first. */
  data: z.array(messageSchema),
  meta: pageMetaSchema,
});
export type ConversationThread = z.infer<typeof conversationThreadSchema>;

export const markReadResponseSchema = z.object({ marked: z.number().int() });
export const unreadCountResponseSchema = z.object({ unreadCount: z.number().int() });
export const messageResponseDataSchema = z.object({ data: messageSchema });
export const recentMessagesResponseSchema = z.object({ messages: z.array(messageSchema) });

// ── the live stream (GET /messages/stream, server-sent events) ───────────────────────────────

/** `message`: a message of a conversation the member is a party to (sent by them or to them). */
export const liveMessageEventSchema = z.object({
  conversation_id: z.string().uuid(),
  message: messageSchema,
});
export type LiveMessageEvent = z.infer<typeof liveMessageEventSchema>;

/** `unread`: the member's unread count, sent on connection and whenever it may have changed. */
export const liveUnreadEventSchema = unreadCountResponseSchema;
export type LiveUnreadEvent = z.infer<typeof liveUnreadEventSchema>;

/** `read`: `reader_id` read `count` messages of a conversation (the other party's receipt, or the member's other tab). */
export const liveReadEventSchema = z.object({
  conversation_id: z.string().uuid(),
  book_id: z.number().int(),
  reader_id: z.string().uuid(),
  count: z.number().int(),
  read_at: z.string(),
});
export type LiveReadEvent = z.infer<typeof liveReadEventSchema>;

/**
 * `ready`: the stream is live. `complete` is true when every message since the `Last-Event-ID`
 * was replayed; false (no id, an unknown one, too many missed, or after a NATS outage: `resync`)
 * means the client should fetch its conversations once.
 */
export const liveReadyEventSchema = z.object({ replayed: z.number().int(), complete: z.boolean() });
export type LiveReadyEvent = z.infer<typeof liveReadyEventSchema>;

/** `end`: the server ends the stream for good (session revoked or expired): do not reconnect. */
export const liveEndEventSchema = z.object({ reason: z.enum(['session']), message: z.string() });
export type LiveEndEvent = z.infer<typeof liveEndEventSchema>;

export type LiveEvent =
  | { event: 'message'; id: string; data: LiveMessageEvent }
  | { event: 'unread'; data: LiveUnreadEvent }
  | { event: 'read'; data: LiveReadEvent }
  /** Its id is the server's time at connection: a reconnection replays from there. */
  | { event: 'ready'; id?: string; data: LiveReadyEvent }
  | { event: 'resync'; data: LiveReadyEvent }
  | { event: 'end'; data: LiveEndEvent };
