import { z } from 'zod';
import { dbInt, int4, multilineText, pageMetaSchema, positiveId, safeText } from './common.ts';
import { mobileMoneyOperators, paymentProviders, paymentStatuses, planKinds, subscriptionStatuses } from './labels.ts';

/**
 * Subscriptions and payments (services/catalog/API.md "Subscriptions"). Cartable takes
 * no fee on deals between members: a subscription only buys visibility.
 *
 * - A **plan** is either a member plan (`member`: a seller subscription that boosts up to
 *   `boost_slots` of the member's listings at once and may show a seller badge) or a listing
 *   boost (`boost`: one listing, « À la une » for `duration_days`).
 * - A **subscription** is bought from a plan. It is `pending_payment` until its payment is
 *   `paid`, then `active` until `ends_at`, then `expired`; an operator may cancel it
 *   (`cancelled`) or refund it (`refunded`). Renewing extends from `ends_at`.
 * - A **payment** goes initiate → `pending` → (`submitted`, a manual payment waiting for an
 *   operator) → `paid`, `failed` or `expired`; a paid payment may be refunded once, in full or
 *   in part (`refunded_amount`).
 * - A **boosted listing** (book subscription) is a listing a subscription puts « À la une »;
 *   it ends with the subscription or when the listing is sold or deleted. When a boosted listing
 *   changes owner through a confirmed deal, the boost waits (`transferable`) for the seller to
 *   move it to another of their listings (a book transfer).
 */

