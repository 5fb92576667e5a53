import { z } from 'zod';
import { bookModerationActions } from './catalog.ts';
import {
  classListChangedEventSchema,
  classListListingWithdrawnEventSchema,
  classListSavedChangedEventSchema,
} from './class-list-versions.ts';
import { classListMatchFoundEventSchema, classListReviewedEventSchema } from './class-lists.ts';
import { exchangeSuggestionEventSchema } from './exchanges.ts';
import { reportDecisions, reportReasons, reportTargetTypes, transactionKinds, transactionStatuses } from './labels.ts';
import { commentStatuses, moderationDecisions } from './moderation.ts';
import { savedSearchMatchedEventSchema, savedSearchStoppedEventSchema } from './saved-searches.ts';
import { paymentChangedEventSchema, subscriptionEventSchema } from './subscriptions.ts';

/**
 * Domain events (ARCHITECTURE.md "Events"): subject `<service>.<entity>.<verb>`, one JetStream
 * stream per producer, envelope `{ id, type, occurred_at, data }`, every payload a zod schema here.
 */
export const producers = ['auth', 'catalog', 'messaging', 'moderation'] as const;
export type Producer = (typeof producers)[number];

/** Stream of a producer; `namespace` isolates test runs sharing one NATS server. */
export const streamName = (producer: Producer | 'dlq', namespace = '') =>
  `${namespace ? `${namespace.toUpperCase()}_` : ''}${producer.toUpperCase()}`;
export const subjectFor = (type: string, namespace = '') => (namespace ? `${namespace}.${type}` : type);
export const streamSubjects = (producer: Producer | 'dlq', namespace = '') => [subjectFor(`${producer}.>`, namespace)];

export const userRegisteredSchema = z.object({
  user_id: z.string().uuid(),
  name: z.string(),
  username: z.string(),
  email: z.string(),
  country_id: z.number().int().nullable(),
  city_id: z.number().int().nullable(),
  profile_image: z.string().nullable(),
  created_at: z.string(),
  /** The member's version (users.version): projections keep the highest they have seen. */
  version: z.number().int().positive(),
  /**
   * Raw verification token: only the notifications service sees it, to build the e-mail link.
   * Null for an account created already verified (the demo members a seed creates): the same
   * event as a person's sign-up, so every projection hears of it, with no link to send.
   */
  verification: z.object({ token: z.string(), expires_at: z.string() }).nullable(),
});

/** A member's public face for other services' projections; contact details only when shown. */
export const userUpdatedSchema = z.object({
  user_id: z.string().uuid(),
  name: z.string(),
  username: z.string(),
  profile_image: z.string().nullable(),
  country_id: z.number().int().nullable(),
  city_id: z.number().int().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  updated_at: z.string(),
  version: z.number().int().positive(),
});

const recipient = { user_id: z.string().uuid(), name: z.string(), email: z.string() };

export const emailVerificationRequestedSchema = z.object({
  ...recipient,
  token: z.string(),
  expires_at: z.string(),
});
export const passwordResetRequestedSchema = z.object({ ...recipient, token: z.string(), expires_at: z.string() });
export const twoFactorCodeRequestedSchema = z.object({
  ...recipient,
  code: z.string().regex(/^\d{6}$/),
  purpose: z.enum(['login', 'enable', 'disable']),
  expires_at: z.string(),
});
export const passwordChangedSchema = z.object({
  ...recipient,
  changed_at: z.string(),
  reason: z.enum(['change', 'reset']),
});
/** Its version is one more than the last update's: a late update never brings the member back. */
export const userDeletedSchema = z.object({
  ...recipient,
  deleted_at: z.string(),
  version: z.number().int().positive(),
});
export const userVerifiedSchema = z.object({ user_id: z.string().uuid(), verified_at: z.string() });
export const userRoleChangedSchema = z.object({
  user_id: z.string().uuid(),
  is_admin: z.boolean(),
  roles: z.array(z.string()),
  permissions: z.array(z.string()),
  changed_by: z.string().uuid().nullable(),
});
/**
 * An administrator deactivated the member (they cannot sign in; their listings leave the public
 * catalogue) or reactivated them. The version is the member's (users.version) after the change.
 */
