import { z } from 'zod';
import { dbInt, multilineText, pageMetaSchema, positiveId, safeText } from './common.ts';
import { COMMENT_MAX_LENGTH, COMMENT_MIN_LENGTH } from './limits.ts';
import { messages } from './messages.ts';

/**
 * Comments on books, the contact form and its back office (services/moderation/API.md): what
 * the API accepts and answers, used by the moderation service for validation and serialisation
 * and by the comment, contact and back-office screens.
 */
const c = messages.comments;
const k = messages.contact;

// ── comments ────────────────────────────────────────────────────────────────────────────────

export const COMMENTS_PER_PAGE = 10;

export const commentStatuses = ['pending', 'approved', 'rejected'] as const;
export type CommentStatus = (typeof commentStatuses)[number];
/** What a moderator decides. */
export const moderationDecisions = ['approved', 'rejected'] as const;
export type ModerationDecision = (typeof moderationDecisions)[number];

export const commentContentSchema = multilineText({ error: c.empty })
  .trim()
  // Empty says so alone, not also "too short".
  .min(1, { message: c.empty, abort: true })
  .min(COMMENT_MIN_LENGTH, c.tooShort)
  .max(COMMENT_MAX_LENGTH, c.tooLong);

/** POST /books/{id}/comments: a comment, or a reply under `parent_id`. */
export const commentRequestSchema = z.object({
  content: commentContentSchema,
  parent_id: z.string().uuid().nullish(),
});
export type CommentRequest = z.input<typeof commentRequestSchema>;

/** PUT or PATCH /books/{id}/comments/{commentId}. */
export const commentUpdateRequestSchema = z.object({ content: commentContentSchema });
export type CommentUpdateRequest = z.input<typeof commentUpdateRequestSchema>;

export const bookCommentsParamsSchema = z.object({ id: positiveId() });
export const commentParamsSchema = bookCommentsParamsSchema.extend({ commentId: z.string().uuid() });
export const commentsQuerySchema = z.object({ page: dbInt().min(1).default(1) });

export interface Comment {
  id: string;
  content: string;
  parent_id: string | null;
  created_at: string;
  updated_at: string;
  status: CommentStatus;
  user: { id: string; name: string; profile_image: string | null };
  can_edit: boolean;
  can_delete: boolean;
  can_moderate: boolean;
  replies: Comment[];
}

/** A comment as its reader may act on it, replies nested (any depth). */
export const commentSchema: z.ZodType<Comment> = z
  .object({
    id: z.string().uuid(),
    content: z.string(),
    parent_id: z.string().uuid().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    status: z.enum(commentStatuses),
    user: z.object({ id: z.string().uuid(), name: z.string(), profile_image: z.string().nullable() }),
    can_edit: z.boolean(),
    can_delete: z.boolean(),
    can_moderate: z.boolean(),
    get replies() {
      return z.array(commentSchema);
    },
  })
  .meta({ id: 'Comment' });

/** GET /books/{id}/comments: top-level comments, newest first, 10 a page. */
export const commentPageSchema = z.object({ data: z.array(commentSchema), meta: pageMetaSchema });
export type CommentPage = z.infer<typeof commentPageSchema>;

/** A comment written, edited or moderated, and what happened to it. */
export const commentResponseSchema = z.object({ message: z.string(), data: commentSchema });
export type CommentResponse = z.infer<typeof commentResponseSchema>;

export const pendingCommentsQuerySchema = commentsQuerySchema.extend({
  per_page: dbInt().min(1).max(100).default(20),
  /** Words of the comment, its author's name or its book's title. */
  q: safeText().trim().max(100, 'La recherche ne peut pas dépasser 100 caractères').optional(),
  /** Newest first by default; `oldest` serves the queue in the order it came. */
  order: z.enum(['newest', 'oldest'], { error: 'Ordre inconnu' }).optional(),
});

/** A line of the moderation queue (GET /admin/comments/pending). */
export const pendingCommentSchema = z.object({
  id: z.string().uuid(),
  content: z.string(),
  created_at: z.string(),
  book_id: z.number().int(),
  /** From moderation's copy of the book; null only if its event has not arrived yet. */
  book_title: z.string().nullable(),
  parent_id: z.string().uuid().nullable(),
  user: z.object({ id: z.string().uuid(), name: z.string() }),
});
export type PendingComment = z.infer<typeof pendingCommentSchema>;
export const pendingCommentsResponseSchema = z.object({ data: z.array(pendingCommentSchema), meta: pageMetaSchema });

export const moderateCommentParamsSchema = z.object({ commentId: z.string().uuid() });
export const moderateCommentRequestSchema = z.object({
  status: z.enum(moderationDecisions, { error: c.moderationStatus }),
});
export type ModerateCommentRequest = z.input<typeof moderateCommentRequestSchema>;

// ── contact ─────────────────────────────────────────────────────────────────────────────────

export const contactStatuses = ['new', 'read', 'answered', 'archived'] as const;
export type ContactStatus = (typeof contactStatuses)[number];

/** GET /contact/captcha: the server's arithmetic question, valid 15 minutes, once. */
export const captchaResponseSchema = z.object({ captcha_id: z.string().uuid(), question: z.string() });
export type Captcha = z.infer<typeof captchaResponseSchema>;

/** POST /contact (SPEC.md section 5). */
export const contactRequestSchema = z.object({
  name: safeText({ error: k.nameRequired }).trim().min(1, k.nameRequired).max(100),
  email: z.string({ error: k.emailRequired }).trim().min(1, k.emailRequired).email(k.emailInvalid).toLowerCase(),
  subject: safeText({ error: k.subjectRequired }).trim().min(1, k.subjectRequired).max(200),
  message: multilineText({ error: k.messageRequired }).trim().min(1, k.messageRequired).max(5000),
  captcha_id: z.string({ error: k.captchaWrong }).uuid(k.captchaWrong),
  captcha_answer: dbInt(k.captchaWrong),
});
export type ContactRequest = z.input<typeof contactRequestSchema>;
/** The form as the service reads it once checked (e-mail lower-cased, answer a number). */
export type ContactSubmission = z.output<typeof contactRequestSchema>;

export const contactSchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    email: z.string(),
    subject: z.string(),
    message: z.string(),
    status: z.enum(contactStatuses),
    response: z.string().nullable(),
    responded_at: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'Contact' });
export type Contact = z.infer<typeof contactSchema>;

export const contactParamsSchema = z.object({ id: z.string().uuid() });
export const contactListQuerySchema = z.object({
  status: z.enum(contactStatuses).optional(),
  search: safeText().trim().max(100).optional(),
  page: dbInt().min(1).default(1),
  per_page: dbInt().min(1).max(100).default(20),
});
export const contactListResponseSchema = z.object({ data: z.array(contactSchema), meta: pageMetaSchema });
export const contactStatsResponseSchema = z.object({
  stats: z.object({
    total: z.number().int(),
    new: z.number().int(),
    read: z.number().int(),
    answered: z.number().int(),
    archived: z.number().int(),
  }),
});
export const contactResponseSchema = z.object({ data: contactSchema });
export const contactRespondRequestSchema = z.object({
  response: multilineText().trim().min(2, k.responseRequired).max(5000),
});
export const contactRespondResponseSchema = z.object({ message: z.string(), data: contactSchema });
export const contactStatusRequestSchema = z.object({ status: z.enum(contactStatuses, { error: k.statusUnknown }) });
export const contactBulkDeleteRequestSchema = z.object({
  ids: z.array(z.string().uuid()).min(1, k.chooseOne).max(500),
});
export const contactBulkDeleteResponseSchema = z.object({ deleted: z.number().int() });