export const subscriptionMessages = {
  planNotFound: 'Plan d’abonnement introuvable.',
  planInactive: 'Ce plan n’est plus proposé.',
  planNameRequired: 'Le nom du plan est requis',
  planNameMax: 'Le nom du plan ne peut pas dépasser 80 caractères',
  planDescriptionMax: 'La description ne peut pas dépasser 1000 caractères',
  planPriceInvalid: 'Le prix doit être un nombre entier de FCFA, 0 ou plus',
  planDurationInvalid: 'La durée doit être un nombre entier de jours, de 1 à 366',
  planSlotsInvalid: 'Le nombre d’annonces mises en avant doit être compris entre 1 et 50',
  planListingsLimitInvalid: 'La limite d’annonces doit être un nombre entier positif, ou vide pour illimité',
  planKindInvalid: 'Type de plan inconnu (abonnement vendeur ou mise en avant)',
  planInUse: 'Ce plan a des abonnements : désactivez-le plutôt que de le supprimer.',
  planCreated: 'Plan créé avec succès',
  planUpdated: 'Plan modifié avec succès',
  planDeleted: 'Plan supprimé avec succès',
  notFound: 'Abonnement introuvable.',
  bookRequired: 'Choisissez l’annonce à mettre en avant',
  bookNotFound: 'Ce manuel est introuvable.',
  bookNotOwner: 'Seul le propriétaire de l’annonce peut la mettre en avant.',
  bookUnavailable: 'Seule une annonce disponible peut être mise en avant.',
  bookAlreadyBoosted: 'Cette annonce est déjà mise en avant.',
  bookNotForMemberPlan:
    'Un abonnement vendeur ne se rattache pas à une annonce : choisissez vos annonces après le paiement.',
  tooManyBooks: 'Ce plan met en avant au plus {slots} annonce(s) à la fois.',
  notActive: 'Cet abonnement n’est pas actif.',
  notRenewable: 'Cet abonnement ne peut plus être renouvelé.',
  pendingPaymentExists: 'Un paiement est déjà en cours pour cet abonnement.',
  alreadyEnded: 'Cet abonnement est déjà terminé.',
  reasonRequired: 'Indiquez un motif (5 caractères au moins)',
  reasonMax: 'Le motif ne peut pas dépasser 500 caractères',
  extendDaysInvalid: 'Le nombre de jours doit être un entier de 1 à 366',
  created: 'Abonnement créé : il sera actif dès que le paiement sera confirmé.',
  cancelled: 'Abonnement annulé',
  extended: 'Abonnement prolongé',
  booksUpdated: 'Annonces mises en avant mises à jour',
  transferred: 'Mise en avant transférée sur votre annonce',
  notTransferable: 'Cette mise en avant ne peut pas être transférée.',
  transferBookInvalid: 'Choisissez une autre de vos annonces disponibles',
  // Payments
  paymentNotFound: 'Paiement introuvable.',
  providerInvalid: 'Moyen de paiement inconnu',
  operatorInvalid: 'Choisissez Airtel Money ou Moov Money',
  phoneInvalid: 'Numéro de téléphone gabonais invalide (ex. 077 12 34 56)',
  referenceRequired: 'Indiquez la référence de la transaction reçue par SMS',
  referenceInvalid: 'La référence contient 6 à 40 lettres ou chiffres',
  referenceUsed: 'Cette référence de transaction a déjà été utilisée.',
  notManual: 'Ce paiement ne se fait pas par déclaration manuelle.',
  notPending: 'Ce paiement n’est plus en attente.',
  notSubmitted: 'Ce paiement n’attend pas de validation.',
  alreadyPaid: 'Ce paiement a déjà été validé.',
  submitted: 'Paiement déclaré : un administrateur va le vérifier.',
  validated: 'Paiement validé : l’abonnement est actif.',
  rejected: 'Paiement refusé',
  initiated: 'Paiement demandé : confirmez-le sur votre téléphone.',
  // Refunds
  notPaid: 'Seul un paiement encaissé peut être remboursé.',
  alreadyRefunded: 'Ce paiement a déjà été remboursé.',
  refundTooMuch: 'Le remboursement ne peut pas dépasser le montant payé ({amount} FCFA).',
  refundAmountInvalid: 'Le montant doit être un nombre entier de FCFA, de 1 au montant payé',
  refunded: 'Remboursement enregistré',
  // Webhooks
  webhookSignature: 'Signature invalide.',
  webhookStale: 'Notification expirée.',
  webhookUnknown: 'Paiement inconnu.',
  webhookMismatch: 'Montant ou référence incohérents.',
  // Payment requests pushed to a phone
  tooManyPaymentRequests: 'Trop de demandes de paiement en une heure. Réessayez plus tard.',
  tooManyRequestsToNumber: 'Trop de demandes de paiement vers ce numéro en une heure. Réessayez plus tard.',
  outcomeUnknown:
    'L’opérateur n’a pas encore répondu. Si une demande s’affiche sur votre téléphone, confirmez-la : nous vérifions le paiement et votre abonnement s’active dès qu’il est confirmé.',
  slotsFull: 'Tous les emplacements de votre formule sont déjà utilisés.',
  lateRefund: 'Paiement reçu après la fin de l’abonnement : remboursé automatiquement.',
  noStatusQuery: 'Ce moyen de paiement ne se vérifie pas auprès d’un agrégateur.',
  reconciled: 'Paiement vérifié auprès de l’agrégateur.',
} as const;
const s = subscriptionMessages;

// ── enumerations (those the screens show, with their labels: ./labels.ts) ──

/** Why a boosted listing stopped being boosted. */
export const boostEndReasons = ['subscription_ended', 'sold', 'deleted', 'replaced', 'transferred'] as const;
export type BoostEndReason = (typeof boostEndReasons)[number];

// ── constants ────────────────────────────────────────────────────────────────────────────────

/** The reminder e-mail goes this many days before the end. */
export const SUBSCRIPTION_REMINDER_DAYS = 3;
/** A payment not confirmed within this time expires (the subscription stays pending). */
export const PAYMENT_PENDING_HOURS = 48;
/**
 * Payment requests pushed to a phone (each is a USSD prompt on that phone): at most this many per
 * member, and per paying number, in an hour.
 */
