import { z } from 'zod';
import { conditionFlagList, searchTextSchema } from './catalog.ts';
import { int4, positiveId, safeText } from './common.ts';
import { type BookConditionFlag, bookConditionFlags, bookConditions, savedSearchFrequencies } from './labels.ts';

/**
 * Saved searches with alerts (services/catalog/API.md "Saved searches").
 *
 * - From /books a member saves the current filters under a name (« Maths 6e à Libreville ») and
 *   chooses how often to hear of new matches: `instant`, `daily` or `weekly`.
 * - catalog resolves the filters once, at save time, as the catalogue reads them (« maths 6e »
 *   becomes the 6e level and the Mathématiques subject, a level covers its descendants), and
 *   matches every listing that is created, comes back to « disponible » or is edited, in the
 *   same transaction: each (saved search, listing) alerts once, never for the member's own
 *   listings, and sends `catalog.saved_search.matched`.
 * - notifications always adds an in-app notice; e-mails go per frequency: instant at most one per
 *   saved search per SAVED_SEARCH_INSTANT_MINUTES (the rest batched into the next), daily and
 *   weekly one digest per period; never more than SAVED_SEARCH_MAILS_PER_DAY per member a day.
 * - Every alert e-mail has a one-click unsubscribe (RFC 8058: `List-Unsubscribe` and
 *   `List-Unsubscribe-Post` headers, and a link to SAVED_SEARCH_UNSUBSCRIBE_PAGE): the saved
 *   search is paused (`active: false`), no login needed; the member can switch it back on from
 *   SAVED_SEARCHES_PAGE.
 */

export const savedSearchMessages = {
  notFound: 'Recherche enregistrée introuvable.',
  nameRequired: 'Donnez un nom à cette recherche',
  nameMax: 'Le nom ne peut pas dépasser 80 caractères',
  frequencyInvalid: 'Choisissez la fréquence : immédiate, quotidienne ou hebdomadaire',
  filtersEmpty: 'Choisissez au moins un critère (texte, catégorie, ville, prix…) avant d’enregistrer la recherche',
  tooMany: 'Vous pouvez enregistrer au plus 20 recherches.',
  nameTaken: 'Vous avez déjà une recherche enregistrée sous ce nom.',
  tooManyCategories: '10 catégories au plus',
  categoryUnknown: 'Catégorie inconnue',
  cityUnknown: 'Ville inconnue',
  priceOrder: 'Le prix maximum doit être supérieur au prix minimum',
  created: 'Recherche enregistrée : vous serez prévenu des nouvelles annonces.',
  updated: 'Recherche enregistrée modifiée',
  deleted: 'Recherche enregistrée supprimée',
  tokenInvalid: 'Ce lien de désabonnement n’est pas valide.',
  unsubscribed: 'Vous ne recevrez plus d’alertes pour cette recherche.',
  alreadyUnsubscribed: 'Les alertes de cette recherche étaient déjà arrêtées.',
} as const;
const m = savedSearchMessages;

// ── limits (the enumerations and labels: ./labels.ts) ──

/** Saved searches a member may keep. */
export const SAVED_SEARCHES_MAX = 20;
export const SAVED_SEARCH_NAME_MAX = 80;
export const SAVED_SEARCH_CATEGORIES_MAX = 10;
/** Instant alerts: at most one e-mail per saved search in this many minutes; later matches wait for the next. */
export const SAVED_SEARCH_INSTANT_MINUTES = 15;
/** Alert e-mails (all saved searches together) a member receives at most in 24 hours; the rest wait. */
export const SAVED_SEARCH_MAILS_PER_DAY = 10;
/** An e-mail lists at most this many listings (then « et N autres »). */
export const SAVED_SEARCH_MAIL_BOOKS_MAX = 10;
/** Daily digests go at this hour, Libreville time (UTC+1); weekly ones on Mondays at the same hour. */
export const SAVED_SEARCH_DIGEST_HOUR = 7;

/** The frontend's pages (the catalog remote). */
export const SAVED_SEARCHES_PAGE = '/mes-recherches';
/** Shows what the token stops (GET) and stops it (POST); `?token=…`. */
export const SAVED_SEARCH_UNSUBSCRIBE_PAGE = '/mes-recherches/desabonnement';
/** The API path of the one-click unsubscribe (List-Unsubscribe), under /api. */
export const SAVED_SEARCH_UNSUBSCRIBE_PATH = '/saved-searches/unsubscribe';

// ── the filters ──────────────────────────────────────────────────────────────────────────────

