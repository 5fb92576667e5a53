import { z } from 'zod';
import { bookListPageSchema } from './catalog.ts';
import { dbInt, pageMetaSchema, positiveId } from './common.ts';
import { alertMailKinds, type ReplyTimeBucket, replyTimeBuckets } from './labels.ts';

/**
 * Trust between members: favourites tied to the account, a member's
 * public profile (listings, deals completed, typical reply time) and the in-app notice centre.
 */

export const trustMessages = {
  bookNotFound: 'Ce manuel est introuvable.',
  favouriteAdded: 'Ajouté à vos favoris',
  favouriteRemoved: 'Retiré de vos favoris',
  favouritesMerged: 'Vos favoris ont été synchronisés',
  tooManyIds: 'Au plus 200 manuels à la fois',
  bookIdsInvalid: 'Liste de manuels invalide',
  memberNotFound: 'Ce membre est introuvable.',
  noticeNotFound: 'Notification introuvable.',
  noticeRead: 'Notification marquée comme lue',
  allRead: 'Toutes les notifications sont marquées comme lues',
  preferencesSaved: 'Préférences enregistrées',
  unsubscribeInvalid: 'Ce lien de désabonnement n’est pas valide.',
  unsubscribed: 'C’est fait : vous ne recevrez plus ces alertes par e-mail.',
} as const;
const t = trustMessages;

// ── favourites (catalog) ────────────────────────────────────────────────────────────────────

export const FAVOURITES_PER_PAGE = 12;
export const FAVOURITES_MERGE_MAX = 200;

export const favouriteParamsSchema = z.object({ bookId: positiveId(t.bookNotFound) });
export const favouritesQuerySchema = z.object({
  page: dbInt().min(1).max(10_000).default(1),
  per_page: dbInt().min(1).max(50).default(FAVOURITES_PER_PAGE),
});
export type FavouritesQuery = z.input<typeof favouritesQuerySchema>;
/** POST /favourites/merge: the browser's offline copy, sent at login. Unknown or hidden ids are skipped. */
export const favouritesMergeRequestSchema = z.object({
  book_ids: z.array(positiveId(t.bookIdsInvalid), { error: t.bookIdsInvalid }).max(FAVOURITES_MERGE_MAX, t.tooManyIds),
});
export type FavouritesMergeRequest = z.input<typeof favouritesMergeRequestSchema>;

/** GET /favourites: the books, newest favourite first; removed and hidden ones left out. */
export const favouritesPageSchema = bookListPageSchema.extend({
  /** Every favourite id of the member (for the hearts), whatever the page. */
  ids: z.array(z.number().int()),
});
export type FavouritesPage = z.infer<typeof favouritesPageSchema>;
export const favouriteWriteResponseSchema = z.object({
  message: z.string(),
  ids: z.array(z.number().int()),
});
export type FavouriteWriteResponse = z.infer<typeof favouriteWriteResponseSchema>;

// ── a member's public profile (catalog, messaging) ──────────────────────────────────────────

export const memberParamsSchema = z.object({ userId: z.string().uuid(t.memberNotFound) });
export const memberBooksQuerySchema = z.object({
  page: dbInt().min(1).max(10_000).default(1),
  per_page: dbInt().min(1).max(50).default(12),
});
/**
 * GET /users/{userId}/deals: deals completed (confirmed), as seller or buyer, and the seller
 * badge of an active member plan (its name), for the public profile.
 */
export const memberDealsResponseSchema = z.object({
  deals_completed: z.number().int(),
  badge: z.string().nullable().default(null),
});
export type MemberDeals = z.infer<typeof memberDealsResponseSchema>;

/** Fewer first replies than this over 90 days: no reply time is shown. */
export const REPLY_TIME_MIN_SAMPLES = 3;
export const REPLY_TIME_DAYS = 90;
/** Median delay (seconds) → bucket: under an hour, under a day, else a few days. */
export const replyTimeBucket = (medianSeconds: number): ReplyTimeBucket =>
  medianSeconds < 3600 ? 'hour' : medianSeconds < 86_400 ? 'day' : 'days';
