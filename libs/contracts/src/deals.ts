import { z } from 'zod';
import { dbInt, int4, pageMetaSchema } from './common.ts';
import { transactionKinds, transactionStatuses } from './labels.ts';
import { dealMessages } from './messages.ts';
import { commentContentSchema } from './moderation.ts';

/**
 * Deals and trust (services/catalog/API.md "Transactions" and "Ratings"): the owner of a listing
 * records a sale, an exchange or a gift with a member who wrote to them about it; the other member
 * confirms or declines; after a confirmed deal each party rates the other once.
 */

const d = dealMessages;

/** Days during which a rating can still be edited. */
export const RATING_EDIT_DAYS = 7;
export const RATING_COMMENT_WARNING = 50;
export const TRANSACTIONS_PER_PAGE = 10;
export const RATINGS_PER_PAGE = 10;

// ── requests ────────────────────────────────────────────────────────────────────────────────

/** POST /transactions, by the owner of the listing. */
export const createTransactionRequestSchema = z
  .object({
    book_id: int4(z.coerce.number({ error: d.bookInvalid }).int(d.bookInvalid).positive(d.bookInvalid), d.bookInvalid),
    buyer_id: z.string({ error: d.buyerInvalid }).uuid(d.buyerInvalid),
    kind: z.enum(transactionKinds, { error: d.kindInvalid }),
    /** Whole FCFA, for a sale. */
    price: int4(z.coerce.number({ error: d.priceInvalid }).int(d.priceInvalid).min(0, d.priceInvalid), d.priceInvalid)
      .nullable()
      .optional(),
    /** For an exchange: one of the other member's listings (optional). */
    exchange_book_id: int4(
      z.coerce.number({ error: d.bookInvalid }).int(d.bookInvalid).positive(d.bookInvalid),
      d.bookInvalid,
    )
      .nullable()
      .optional(),
  })
  .superRefine((v, ctx) => {
    if (v.kind === 'sale' && (v.price === undefined || v.price === null))
      ctx.addIssue({ code: 'custom', path: ['price'], message: d.priceRequired });
  });
export type CreateTransactionRequest = z.input<typeof createTransactionRequestSchema>;

export const transactionParamsSchema = z.object({ id: z.string().uuid() });

export const transactionListQuerySchema = z.object({
  role: z.enum(['seller', 'buyer'], { error: 'Rôle : seller ou buyer' }).optional(),
  status: z.enum(transactionStatuses, { error: 'État : proposed, confirmed, declined ou cancelled' }).optional(),
  page: dbInt().min(1).max(10_000).default(1),
});
export type TransactionListQuery = z.input<typeof transactionListQuerySchema>;

export const transactionCandidatesQuerySchema = z.object({
  book_id: int4(z.coerce.number({ error: d.bookInvalid }).int(d.bookInvalid).positive(d.bookInvalid), d.bookInvalid),
});

const ratingValue = z.coerce
  .number({ error: d.ratingInvalid })
  .int(d.ratingInvalid)
  .min(1, d.ratingInvalid)
  .max(5, d.ratingInvalid);

/** POST /ratings: the member rates the other party of a confirmed deal. */
export const createRatingRequestSchema = z.object({
  transaction_id: z.string({ error: d.notFound }).uuid(d.notFound),
  rating: ratingValue,
  comment: commentContentSchema,
  /** Optional: who is rated; must be the other party (never oneself). */
  to_user_id: z.string().uuid(d.buyerInvalid).optional(),
});
export type CreateRatingRequest = z.input<typeof createRatingRequestSchema>;

/** PUT /ratings/{id}: within 7 days of its publication. */
export const updateRatingRequestSchema = z.object({ rating: ratingValue, comment: commentContentSchema });
export type UpdateRatingRequest = z.input<typeof updateRatingRequestSchema>;

/**
 * The « Conclure » dialog's form: the text of its fields (price typed, exchange book chosen by id),
 * turned into a CreateTransactionRequest once valid.
 */
export const concludeFormSchema = z
  .object({
    buyer_id: z.string({ error: d.buyerRequired }).uuid(d.buyerRequired),
    kind: z.enum(transactionKinds, { error: d.kindInvalid }),
    price: z.string(),
    exchange_book_id: z.string(),
  })
  .superRefine((v, ctx) => {
    if (v.kind !== 'sale') return;
    const price = v.price.trim();
    if (!price) ctx.addIssue({ code: 'custom', path: ['price'], message: d.priceRequired });
    else if (!/^\d{1,9}$/.test(price)) ctx.addIssue({ code: 'custom', path: ['price'], message: d.priceInvalid });
  });