const queryFlag = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === '1');
const money = int4(
  z.coerce
    .number({ error: 'Le prix doit être un nombre' })
    .int('Le prix doit être un nombre entier')
    .min(0, 'Le prix ne peut pas être négatif'),
  'Le prix est trop élevé',
);
/** "1,2" or ["1","2"] or [1,2] → [1, 2], as /books reads them. */
const idList = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(',').filter((s) => s.trim() !== '') : typeof v === 'number' ? [v] : v),
  z.array(positiveId(m.categoryUnknown)).max(SAVED_SEARCH_CATEGORIES_MAX, m.tooManyCategories),
);
/** Empty strings and nulls of a form are « no filter ». */
const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

/**
 * The /books filters a search keeps (bookListQuerySchema's, without paging and sorting): the same
 * names, so the page can save `Object.fromEntries(searchParams)` and reapply the saved filters as
 * the query string. `category_id` (one) is folded into `category_ids`; `is_negotiable` into
 * `is_negociable`. `literal` keeps the text as typed instead of reading levels and subjects in it.
 */
export const savedSearchFiltersSchema = z
  .object({
    query: z.preprocess(blankToUndefined, searchTextSchema().optional()),
    literal: z.preprocess(blankToUndefined, queryFlag.optional()),
    category_ids: z.preprocess(blankToUndefined, idList.optional()),
    category_id: z.preprocess(blankToUndefined, positiveId(m.categoryUnknown).optional()),
    min_price: z.preprocess(blankToUndefined, money.optional()),
    max_price: z.preprocess(blankToUndefined, money.optional()),
    condition: z.preprocess(blankToUndefined, z.enum(bookConditions, { error: 'État inconnu' }).optional()),
    without_flags: z.preprocess(blankToUndefined, conditionFlagList.optional()),
    is_negociable: z.preprocess(blankToUndefined, queryFlag.optional()),
    is_negotiable: z.preprocess(blankToUndefined, queryFlag.optional()),
    is_exchange_possible: z.preprocess(blankToUndefined, queryFlag.optional()),
    city_id: z.preprocess(blankToUndefined, positiveId(m.cityUnknown).optional()),
  })
  // Paging, sorting and the rest of the page's query string are not filters: dropped.
  .strip()
  .refine((f) => f.min_price === undefined || f.max_price === undefined || f.min_price <= f.max_price, {
    path: ['max_price'],
    message: m.priceOrder,
  })
  .transform(({ category_id, is_negotiable, ...f }) => {
    const ids = [...new Set([...(f.category_ids ?? []), ...(category_id ? [category_id] : [])])];
    const negotiable = f.is_negociable ?? is_negotiable;
    const out: SavedSearchFilters = {};
    if (f.query) out.query = f.query;
    if (f.literal) out.literal = true;
    if (ids.length) out.category_ids = ids;
    if (f.min_price !== undefined) out.min_price = f.min_price;
    if (f.max_price !== undefined) out.max_price = f.max_price;
    if (f.condition) out.condition = f.condition;
    if (f.without_flags?.length) out.without_flags = f.without_flags;
    if (negotiable !== undefined) out.is_negociable = negotiable;
    if (f.is_exchange_possible !== undefined) out.is_exchange_possible = f.is_exchange_possible;
    if (f.city_id) out.city_id = f.city_id;
    return out;
  })
  .refine((f) => Object.keys(f).some((k) => k !== 'literal'), { message: m.filtersEmpty });

/** The saved filters as stored and answered (only those set). */
export interface SavedSearchFilters {
  query?: string;
  literal?: boolean;
  category_ids?: number[];
  min_price?: number;
  max_price?: number;
  condition?: (typeof bookConditions)[number];
  /** Leave out the listings with any of these condition flags. */
  without_flags?: BookConditionFlag[];
  is_negociable?: boolean;
  is_exchange_possible?: boolean;
  city_id?: number;
}
export const savedSearchFiltersOutputSchema = z.object({
  query: z.string().optional(),
  literal: z.boolean().optional(),
  category_ids: z.array(z.number().int()).optional(),
  min_price: z.number().int().optional(),
  max_price: z.number().int().optional(),
  condition: z.enum(bookConditions).optional(),
  without_flags: z.array(z.enum(bookConditionFlags)).optional(),
  is_negociable: z.boolean().optional(),
  is_exchange_possible: z.boolean().optional(),
  city_id: z.number().int().optional(),
});

/** The filters as a /books query string (without « ? »), to reopen the search. */
export function savedSearchQueryString(filters: SavedSearchFilters): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined) continue;
    params.set(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  return params.toString();
}

// ── requests and answers ─────────────────────────────────────────────────────────────────────

const name = safeText({ error: m.nameRequired }).trim().min(1, m.nameRequired).max(SAVED_SEARCH_NAME_MAX, m.nameMax);
const frequency = z.enum(savedSearchFrequencies, { error: m.frequencyInvalid });