/** GET /users/{userId}/reply-time: null bucket and label when there are too few replies. */
export const replyTimeResponseSchema = z.object({
  bucket: z.enum(replyTimeBuckets).nullable(),
  label: z.string().nullable(),
  median_seconds: z.number().int().nullable(),
  samples: z.number().int(),
});
export type ReplyTime = z.infer<typeof replyTimeResponseSchema>;

// ── notices (notifications) ─────────────────────────────────────────────────────────────────

export const NOTICES_PER_PAGE = 20;
export const NOTICE_RETENTION_DAYS = 90;
export const noticeTypes = [
  'favourite.reserved',
  'favourite.sold',
  'favourite.price_drop',
  'transaction.proposed',
  'transaction.confirmed',
  'transaction.declined',
  'transaction.cancelled',
] as const;
export type NoticeType = (typeof noticeTypes)[number];

export const noticeSchema = z
  .object({
    id: z.string().uuid(),
    type: z.string(),
    title: z.string(),
    body: z.string(),
    link: z.string().nullable(),
    read_at: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'Notice' });
export type Notice = z.infer<typeof noticeSchema>;
export const noticeParamsSchema = z.object({ id: z.string().uuid(t.noticeNotFound) });
export const noticesQuerySchema = z.object({
  page: dbInt().min(1).max(10_000).default(1),
  per_page: dbInt().min(1).max(50).default(NOTICES_PER_PAGE),
});
export const noticeListSchema = z.object({
  data: z.array(noticeSchema),
  meta: pageMetaSchema.extend({ per_page: z.number().int() }),
});
export type NoticeList = z.infer<typeof noticeListSchema>;
export const unreadNoticesResponseSchema = z.object({ count: z.number().int() });
export const noticeReadResponseSchema = z.object({ message: z.string(), notice: noticeSchema });
export const allNoticesReadResponseSchema = z.object({ message: z.string(), updated: z.number().int() });

/**
 * GET/PUT /notifications/preferences: each kind of alert (a favourite's news, a book of « Ma
 * liste » listed nearby) by e-mail and in the notice centre.
 */
export const notificationPreferencesSchema = z.object({
  favourite_emails: z.boolean({ error: 'Choix invalide (oui ou non)' }),
  favourite_notices: z.boolean({ error: 'Choix invalide (oui ou non)' }),
  class_list_emails: z.boolean({ error: 'Choix invalide (oui ou non)' }),
  class_list_notices: z.boolean({ error: 'Choix invalide (oui ou non)' }),
});
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;
export const notificationPreferencesRequestSchema = notificationPreferencesSchema.partial();
export const notificationPreferencesResponseSchema = z.object({
  message: z.string().optional(),
  preferences: notificationPreferencesSchema,
});

// ── one-click unsubscribe of the alert mails (notifications, no login) ───────────────────────

export const alertUnsubscribeQuerySchema = z.object({
  token: z.string({ error: t.unsubscribeInvalid }).trim().min(16, t.unsubscribeInvalid).max(100, t.unsubscribeInvalid),
  kind: z.enum(alertMailKinds, { error: t.unsubscribeInvalid }),
});
export const alertUnsubscribeInfoSchema = z.object({
  kind: z.enum(alertMailKinds),
  kind_label: z.string(),
  /** Whether these alerts still come by e-mail. */
  active: z.boolean(),
});
export type AlertUnsubscribeInfo = z.infer<typeof alertUnsubscribeInfoSchema>;
export const alertUnsubscribeResponseSchema = alertUnsubscribeInfoSchema.extend({ message: z.string() });
export type AlertUnsubscribeResponse = z.infer<typeof alertUnsubscribeResponseSchema>;