export const PAYMENT_REQUESTS_PER_MEMBER_HOUR = 5;
export const PAYMENT_REQUESTS_PER_NUMBER_HOUR = 3;
/** Sponsored listings at the top of a page of results: never more than this. */
export const SPONSORED_PER_PAGE_MAX = 2;
/** « À la une » on the home page. */
export const FEATURED_BOOKS_MAX = 8;
/** Webhooks older (or further in the future) than this are refused. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
export const WEBHOOK_SIGNATURE_HEADER = 'x-cartable-signature';
export const SUBSCRIPTIONS_PER_PAGE = 20;
export const PLAN_PRICE_MAX = 10_000_000;
export const PLAN_DURATION_MAX_DAYS = 366;
export const REFUND_REASON_MIN = 5;
export const REFUND_REASON_MAX = 500;

/** Gabonese mobile numbers: 0 and 8 digits (077 12 34 56), optionally after +241. */
export const gabonMobileSchema = z
  .string({ error: s.phoneInvalid })
  .trim()
  .transform((v) => v.replace(/[\s.-]/g, ''))
  .refine((v) => /^(\+241|00241)?0?[1-9]\d{7}$/.test(v), s.phoneInvalid);

// ── plans ────────────────────────────────────────────────────────────────────────────────────

export const planSchema = z
  .object({
    id: z.number().int(),
    kind: z.enum(planKinds),
    name: z.string(),
    description: z.string(),
    /** Whole FCFA. */
    price: z.number().int(),
    duration_days: z.number().int(),
    /** How many listings are « À la une » at once (1 for a boost). */
    boost_slots: z.number().int(),
    seller_badge: z.boolean(),
    /** Most listings the member may have online, null for no limit. */
    listings_limit: z.number().int().nullable(),
    active: z.boolean(),
    position: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'SubscriptionPlan' });
export type Plan = z.infer<typeof planSchema>;
/** GET /subscription-plans: the plans, and the payment providers this installation accepts. */
export const planListResponseSchema = z.object({
  data: z.array(planSchema),
  providers: z.array(z.object({ name: z.string(), label: z.string() })),
});
export type PlanListResponse = z.infer<typeof planListResponseSchema>;
export const planResponseSchema = z.object({ plan: planSchema });
export const planWriteResponseSchema = z.object({ message: z.string(), plan: planSchema });

const reason = multilineText({ error: s.reasonRequired })
  .trim()
  .min(REFUND_REASON_MIN, s.reasonRequired)
  .max(REFUND_REASON_MAX, s.reasonMax);

/** POST /admin/subscription-plans and PUT /admin/subscription-plans/{id} (administrators). */
export const planRequestSchema = z.object({
  kind: z.enum(planKinds, { error: s.planKindInvalid }),
  name: safeText({ error: s.planNameRequired }).trim().min(1, s.planNameRequired).max(80, s.planNameMax),
  description: multilineText().trim().max(1000, s.planDescriptionMax).default(''),
  price: int4(
    z.coerce.number({ error: s.planPriceInvalid }).int(s.planPriceInvalid).min(0, s.planPriceInvalid),
    s.planPriceInvalid,
  ).max(PLAN_PRICE_MAX, s.planPriceInvalid),
  duration_days: z.coerce
    .number({ error: s.planDurationInvalid })
    .int(s.planDurationInvalid)
    .min(1, s.planDurationInvalid)
    .max(PLAN_DURATION_MAX_DAYS, s.planDurationInvalid),
  boost_slots: z.coerce
    .number({ error: s.planSlotsInvalid })
    .int(s.planSlotsInvalid)
    .min(1, s.planSlotsInvalid)
    .max(50, s.planSlotsInvalid)
    .default(1),
  seller_badge: z.boolean().default(false),
  listings_limit: int4(
    z.coerce
      .number({ error: s.planListingsLimitInvalid })
      .int(s.planListingsLimitInvalid)
      .positive(s.planListingsLimitInvalid),
    s.planListingsLimitInvalid,
  )
    .nullable()
    .default(null),
  active: z.boolean().default(true),
  position: dbInt().min(0).default(0),
});
export type PlanRequest = z.input<typeof planRequestSchema>;

