import { z } from 'zod';
import { dbInt, int4, multilineText, pageMetaSchema, positiveId } from './common.ts';
import { messages } from './messages.ts';

/**
 * Conversations and messages (services/messaging/API.md): what the API accepts and answers,
 * used by the messaging service for validation and serialisation and by the conversation screens.
 */
const m = messages.messaging;

export const MAX_MESSAGE_LENGTH = 2000;

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