/** POST /saved-searches. */
export const savedSearchCreateRequestSchema = z.object({
  name,
  frequency: frequency.default('instant'),
  filters: savedSearchFiltersSchema,
});
export type SavedSearchCreateRequest = z.input<typeof savedSearchCreateRequestSchema>;

/** PUT /saved-searches/{id}: any of the fields; `active: true` switches alerts back on after an unsubscribe. */
export const savedSearchUpdateRequestSchema = z.object({
  name: name.optional(),
  frequency: frequency.optional(),
  filters: savedSearchFiltersSchema.optional(),
  active: z.boolean({ error: 'Valeur invalide' }).optional(),
});
export type SavedSearchUpdateRequest = z.input<typeof savedSearchUpdateRequestSchema>;

export const savedSearchSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    frequency: z.enum(savedSearchFrequencies),
    /** « Dès qu’une annonce paraît », « Une fois par jour », « Une fois par semaine ». */
    frequency_label: z.string(),
    filters: savedSearchFiltersOutputSchema,
    /** The filters in words: « maths 6e · Libreville · 5 000 FCFA au plus ». */
    summary: z.string(),
    /** The /books query string that reopens the search (without « ? »). */
    query_string: z.string(),
    /** False after an unsubscribe (or when the member paused it): no alert until switched back on. */
    active: z.boolean(),
    /** Listings it alerted about so far. */
    match_count: z.number().int(),
    last_match_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'SavedSearch' });
export type SavedSearch = z.infer<typeof savedSearchSchema>;

/** GET /saved-searches: the member's saved searches, newest first. */
export const savedSearchListResponseSchema = z.object({
  data: z.array(savedSearchSchema),
  limits: z.object({ max: z.number().int(), mails_per_day: z.number().int() }),
});
export type SavedSearchListResponse = z.infer<typeof savedSearchListResponseSchema>;
/** POST /saved-searches (201) and PUT /saved-searches/{id}. */
export const savedSearchWriteResponseSchema = z.object({ message: z.string(), saved_search: savedSearchSchema });
export type SavedSearchWriteResponse = z.infer<typeof savedSearchWriteResponseSchema>;

/** GET and POST /saved-searches/unsubscribe?token=… (no login). */
export const savedSearchUnsubscribeQuerySchema = z.object({
  token: z.string({ error: m.tokenInvalid }).min(1, m.tokenInvalid).max(200, m.tokenInvalid),
});
/** GET: what the link stops, for the page (nothing else of the member is shown). */
export const savedSearchUnsubscribeInfoSchema = z.object({
  saved_search: z.object({
    id: z.number().int(),
    name: z.string(),
    summary: z.string(),
    frequency: z.enum(savedSearchFrequencies),
    frequency_label: z.string(),
    active: z.boolean(),
  }),
});
export type SavedSearchUnsubscribeInfo = z.infer<typeof savedSearchUnsubscribeInfoSchema>;
/** POST: done (also when it was already stopped: a one-click retry is not an error). */
export const savedSearchUnsubscribeResponseSchema = savedSearchUnsubscribeInfoSchema.extend({ message: z.string() });
export type SavedSearchUnsubscribeResponse = z.infer<typeof savedSearchUnsubscribeResponseSchema>;

// ── events ───────────────────────────────────────────────────────────────────────────────────

/**
 * catalog.saved_search.matched: a listing (new, back to « disponible », or edited into the
 * filters) answers a member's active saved search. Once per (saved search, listing).
 */
export const savedSearchMatchedEventSchema = z.object({
  saved_search_id: z.number().int(),
  user_id: z.string().uuid(),
  name: z.string(),
  frequency: z.enum(savedSearchFrequencies),
  summary: z.string(),
  query_string: z.string(),
  /** For List-Unsubscribe: catalog signs it, only catalog can check it. */
  unsubscribe_token: z.string(),
  book: z.object({
    id: z.number().int(),
    title: z.string(),
    price: z.number().int(),
    city_name: z.string().nullable(),
    thumbnail: z.string().nullable(),
  }),
  at: z.string(),
});
export type SavedSearchMatchedEvent = z.infer<typeof savedSearchMatchedEventSchema>;

export const savedSearchStopReasons = ['unsubscribed', 'paused', 'deleted'] as const;
/**
 * catalog.saved_search.stopped: alerts stop (one-click unsubscribe, paused from the page, or
 * deleted): notifications drops the matches still waiting for a digest.
 */
export const savedSearchStoppedEventSchema = z.object({
  saved_search_id: z.number().int(),
  user_id: z.string().uuid(),
  reason: z.enum(savedSearchStopReasons),
  at: z.string(),
});
export type SavedSearchStoppedEvent = z.infer<typeof savedSearchStoppedEventSchema>;