// ── payments ─────────────────────────────────────────────────────────────────────────────────

/** One thing the provider (or an operator) said about a payment, kept as received. */
export const paymentEventSchema = z.object({
  id: z.string().uuid(),
  /** initiated, webhook, submitted, validated, rejected, expired, refunded, duplicate_ignored … */
  type: z.string(),
  status: z.enum(paymentStatuses).nullable(),
  detail: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type PaymentEvent = z.infer<typeof paymentEventSchema>;

export const refundSchema = z.object({
  id: z.string().uuid(),
  payment_id: z.string().uuid(),
  amount: z.number().int(),
  reason: z.string(),
  created_by: z.string().uuid().nullable(),
  created_at: z.string(),
});
export type Refund = z.infer<typeof refundSchema>;

export const paymentSchema = z
  .object({
    id: z.string().uuid(),
    subscription_id: z.string().uuid(),
    user_id: z.string().uuid(),
    /** What the payment is for: the first one, or a renewal. */
    purpose: z.enum(['subscription', 'renewal']),
    provider: z.string(),
    operator: z.enum(mobileMoneyOperators),
    payer_phone: z.string().nullable(),
    /** Whole FCFA. */
    amount: z.number().int(),
    currency: z.string(),
    status: z.enum(paymentStatuses),
    status_label: z.string(),
    /** Our reference, shown to the member and sent to the provider (CRT-…). */
    reference: z.string(),
    /** The operator's transaction id (from the SMS, or the aggregator). */
    provider_reference: z.string().nullable(),
    refunded_amount: z.number().int(),
    failure_reason: z.string().nullable(),
    expires_at: z.string().nullable(),
    paid_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Payment' });
export type Payment = z.infer<typeof paymentSchema>;

/** What the member must do to pay: the merchant number for a manual payment, or the push sent. */
export const paymentInstructionsSchema = z.object({
  provider: z.string(),
  operator: z.enum(mobileMoneyOperators),
  amount: z.number().int(),
  reference: z.string(),
  /** Manual: the number to send the money to. */
  merchant_number: z.string().nullable(),
  merchant_name: z.string().nullable(),
  /** French, step by step. */
  steps: z.array(z.string()),
});
export type PaymentInstructions = z.infer<typeof paymentInstructionsSchema>;

/**
 * GET /payments/{id} (its member): where a payment stands, read again after a reload or a lost
 * connection, with what the member was asked to do, the plan it pays and how long the provider waits.
 */
export const paymentFollowResponseSchema = z.object({
  payment: paymentSchema,
  plan_name: z.string(),
  instructions: paymentInstructionsSchema.nullable(),
});
export type PaymentFollowResponse = z.infer<typeof paymentFollowResponseSchema>;

/** POST /payments/{id}/declaration: the member says they paid a manual payment. */
export const manualDeclarationRequestSchema = z.object({
  operator: z.enum(mobileMoneyOperators, { error: s.operatorInvalid }),
  transaction_reference: safeText({ error: s.referenceRequired })
    .trim()
    .min(1, s.referenceRequired)
    .transform((v) => v.replace(/\s/g, '').toUpperCase())
    .refine((v) => /^[A-Z0-9.-]{6,40}$/.test(v), s.referenceInvalid),
  payer_phone: gabonMobileSchema,
});
export type ManualDeclarationRequest = z.input<typeof manualDeclarationRequestSchema>;

/** How a member chooses to pay (POST /subscriptions and POST /subscriptions/{id}/renew). */
export const paymentChoiceSchema = z.object({
  provider: z.enum(paymentProviders, { error: s.providerInvalid }).default('manual'),
  operator: z.enum(mobileMoneyOperators, { error: s.operatorInvalid }),
  /** The aggregator pushes the request to this phone; optional for a manual payment. */
  payer_phone: gabonMobileSchema.optional(),
});
export type PaymentChoice = z.input<typeof paymentChoiceSchema>;

/** POST /admin/payments/{id}/reject. */
export const paymentRejectRequestSchema = z.object({ reason });
/** POST /admin/payments/{id}/refunds: full when amount is absent. */
export const refundRequestSchema = z.object({
  amount: int4(
    z.coerce.number({ error: s.refundAmountInvalid }).int(s.refundAmountInvalid).positive(s.refundAmountInvalid),
  ).optional(),
  reason,
});
export type RefundRequest = z.input<typeof refundRequestSchema>;

// ── subscriptions ────────────────────────────────────────────────────────────────────────────

/** A listing a subscription puts « À la une » (a book subscription). */
export const boostedBookSchema = z
  .object({
    id: z.string().uuid(),
    subscription_id: z.string().uuid(),
    book_id: z.number().int(),
    book_title: z.string(),
    book_status: z.string().nullable(),
    user_id: z.string().uuid(),
    starts_at: z.string(),
    ends_at: z.string(),
    /** null while it lasts. */
    ended_at: z.string().nullable(),
    end_reason: z.enum(boostEndReasons).nullable(),
    /** The listing changed owner by a deal: the seller may move the boost to another listing. */
    transferable: z.boolean(),
  })
  .meta({ id: 'BoostedBook' });
export type BoostedBook = z.infer<typeof boostedBookSchema>;

export const subscriptionSchema = z
  .object({
    id: z.string().uuid(),
    user_id: z.string().uuid(),
    /** The member's name as catalog knows it (back office lists). */
    user_name: z.string().nullable(),
    plan_id: z.number().int(),
    /** The plan as it was bought (name, price, duration and what it gives). */
    plan: planSchema.pick({
      kind: true,
      name: true,
      price: true,
      duration_days: true,
      boost_slots: true,
      seller_badge: true,
      listings_limit: true,
    }),
    status: z.enum(subscriptionStatuses),
    status_label: z.string(),
    starts_at: z.string().nullable(),
    ends_at: z.string().nullable(),
    /** Whole days left while active, else 0. */
    days_left: z.number().int(),
    cancelled_at: z.string().nullable(),
    cancel_reason: z.string().nullable(),
    /** Listings boosted now. */
    books: z.array(boostedBookSchema),
    /** A boost: the listing it was bought for, named from the purchase on (before payment too). */
    book: z.object({ id: z.number().int(), title: z.string() }).nullable().default(null),
    /** The latest payment asked for it: a refused one is said on the member's list, with its reason. */
    last_payment: z
      .object({ status: z.enum(paymentStatuses), failure_reason: z.string().nullable(), created_at: z.string() })
      .nullable()
      .default(null),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Subscription' });
export type Subscription = z.infer<typeof subscriptionSchema>;

export const subscriptionAuditEntrySchema = z.object({
  id: z.string().uuid(),
  action: z.string(),
  actor_id: z.string().uuid().nullable(),
  detail: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type SubscriptionAuditEntry = z.infer<typeof subscriptionAuditEntrySchema>;

/** GET /subscriptions/{id} and GET /admin/subscriptions/{id}. */
export const subscriptionDetailSchema = subscriptionSchema.extend({
  payments: z.array(paymentSchema.extend({ refunds: z.array(refundSchema) })),
  /** Every listing it boosted, past ones included. */
  book_history: z.array(boostedBookSchema),
  audit: z.array(subscriptionAuditEntrySchema),
});
export type SubscriptionDetail = z.infer<typeof subscriptionDetailSchema>;
export const subscriptionDetailResponseSchema = z.object({ subscription: subscriptionDetailSchema });

/** POST /subscriptions: buy a plan (a boost names its listing). Takes an Idempotency-Key. */
export const createSubscriptionRequestSchema = paymentChoiceSchema.extend({
  plan_id: positiveId(s.planNotFound),
  book_id: positiveId(s.bookRequired).optional(),
});
export type CreateSubscriptionRequest = z.input<typeof createSubscriptionRequestSchema>;

/** POST /subscriptions, POST /subscriptions/{id}/renew: the subscription, its new payment, how to pay. */
export const subscriptionCheckoutResponseSchema = z.object({
  message: z.string(),
  subscription: subscriptionSchema,
  payment: paymentSchema,
  instructions: paymentInstructionsSchema,
});
export type SubscriptionCheckoutResponse = z.infer<typeof subscriptionCheckoutResponseSchema>;

/** PUT /subscriptions/{id}/books: the listings a member plan boosts (at most boost_slots). */
export const subscriptionBooksRequestSchema = z.object({
  book_ids: z.array(positiveId(s.bookNotFound)).max(50),
});
/** POST /boosted-books/{id}/transfer: move a transferable boost to another listing. */
export const boostTransferRequestSchema = z.object({ book_id: positiveId(s.transferBookInvalid) });

export const subscriptionListQuerySchema = z.object({
  status: z.enum(subscriptionStatuses, { error: 'État inconnu' }).optional(),
  page: dbInt().min(1).max(10_000).default(1),
});
export const subscriptionPageSchema = z.object({ data: z.array(subscriptionSchema), meta: pageMetaSchema });
export type SubscriptionPage = z.infer<typeof subscriptionPageSchema>;

// ── back office ──────────────────────────────────────────────────────────────────────────────

/** GET /admin/subscriptions (user_subscriptions.manage). */
export const adminSubscriptionListQuerySchema = subscriptionListQuerySchema.extend({
  kind: z.enum(planKinds, { error: s.planKindInvalid }).optional(),
  plan_id: positiveId(s.planNotFound).optional(),
  user_id: z.string().uuid('Membre invalide').optional(),
  /** A member's name, partial. */
  q: safeText().trim().max(100).optional(),
});
export type AdminSubscriptionListQuery = z.input<typeof adminSubscriptionListQuerySchema>;

export const subscriptionCancelRequestSchema = z.object({ reason });
export const subscriptionExtendRequestSchema = z.object({
  days: z.coerce
    .number({ error: s.extendDaysInvalid })
    .int(s.extendDaysInvalid)
    .min(1, s.extendDaysInvalid)
    .max(366, s.extendDaysInvalid),
  reason,
});

/** GET /admin/boosted-books (user_subscriptions.manage): the listings « À la une ». */
export const boostedBookListQuerySchema = z.object({
  current: z.enum(['true', 'false']).default('true'),
  page: dbInt().min(1).max(10_000).default(1),
});
export const boostedBookPageSchema = z.object({ data: z.array(boostedBookSchema), meta: pageMetaSchema });

const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'La date doit être au format AAAA-MM-JJ.' });

/** GET /admin/payments (payments.manage). */
export const adminPaymentListQuerySchema = z.object({
  status: z.enum(paymentStatuses, { error: 'État inconnu' }).optional(),
  provider: z.enum(paymentProviders, { error: s.providerInvalid }).optional(),
  operator: z.enum(mobileMoneyOperators, { error: s.operatorInvalid }).optional(),
  /** Only payments with a refund. */
  refunded: z.enum(['true', 'false']).optional(),
  from: isoDay.optional(),
  to: isoDay.optional(),
  /** Our reference or the operator's, or a member's name. */
  q: safeText().trim().max(100).optional(),
  page: dbInt().min(1).max(10_000).default(1),
});
export type AdminPaymentListQuery = z.input<typeof adminPaymentListQuerySchema>;

export const adminPaymentSchema = paymentSchema.extend({
  user_name: z.string().nullable(),
  plan_name: z.string(),
});
export type AdminPayment = z.infer<typeof adminPaymentSchema>;
export const monthlyRevenueSchema = z.object({
  /** AAAA-MM, Libreville time. */
  month: z.string(),
  paid: z.number().int(),
  refunded: z.number().int(),
  count: z.number().int(),
});
export type MonthlyRevenue = z.infer<typeof monthlyRevenueSchema>;
export const adminPaymentPageSchema = z.object({
  data: z.array(adminPaymentSchema),
  meta: pageMetaSchema,
  /** For the filtered payments (period, provider…), per month, newest first. */
  totals: z.array(monthlyRevenueSchema),
});
export type AdminPaymentPage = z.infer<typeof adminPaymentPageSchema>;

export const adminPaymentDetailSchema = adminPaymentSchema.extend({
  events: z.array(paymentEventSchema),
  refunds: z.array(refundSchema),
  subscription: subscriptionSchema,
});
export type AdminPaymentDetail = z.infer<typeof adminPaymentDetailSchema>;
export const adminPaymentDetailResponseSchema = z.object({ payment: adminPaymentDetailSchema });
export const paymentActionResponseSchema = z.object({ message: z.string(), payment: adminPaymentDetailSchema });

/** GET /admin/stats/subscriptions (reports.view): the dashboard's revenue and subscriptions. */
export const subscriptionStatsSchema = z.object({
  active: z.object({ member: z.number().int(), boost: z.number().int() }),
  boosted_books: z.number().int(),
  payments_to_validate: z.number().int(),
  /** Last 12 months, oldest first, months without payments included. */
  revenue: z.array(monthlyRevenueSchema),
});
export type SubscriptionStats = z.infer<typeof subscriptionStatsSchema>;

// ── webhooks ─────────────────────────────────────────────────────────────────────────────────

/**
 * POST /payments/webhooks/{provider}: what an aggregator says about a payment. The raw body is
 * signed: header `x-cartable-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`.
 */
export const paymentWebhookSchema = z.object({
  /** The aggregator's own id for this notification: a retried delivery repeats it. */
  event_id: z.string().min(1).max(100),
  /** Our reference (CRT-…). */
  reference: z.string().min(1).max(100),
  provider_reference: z.string().min(1).max(100),
  status: z.enum(['paid', 'failed']),
  amount: z.number().int(),
  currency: z.string(),
  failure_reason: z.string().max(500).nullable().optional(),
});
export type PaymentWebhook = z.infer<typeof paymentWebhookSchema>;

// ── events ───────────────────────────────────────────────────────────────────────────────────

/** catalog.subscription.* : every change of a subscription (notifications and the catalogue follow). */
export const subscriptionEventSchema = z.object({
  subscription_id: z.string().uuid(),
  user_id: z.string().uuid(),
  plan_name: z.string(),
  kind: z.enum(planKinds),
  status: z.enum(subscriptionStatuses),
  starts_at: z.string().nullable(),
  ends_at: z.string().nullable(),
  book_ids: z.array(z.number().int()),
  book_titles: z.array(z.string()),
  /** Cancel or extend: the operator's reason. */
  reason: z.string().nullable().default(null),
  at: z.string(),
});
export type SubscriptionEvent = z.infer<typeof subscriptionEventSchema>;

/** catalog.payment.* : paid, failed, submitted (to validate), refunded. */
export const paymentChangedEventSchema = z.object({
  payment_id: z.string().uuid(),
  subscription_id: z.string().uuid(),
  user_id: z.string().uuid(),
  plan_name: z.string(),
  provider: z.string(),
  operator: z.enum(mobileMoneyOperators),
  amount: z.number().int(),
  reference: z.string(),
  status: z.enum(paymentStatuses),
  refund_amount: z.number().int().nullable().default(null),
  reason: z.string().nullable().default(null),
  at: z.string(),
});
export type PaymentChangedEvent = z.infer<typeof paymentChangedEventSchema>;

export const subscriptionEventTypes = [
  'catalog.subscription.activated',
  'catalog.subscription.renewed',
  'catalog.subscription.extended',
  'catalog.subscription.expiring',
  'catalog.subscription.expired',
  'catalog.subscription.cancelled',
  'catalog.subscription.refunded',
  'catalog.subscription.books_changed',
] as const;
export const paymentEventTypes = [
  'catalog.payment.submitted',
  'catalog.payment.paid',
  'catalog.payment.failed',
  'catalog.payment.expired',
  'catalog.payment.refunded',
] as const;