export const userDeactivatedSchema = z.object({
  user_id: z.string().uuid(),
  deactivated_at: z.string(),
  version: z.number().int().positive(),
});
export const userReactivatedSchema = z.object({
  user_id: z.string().uuid(),
  reactivated_at: z.string(),
  version: z.number().int().positive(),
});

/**
 * A book as other services see it, whole in every book event, with the book's version (one
 * more at each change, in catalog's transaction): a projection keeps the highest version it has
 * seen, so events arriving late, twice or out of order never take it backwards.
 */
export const bookChangedSchema = z.object({
  book_id: z.number().int(),
  user_id: z.string().uuid(),
  title: z.string(),
  price: z.number().int(),
  status: z.string(),
  city_id: z.number().int().nullable(),
  category_ids: z.array(z.number().int()),
  /** URL of the first photo's thumbnail, for other services' lists (conversations). */
  thumbnail: z.string().nullable().default(null),
  version: z.number().int().positive(),
  occurred_at: z.string(),
});
export const bookStatusChangedSchema = bookChangedSchema.extend({ previous_status: z.string() });
/** An edit by its owner: the price before it, so a drop can be told to those who follow the book. */
export const bookUpdatedSchema = bookChangedSchema.extend({ previous_price: z.number().int().optional() });
/** The book's last state; its version is one more than the last change's. */
export const bookDeletedSchema = bookChangedSchema;

/** A member added a listing to their favourites or took it out (`at`: catalog's time of the change). */
export const favouriteChangedSchema = z.object({
  user_id: z.string().uuid(),
  book_id: z.number().int(),
  at: z.string(),
});

/**
 * The categories changed (created, renamed, ordered, moved, linked, deleted): what reads the
 * hierarchy (the catalogue's filters, the saved searches' resolved categories) reads it again.
 */
export const categoriesChangedSchema = z.object({
  category_ids: z.array(z.number().int()),
  change: z.enum(['created', 'updated', 'ordered', 'moved', 'parent_added', 'parent_removed', 'deleted']),
  at: z.string(),
});

/** Towns changed (added, renamed, moved to another province, imported, deleted). */
export const citiesChangedSchema = z.object({
  city_ids: z.array(z.number().int()),
  change: z.enum(['created', 'updated', 'imported', 'deleted']),
  at: z.string(),
});

/** A moderator hid, showed again, deleted or changed the status of a listing: its owner is told why. */
export const bookModeratedSchema = z.object({
  book_id: z.number().int(),
  owner_id: z.string().uuid(),
  title: z.string(),
  action: z.enum(bookModerationActions),
  /** The status after a status change. */
  status: z.string().optional(),
  reason: z.string().nullable(),
  moderator_id: z.string().uuid(),
  at: z.string(),
});

/**
 * A deal on a listing (catalog's transactions): proposed by the owner, confirmed or declined by
 * the other member, cancelled by either before confirmation (`cancelled_by` null: cancelled by
 * catalog because the book was sold in another deal).
 */
export const transactionEventSchema = z.object({
  transaction_id: z.string().uuid(),
  book_id: z.number().int(),
  book_title: z.string(),
  kind: z.enum(transactionKinds),
  price: z.number().int().nullable(),
  exchange_book_id: z.number().int().nullable(),
  exchange_book_title: z.string().nullable(),
  seller_id: z.string().uuid(),
  buyer_id: z.string().uuid(),
  status: z.enum(transactionStatuses),
  cancelled_by: z.string().uuid().nullable().default(null),
  at: z.string(),
});
/** A member's rating aggregate after a review was written or edited; `version` grows at each change. */
export const sellerRatedSchema = z.object({
  user_id: z.string().uuid(),
  average: z.number(),
  count: z.number().int(),
  version: z.number().int().positive(),
  /** The review that changed it, when it was just written (not on an edit): notifications tells the member. */
  review: z
    .object({
      transaction_id: z.string().uuid(),
      from_user_id: z.string().uuid(),
      rating: z.number().int().min(1).max(5),
      book_title: z.string(),
    })
    .optional(),
});