export type ConcludeForm = z.input<typeof concludeFormSchema>;

/** The rating form (both the creation and the edit). */
export const ratingFormSchema = updateRatingRequestSchema;
export type RatingForm = z.input<typeof ratingFormSchema>;

export const ratingParamsSchema = z.object({ id: z.string().uuid() });
export const myRatingsQuerySchema = z.object({
  direction: z.enum(['received', 'given'], { error: 'Choisissez les avis reçus ou donnés.' }).default('received'),
  page: dbInt().min(1).max(10_000).default(1),
});
export const userRatingsParamsSchema = z.object({ userId: z.string().uuid() });
export const userRatingsQuerySchema = z.object({ page: dbInt().min(1).max(10_000).default(1) });

// ── answers ─────────────────────────────────────────────────────────────────────────────────

/** A member as catalog's projection of auth knows them. */
export const dealMemberSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  username: z.string(),
  profile_image: z.string().nullable(),
});
export type DealMember = z.infer<typeof dealMemberSchema>;

/** The book as it is now, or as it was when the deal was recorded if it is gone. */
export const dealBookSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  thumbnail: z.string().nullable(),
  price: z.number().int().nullable(),
  status: z.string().nullable(),
  /** False once the listing was deleted. */
  exists: z.boolean(),
});
export type DealBook = z.infer<typeof dealBookSchema>;

export const reviewSchema = z
  .object({
    id: z.string().uuid(),
    transaction_id: z.string().uuid(),
    from_user_id: z.string().uuid(),
    to_user_id: z.string().uuid(),
    rating: z.number().int(),
    comment: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    /** Until when its author may still change it. */
    editable_until: z.string(),
    from_user: dealMemberSchema,
    to_user: dealMemberSchema,
    transaction: z.object({
      id: z.string().uuid(),
      kind: z.enum(transactionKinds),
      book: dealBookSchema,
    }),
  })
  .meta({ id: 'Review' });
export type Review = z.infer<typeof reviewSchema>;

export const transactionSchema = z
  .object({
    id: z.string().uuid(),
    kind: z.enum(transactionKinds),
    kind_label: z.string(),
    status: z.enum(transactionStatuses),
    status_label: z.string(),
    /** Agreed price in whole FCFA (a sale); null otherwise. */
    price: z.number().int().nullable(),
    book: dealBookSchema,
    exchange_book: dealBookSchema.nullable(),
    seller: dealMemberSchema,
    buyer: dealMemberSchema,
    /** The asking member's side of the deal. */
    role: z.enum(['seller', 'buyer']),
    created_at: z.string(),
    updated_at: z.string(),
    confirmed_at: z.string().nullable(),
    declined_at: z.string().nullable(),
    cancelled_at: z.string().nullable(),
    cancelled_by: z.string().uuid().nullable(),
    /** /messages/{bookId}/{otherMemberId}. */
    conversation_url: z.string(),
    rating: z.object({
      /** The asking member may rate now (confirmed and not yet rated by them). */
      can_rate: z.boolean(),
      mine: reviewSchema.nullable(),
      theirs: reviewSchema.nullable(),
    }),
  })
  .meta({ id: 'Transaction' });
export type Transaction = z.infer<typeof transactionSchema>;

export const transactionListSchema = z.object({
  data: z.array(transactionSchema),
  meta: pageMetaSchema.extend({ per_page: z.number().int() }),
});
export type TransactionList = z.infer<typeof transactionListSchema>;
export const transactionResponseSchema = z.object({ transaction: transactionSchema });
export const transactionActionResponseSchema = z.object({ message: z.string(), transaction: transactionSchema });
export type TransactionActionResponse = z.infer<typeof transactionActionResponseSchema>;
export const pendingCountResponseSchema = z.object({ count: z.number().int() });

/** GET /transactions/candidates?book_id: the members who wrote to the owner about the book. */
export const transactionCandidatesResponseSchema = z.object({
  data: z.array(dealMemberSchema.extend({ last_message_at: z.string() })),
});
export type TransactionCandidate = z.infer<typeof transactionCandidatesResponseSchema>['data'][number];

export const ratingSummarySchema = z.object({ average: z.number(), count: z.number().int() });
export type RatingSummary = z.infer<typeof ratingSummarySchema>;
export const ratingListSchema = z.object({
  data: z.array(reviewSchema),
  summary: ratingSummarySchema,
  meta: pageMetaSchema.extend({ per_page: z.number().int() }),
});
export type RatingList = z.infer<typeof ratingListSchema>;
export const ratingResponseSchema = z.object({ message: z.string(), rating: reviewSchema });
export type RatingResponse = z.infer<typeof ratingResponseSchema>;