export const messageSentSchema = z.object({
  message_id: z.string().uuid(),
  conversation_id: z.string().uuid(),
  book_id: z.number().int(),
  book_title: z.string(),
  sender_id: z.string().uuid(),
  sender_name: z.string(),
  receiver_id: z.string().uuid(),
  content: z.string(),
  send_email_copy: z.boolean(),
  created_at: z.string(),
});
export const messagesReadSchema = z.object({
  conversation_id: z.string().uuid(),
  reader_id: z.string().uuid(),
  count: z.number().int(),
});

export const commentCreatedSchema = z.object({
  comment_id: z.string().uuid(),
  book_id: z.number().int(),
  book_title: z.string(),
  book_owner_id: z.string().uuid(),
  author_id: z.string().uuid(),
  author_name: z.string(),
  content: z.string(),
  status: z.enum(commentStatuses),
});
export const commentModeratedSchema = z.object({
  comment_id: z.string().uuid(),
  book_id: z.number().int(),
  author_id: z.string().uuid(),
  status: z.enum(moderationDecisions),
  moderated_by: z.string().uuid(),
});
export const contactAnsweredSchema = z.object({
  contact_id: z.string().uuid(),
  name: z.string(),
  email: z.string(),
  subject: z.string(),
  message: z.string(),
  response: z.string(),
});

/** Every event type and its payload schema. */
/** A message its receiver reported (messaging checked they received it; the text is kept as it was). */
export const messageReportedSchema = z.object({
  message_id: z.string().uuid(),
  reporter_id: z.string().uuid(),
  sender_id: z.string().uuid(),
  sender_name: z.string(),
  content: z.string(),
  reason: z.enum(reportReasons),
  details: z.string().nullable(),
  reported_at: z.string(),
});
/**
 * A member blocked (or unblocked) another, in messaging (where blocks live): catalog, moderation and
 * auth project it, and the block then stands both ways (contact details, comments, deals,
 * exchange suggestions, saved-search alerts).
 */
export const memberBlockSchema = z.object({
  blocker_id: z.string().uuid(),
  blocked_id: z.string().uuid(),
  at: z.string(),
});
/** An administrator warned a member after a report: notifications e-mails them. */
export const memberWarnedSchema = z.object({
  user_id: z.string().uuid(),
  reason: z.string(),
  target_label: z.string(),
  note: z.string().nullable(),
});
/**
 * An administrator's decision on reports that another service must apply: catalog hides the
 * listing (`hidden` on a book), auth deactivates the member (`deactivated`, whatever the target).
 * The reports stay « Action en cours » until that service's `*.report.applied` comes back.
 */
export const reportDecidedSchema = z.object({
  report_ids: z.array(z.string().uuid()).min(1),
  decision: z.enum(reportDecisions),
  target_type: z.enum(reportTargetTypes),
  target_id: z.string(),
  target_owner_id: z.string().uuid().nullable(),
  moderator_id: z.string().uuid(),
  /** The reason the member is told. */
  note: z.string().nullable(),
});
/**
 * The owning service applied a decision (`applied`), found it already done (`already`) or its
 * target gone (`gone`): moderation closes the reports either way.
 */
export const reportAppliedSchema = z.object({
  report_ids: z.array(z.string().uuid()).min(1),
  outcome: z.enum(['applied', 'already', 'gone']),
});

export const eventSchemas = {
  'auth.user.registered': userRegisteredSchema,
  'auth.user.updated': userUpdatedSchema,
  'auth.user.verified': userVerifiedSchema,
  'auth.user.deleted': userDeletedSchema,
  'auth.user.role_changed': userRoleChangedSchema,
  'auth.user.deactivated': userDeactivatedSchema,
  'auth.user.reactivated': userReactivatedSchema,
  'auth.email_verification.requested': emailVerificationRequestedSchema,
  'auth.password_reset.requested': passwordResetRequestedSchema,
  'auth.two_factor.code_requested': twoFactorCodeRequestedSchema,
  'auth.password.changed': passwordChangedSchema,
  'auth.report.applied': reportAppliedSchema,
  'catalog.categories.changed': categoriesChangedSchema,
  'catalog.cities.changed': citiesChangedSchema,
  'catalog.book.created': bookChangedSchema,
  'catalog.book.updated': bookUpdatedSchema,
  'catalog.book.status_changed': bookStatusChangedSchema,
  'catalog.book.deleted': bookDeletedSchema,
  'catalog.book.moderated': bookModeratedSchema,
  'catalog.transaction.proposed': transactionEventSchema,
  'catalog.transaction.confirmed': transactionEventSchema,
  'catalog.transaction.declined': transactionEventSchema,
  'catalog.transaction.cancelled': transactionEventSchema,
  'catalog.seller.rated': sellerRatedSchema,
  'catalog.favourite.added': favouriteChangedSchema,
  'catalog.favourite.removed': favouriteChangedSchema,
  'catalog.subscription.activated': subscriptionEventSchema,
  'catalog.subscription.renewed': subscriptionEventSchema,
  'catalog.subscription.extended': subscriptionEventSchema,
  'catalog.subscription.expiring': subscriptionEventSchema,
  'catalog.subscription.expired': subscriptionEventSchema,
  'catalog.subscription.cancelled': subscriptionEventSchema,
  'catalog.subscription.refunded': subscriptionEventSchema,
  'catalog.subscription.books_changed': subscriptionEventSchema,
  'catalog.payment.submitted': paymentChangedEventSchema,
  'catalog.payment.paid': paymentChangedEventSchema,
  'catalog.payment.failed': paymentChangedEventSchema,
  'catalog.payment.expired': paymentChangedEventSchema,
  'catalog.payment.refunded': paymentChangedEventSchema,
  'catalog.class_list.match_found': classListMatchFoundEventSchema,
  'catalog.exchange.suggested': exchangeSuggestionEventSchema,
  'catalog.exchange.accepted': exchangeSuggestionEventSchema,
  'catalog.class_list.published': classListReviewedEventSchema,
  'catalog.class_list.rejected': classListReviewedEventSchema,
  'catalog.class_list.changed': classListChangedEventSchema,
  'catalog.class_list.saved_changed': classListSavedChangedEventSchema,
  'catalog.class_list.listing_withdrawn': classListListingWithdrawnEventSchema,
  'catalog.saved_search.matched': savedSearchMatchedEventSchema,
  'catalog.saved_search.stopped': savedSearchStoppedEventSchema,
  'catalog.report.applied': reportAppliedSchema,
  'messaging.message.sent': messageSentSchema,
  'messaging.message.read': messagesReadSchema,
  'messaging.message.reported': messageReportedSchema,
  'messaging.member.blocked': memberBlockSchema,
  'messaging.member.unblocked': memberBlockSchema,
  'moderation.comment.created': commentCreatedSchema,
  'moderation.comment.moderated': commentModeratedSchema,
  'moderation.contact.answered': contactAnsweredSchema,
  'moderation.member.warned': memberWarnedSchema,
  'moderation.report.decided': reportDecidedSchema,
} as const;

export type EventType = keyof typeof eventSchemas;
export type EventData<T extends EventType> = z.infer<(typeof eventSchemas)[T]>;

export const envelopeSchema = z.object({
  id: z.string().uuid(),
  type: z.string(),
  occurred_at: z.string(),
  data: z.unknown(),
});
export type Envelope<T extends EventType = EventType> = {
  id: string;
  type: T;
  occurred_at: string;
  data: EventData<T>;
};

export const producerOf = (type: EventType): Producer => type.split('.')[0] as Producer;
