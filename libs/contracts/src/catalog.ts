import { z } from 'zod';
import { VISITOR_BOOK_PAGE } from './book-page.ts';
import { dbInt, idParamsSchema, int4, multilineText, pageMetaSchema, positiveId, safeText } from './common.ts';
import { bookConditionFlags, bookConditions, bookStatuses } from './labels.ts';
import {
  BOOKS_PER_PAGE_MAX,
  LOT_ITEMS_MAX,
  MAX_BOOK_CATEGORIES,
  MAX_BOOK_PRICE,
  PRICE_GUIDE_MIN_DEALS,
  PRICE_GUIDE_MONTHS,
  SEARCH_CATEGORIES_MAX,
  SEARCH_TEXT_MAX_LENGTH,
  SEARCH_TEXT_MAX_WORDS,
} from './limits.ts';

/** A form field or a multipart field: "true", "1", "on" and true are yes. */
const flag = z.preprocess((v) => v === true || v === 'true' || v === '1' || v === 'on', z.boolean());
const optionalText = (max: number, message: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    multilineText().trim().max(max, message).optional(),
  );

/** "1,2" or ["1","2"] or [1,2] → [1, 2]. */
const idList = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(',').filter((s) => s.trim() !== '') : v),
  z.array(positiveId()),
);

/** "a,b" or ["a","b"] → a list of condition flags, each once. */
export const conditionFlagList = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(',').filter((s) => s.trim() !== '') : v),
  z
    .array(z.enum(bookConditionFlags, { error: 'Précision sur l’état inconnue' }))
    .transform((flags) => bookConditionFlags.filter((flag) => flags.includes(flag))),
);

/** A catalogue search's text: bounded in characters and in words (./limits.ts). */
export const searchTextSchema = () =>
  safeText()
    .trim()
    .max(SEARCH_TEXT_MAX_LENGTH, `La recherche ne peut pas dépasser ${SEARCH_TEXT_MAX_LENGTH} caractères`)
    .refine(
      (text) => text.split(/\s+/).filter(Boolean).length <= SEARCH_TEXT_MAX_WORDS,
      `La recherche ne peut pas dépasser ${SEARCH_TEXT_MAX_WORDS} mots`,
    );

/** A catalogue search's categories: at most SEARCH_CATEGORIES_MAX (all of them is no filter). */
export const searchCategoryIdsSchema = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(',').filter((s) => s.trim() !== '') : v),
  z
    .array(positiveId())
    .max(
      SEARCH_CATEGORIES_MAX,
      `${SEARCH_CATEGORIES_MAX} catégories au plus : choisissez un niveau et ses matières, ou toutes les catégories`,
    ),
);

const currentYear = new Date().getFullYear();

/** The listing form and the API's multipart fields (SPEC.md section 2 "Add/edit listing"). */
export const bookFieldsSchema = z.object({
  title: safeText({ error: 'Le titre est obligatoire' })
    .trim()
    .min(2, 'Le titre doit contenir au moins 2 caractères')
    .max(200, 'Le titre ne peut pas dépasser 200 caractères'),
  author: safeText({ error: "L'auteur est obligatoire" })
    .trim()
    .min(2, "L'auteur doit contenir au moins 2 caractères")
    .max(150, "L'auteur ne peut pas dépasser 150 caractères"),
  isbn: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    safeText()
      .trim()
      .refine((v) => /^(\d{9}[\dXx]|\d{13})$/.test(v.replace(/[-\s]/g, '')), 'ISBN invalide (10 ou 13 chiffres)')
      .optional(),
  ),
  description: optionalText(2000, 'La description ne peut pas dépasser 2000 caractères'),
  publisher: optionalText(150, "L'éditeur ne peut pas dépasser 150 caractères"),
  publication_year: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.coerce
      .number({ error: 'Année invalide' })
      .int('Année invalide')
      .min(1950, 'Année invalide')
      .max(currentYear + 1, 'Année invalide')
      .optional(),
  ),
  condition: z.enum(bookConditions, { error: "Choisissez l'état du manuel" }),
  /** What the condition does not say (annotations, exercises filled in, a stamp…); none by default. */
  condition_flags: conditionFlagList.default([]),
  price: z.coerce
    .number({ error: 'Le prix est obligatoire' })
    .int('Le prix doit être un nombre entier de FCFA')
    .min(0, 'Le prix ne peut pas être négatif')
    .max(MAX_BOOK_PRICE, 'Le prix est trop élevé'),
  city_id: positiveId('La ville est obligatoire'),
  is_negociable: flag.default(false),
  is_exchange_possible: flag.default(false),
  category_ids: idList
    .refine((ids) => ids.length >= 1, 'Choisissez au moins une catégorie')
    .refine((ids) => ids.length <= MAX_BOOK_CATEGORIES, `${MAX_BOOK_CATEGORIES} catégories au plus`),
  /**
   * A lot: the class list books it holds, by their ids in one published list.
   * Only when the listing is created; the lot's level and subjects join its categories.
   */
  lot_items: idList
    .refine((ids) => new Set(ids).size >= 2, 'Un lot compte au moins 2 manuels différents')
    .refine((ids) => ids.length <= LOT_ITEMS_MAX, `Un lot compte au plus ${LOT_ITEMS_MAX} manuels`)
    .optional(),
});
export type BookFields = z.infer<typeof bookFieldsSchema>;

const queryFlag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const money = int4(
  z.coerce
    .number({ error: 'Le prix doit être un nombre' })
    .int('Le prix doit être un nombre entier')
    .min(0, 'Le prix ne peut pas être négatif'),
  'Le prix est trop élevé',
);

/** GET /books (SPEC.md section 2 "Catalogue" and section 7 "Books"). */
export const bookListQuerySchema = z
  .object({
    query: searchTextSchema().optional(),
    /**
     * Search the text as typed: without it, levels and subjects in the query (« maths 6e ») are
     * understood as category filters (the answer's `interpreted` says which).
     */
    literal: queryFlag.optional(),
    category_ids: searchCategoryIdsSchema.optional(),
    category_id: positiveId().optional(),
    min_price: money.optional(),
    max_price: money.optional(),
    condition: z.enum(bookConditions, { error: 'État inconnu' }).optional(),
    /** Leave out the listings that have any of these flags (« Sans annotations », « Exercices vierges »…). */
    without_flags: conditionFlagList.optional(),
    is_negociable: queryFlag.optional(),
    is_negotiable: queryFlag.optional(),
    is_exchange_possible: queryFlag.optional(),
    city_id: positiveId().optional(),
    user_id: z.string().uuid().optional(),
    exclude_id: positiveId().optional(),
    status: z.enum(bookStatuses).optional(),
    sort_by: z.enum(['created_at', 'price', 'title', 'popularity', 'relevance']).optional(),
    sort_direction: z.enum(['asc', 'desc']).optional(),
    page: dbInt().min(1).max(10_000).default(1),
    per_page: dbInt().min(1).max(BOOKS_PER_PAGE_MAX, `${BOOKS_PER_PAGE_MAX} par page au plus`).optional(),
    limit: dbInt().min(1).max(BOOKS_PER_PAGE_MAX).optional(),
  })
  .refine((q) => q.min_price === undefined || q.max_price === undefined || q.min_price <= q.max_price, {
    path: ['max_price'],
    message: 'Le prix maximum doit être supérieur au prix minimum',
  });
export type BookListQuery = z.infer<typeof bookListQuerySchema>;

// ── books: the answers (services/catalog/API.md "Book") ────────────────────────────────────────

export const bookIdParamsSchema = idParamsSchema;

/** GET /books/{id}'s query: `as=visitor` (./book-page.ts). */
export const bookPageQuerySchema = z.object({ as: z.literal(VISITOR_BOOK_PAGE.as).optional() });

/**
 * A visitor's book page may be kept this many seconds by a shared cache in front of the gateway
 * (its `Cache-Control` says `s-maxage`: docs/gateway.md); a browser keeps none. A listing changed
 * or hidden shows its new state to visitors this much later at most.
 */
export const VISITOR_BOOK_PAGE_SHARED_SECONDS = 5;

const categoryNameSchema = z.object({ id: z.number().int(), name: z.string() });

/** A listing as every list and the detail page show it. */
export const bookSchema = z
  .object({
    id: z.number().int(),
    title: z.string(),
    author: z.string(),
    isbn: z.string().nullable(),
    description: z.string().nullable(),
    publisher: z.string().nullable(),
    publication_year: z.number().int().nullable(),
    condition: z.enum(bookConditions),
    /** Neuf, Très bon état, Bon état, État acceptable, Mauvais état. */
    condition_label: z.string(),
    /** What the condition does not say, in the order of `bookConditionFlags`. */
    condition_flags: z.array(z.enum(bookConditionFlags)).default([]),
    /** Whole FCFA; 0 is a gift. */
    price: z.number().int(),
    status: z.enum(bookStatuses),
    /** Disponible, Réservé, Vendu. */
    status_label: z.string(),
    /** Both spellings, the same value. */
    is_negociable: z.boolean(),
    is_negotiable: z.boolean(),
    is_exchange_possible: z.boolean(),
    city: z.object({ id: z.number().int(), name: z.string(), province: z.string().nullable() }).nullable(),
    city_id: z.number().int().nullable(),
    /** The main category, first of `categories`. */
    category: categoryNameSchema.nullable(),
    categories: z.array(categoryNameSchema),
    category_ids: z.array(z.number().int()),
    /** Display URLs of the three photo slots. */
    image1: z.string().nullable(),
    image2: z.string().nullable(),
    image3: z.string().nullable(),
    /** Thumbnail URL of the first photo. */
    thumbnail: z.string().nullable(),
    images: z.array(z.object({ slot: z.number().int(), url: z.string(), thumbnail_url: z.string() })),
    user_id: z.string().uuid(),
    views: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
    /**
     * Hidden by the moderation: out of the public catalogue; its owner (GET /user/books) and the
     * back office still see it, with the moderator's reason.
     */
    hidden: z.boolean().default(false),
    hidden_at: z.string().nullable().default(null),
    hidden_reason: z.string().nullable().default(null),
    /** Boosted by a subscription: shown « Sponsorisé » where it is put first (home, top of a search). */
    sponsored: z.boolean().optional(),
    /** A lot: the books it holds, in the order of their class list; null for a single book. */
    lot: z
      .object({
        items: z.array(
          z.object({
            title: z.string(),
            author: z.string(),
            publisher: z.string().nullable(),
            year: z.number().int().nullable(),
            isbn: z.string().nullable(),
            subject: categoryNameSchema.nullable(),
          }),
        ),
      })
      .nullable()
      .default(null),
  })
  .meta({ id: 'Book' });
export type Book = z.infer<typeof bookSchema>;

/** The seller block of the detail page: contact details only when the member shows them. */
export const sellerSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  username: z.string(),
  profile_image: z.string().nullable(),
  city: z.string().nullable(),
  province: z.string().nullable(),
  created_at: z.string(),
  show_email: z.boolean(),
  email: z.string().nullable(),
  show_phone: z.boolean(),
  phone: z.string().nullable(),
  rating: z.object({ average: z.number(), count: z.number().int() }),
  /** The name of the seller's active member plan that gives a badge (« Vendeur »), else null. */
  badge: z.string().nullable().default(null),
});
export type Seller = z.infer<typeof sellerSchema>;

/**
 * What the same book (ISBN, else title) in the same condition sold for here: the confirmed sales
 * of the last PRICE_GUIDE_MONTHS months, one per pair of members (two members dealing again and
 * again would set the price alone), never fewer than PRICE_GUIDE_MIN_DEALS.
 */
export const usualPriceSchema = z
  .object({
    /** The middle price paid: a price someone paid (the lower of the two middle ones). */
    median: z.number().int(),
    /** A quarter of the sales were at or under `low`, a quarter at or over `high`. */
    low: z.number().int(),
    high: z.number().int(),
    /** The sales it rests on. */
    deals: z.number().int(),
  })
  .meta({ id: 'UsualPrice' });
export type UsualPrice = z.infer<typeof usualPriceSchema>;

/** GET /books/price-guide: the book being listed, as the form knows it. */
export const priceGuideQuerySchema = z
  .object({
    title: optionalText(200, 'Le titre ne peut pas dépasser 200 caractères'),
    isbn: optionalText(20, "L'ISBN ne peut pas dépasser 20 caractères"),
    condition: z.enum(bookConditions, { error: "Choisissez l'état du manuel" }),
    /** The listing being edited: its own price is not an offer to compare with. */
    exclude_id: z.coerce
      .number({ error: 'Annonce invalide' })
      .int('Annonce invalide')
      .positive('Annonce invalide')
      .optional(),
  })
  .refine((q) => Boolean(q.title || q.isbn), { message: 'Indiquez le titre ou l’ISBN du manuel', path: ['title'] });
export type PriceGuideQuery = z.infer<typeof priceGuideQuerySchema>;

/** What a seller is told when setting a price (PRICE_GUIDE_MIN_DEALS and PRICE_GUIDE_MONTHS apply). */
export const priceGuideSchema = z
  .object({
    /** Null under PRICE_GUIDE_MIN_DEALS sales: nothing is suggested. */
    usual: usualPriceSchema.nullable(),
    /** The confirmed sales found, counted as `usual` counts them, even when too few. */
    deals: z.number().int(),
    /** The same book in the same condition on sale now, at a price (gifts left out). */
    listings: z.object({
      count: z.number().int(),
      low: z.number().int().nullable(),
      high: z.number().int().nullable(),
    }),
    min_deals: z.literal(PRICE_GUIDE_MIN_DEALS),
    months: z.literal(PRICE_GUIDE_MONTHS),
  })
  .meta({ id: 'PriceGuide' });
export type PriceGuide = z.infer<typeof priceGuideSchema>;

/** GET /books/{id}: the book and its seller (null while catalog has not heard of them). */
export const bookDetailSchema = bookSchema
  .extend({
    seller: sellerSchema.nullable(),
    /** « Prix habituel »: null when the same book in the same condition sold too few times. */
    usual_price: usualPriceSchema.nullable().default(null),
  })
  .meta({ id: 'BookDetail' });
export type BookDetail = z.infer<typeof bookDetailSchema>;
export const bookDetailResponseSchema = z.object({ book: bookDetailSchema });

/** A level or a subject understood in the search text, and the categories it stands for. */
export const understoodTermSchema = z.object({
  /** « Mathématiques », « 6e », « 4e année (CM1) ». */
  name: z.string(),
  category_ids: z.array(z.number().int()),
});
export type UnderstoodTerm = z.infer<typeof understoodTermSchema>;

/**
 * How a search text was read: « maths 6e » is Mathématiques · 6e with no text left. Null when
 * the text was searched as typed (nothing recognised, `literal=true`, or the understood filters
 * found nothing while the words as typed did).
 */
export const searchInterpretationSchema = z
  .object({
    level: understoodTermSchema.nullable(),
    subject: understoodTermSchema.nullable(),
    /** The words left for the full-text search ('' when none). */
    text: z.string(),
  })
  .meta({ id: 'SearchInterpretation' });
export type SearchInterpretation = z.infer<typeof searchInterpretationSchema>;

/** GET /books and /books/search. */
export const bookListPageSchema = z.object({
  data: z.array(bookSchema),
  total: z.number().int(),
  per_page: z.number().int(),
  current_page: z.number().int(),
  last_page: z.number().int(),
  interpreted: searchInterpretationSchema.nullable().optional(),
  /** When a text finds nothing: the closest query that would (« Vouliez-vous dire … »), or null. */
  did_you_mean: z.string().nullable().optional(),
  /**
   * Boosted listings that match the same filters, shown first and marked « Sponsorisé »
   * (first page only, at most SPONSORED_PER_PAGE_MAX; they keep their place in `data` too).
   */
  sponsored: z.array(bookSchema).optional(),
});
export type BookListPage = z.infer<typeof bookListPageSchema>;

/** GET /books/suggestions: what the search box proposes while typing. */
export const SUGGESTIONS_MAX = 8;
export const bookSuggestionsQuerySchema = z.object({
  q: safeText({ error: 'Tapez quelques lettres' })
    .trim()
    .min(1, 'Tapez quelques lettres')
    .max(100, 'La recherche ne peut pas dépasser 100 caractères'),
  limit: dbInt().min(1).max(SUGGESTIONS_MAX, `${SUGGESTIONS_MAX} suggestions au plus`).optional(),
});
export const suggestionKinds = ['filter', 'level', 'subject', 'title'] as const;
export const bookSuggestionSchema = z
  .object({
    /** filter: a level and a subject together; level, subject: one category; title: a book's title. */
    kind: z.enum(suggestionKinds),
    /** What the list shows (« Mathématiques · 6e », « Mathématiques 6e – Collection Excellence »). */
    label: z.string(),
    /** The parts of `label` that match what was typed: [start, end) in UTF-16 code units, for <mark>. */
    highlights: z.array(z.tuple([z.number().int(), z.number().int()])),
    /** The search to run when it is chosen (/books?query=…). */
    query: z.string(),
    category_ids: z.array(z.number().int()),
  })
  .meta({ id: 'BookSuggestion' });
export type BookSuggestion = z.infer<typeof bookSuggestionSchema>;
export const bookSuggestionsResponseSchema = z.object({ suggestions: z.array(bookSuggestionSchema) });
export type BookSuggestionsResponse = z.infer<typeof bookSuggestionsResponseSchema>;

export const featuredBooksResponseSchema = z.object({ featured_books: z.array(bookSchema) });
export const recommendedBooksResponseSchema = z.object({ books: z.array(bookSchema) });
/** GET /user/books, /users/profile/books. */
export const bookListResponseSchema = z.object({ data: z.array(bookSchema) });
export const bookStatsResponseSchema = z.object({
  stats: z.object({
    total: z.number().int(),
    available: z.number().int(),
    reserved: z.number().int(),
    sold: z.number().int(),
    views: z.number().int(),
  }),
});
/** POST /books, POST /books/{id}, PUT /books/{id}/status. */
export const bookWriteResponseSchema = z.object({ message: z.string(), book: bookSchema });
export type BookWriteResponse = z.infer<typeof bookWriteResponseSchema>;

export const bookStatusRequestSchema = z.object({
  status: z.enum(bookStatuses, { error: 'Statut inconnu (disponible, réservé ou vendu)' }),
});
export const profileBooksQuerySchema = z.object({ user_id: z.string().uuid().optional() });

// ── the back office's books (books.update.any; SPEC.md section 2 « Gestion des livres ») ──────

export const ADMIN_BOOKS_PER_PAGE_MAX = 100;
export const adminBookSorts = ['created_at', 'price', 'title', 'views'] as const;
export type AdminBookSort = (typeof adminBookSorts)[number];

/** GET /admin/books: every book, sold and hidden ones too. */
export const adminBookListQuerySchema = z.object({
  /** Title, author or ISBN (accents and case ignored, part of a word is enough). */
  search: safeText().trim().max(200).optional(),
  status: z.enum(bookStatuses, { error: 'Statut inconnu (disponible, réservé ou vendu)' }).optional(),
  hidden: z
    .enum(['true', 'false', '1', '0'], { error: 'Valeur attendue : true ou false' })
    .transform((v) => v === 'true' || v === '1')
    .optional(),
  city_id: positiveId('Ville invalide').optional(),
  category_id: positiveId('Catégorie invalide').optional(),
  owner_id: z.string().uuid('Identifiant de membre invalide').optional(),
  sort_by: z.enum(adminBookSorts, { error: 'Tri inconnu (created_at, price, title ou views)' }).default('created_at'),
  sort_direction: z.enum(['asc', 'desc'], { error: 'Sens de tri : asc ou desc' }).default('desc'),
  page: dbInt().min(1, 'Page invalide').max(10_000, 'Page invalide').default(1),
  per_page: dbInt()
    .min(1, 'Au moins 1 par page')
    .max(ADMIN_BOOKS_PER_PAGE_MAX, `${ADMIN_BOOKS_PER_PAGE_MAX} par page au plus`)
    .default(20),
});
export type AdminBookListQuery = z.input<typeof adminBookListQuerySchema>;

/** The owner as catalog knows them (auth's projection); e-mail only when the member shows it. */
export const bookOwnerSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  username: z.string(),
  email: z.string().nullable(),
});
export const adminBookSchema = bookSchema.extend({ owner: bookOwnerSchema.nullable() }).meta({ id: 'AdminBook' });
export type AdminBook = z.infer<typeof adminBookSchema>;
export const adminBookPageSchema = z.object({
  data: z.array(adminBookSchema),
  meta: pageMetaSchema.extend({ per_page: z.number().int() }),
});
export type AdminBookPage = z.infer<typeof adminBookPageSchema>;
export const adminBookResponseSchema = z.object({ book: adminBookSchema });
export const adminBookActionResponseSchema = z.object({ message: z.string(), book: adminBookSchema });

export const MODERATION_REASON_MIN = 5;
export const MODERATION_REASON_MAX = 500;
const moderationReason = multilineText({ error: 'Le motif est obligatoire' })
  .trim()
  .min(MODERATION_REASON_MIN, `Le motif doit contenir au moins ${MODERATION_REASON_MIN} caractères`)
  .max(MODERATION_REASON_MAX, `Le motif ne peut pas dépasser ${MODERATION_REASON_MAX} caractères`);
/** POST /admin/books/{id}/hide, DELETE /admin/books/{id}: the reason the owner is told by e-mail. */
export const bookModerationRequestSchema = z.object({ reason: moderationReason });
/** PUT /admin/books/{id}/status: the reason is optional here. */
export const adminBookStatusRequestSchema = bookStatusRequestSchema.extend({
  reason: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), moderationReason.optional()),
});
export const bookModerationActions = ['hidden', 'unhidden', 'deleted', 'status_changed'] as const;
export type BookModerationAction = (typeof bookModerationActions)[number];

// ── categories (a graph: a category may have several parents) ─────────────────────────────────

export const MAX_CATEGORY_DEPTH = 10;

export interface Category {
  id: number;
  name: string;
  /** The first parent, or null for a root. */
  parent_id: number | null;
  order: number;
  depth: number;
  book_count: number;
  books_count: number;
  parents: Array<{ id: number; name: string }>;
  children?: Category[];
}

export const categorySchema: z.ZodType<Category> = z
  .object({
    id: z.number().int(),
    name: z.string(),
    parent_id: z.number().int().nullable(),
    order: z.number().int(),
    depth: z.number().int(),
    /** Books not sold in it or below it (both spellings). */
    book_count: z.number().int(),
    books_count: z.number().int(),
    parents: z.array(categoryNameSchema),
    get children() {
      return z.array(categorySchema).optional();
    },
  })
  .meta({ id: 'Category' });

/** `{ id, name, depth }`: parents, children, ancestors, descendants. */
export const categoryRefSchema = z.object({ id: z.number().int(), name: z.string(), depth: z.number().int() });
export type CategoryRef = z.infer<typeof categoryRefSchema>;

export const categoriesResponseSchema = z.object({ categories: z.array(categorySchema) });
export const categoryResponseSchema = z.object({ category: categorySchema });
export const categoryRefsResponseSchema = z.object({ categories: z.array(categoryRefSchema) });
export const categoryDetailsResponseSchema = z.object({
  category: categorySchema,
  direct_parents: z.array(categoryRefSchema),
  direct_children: z.array(categoryRefSchema),
  all_ancestors: z.array(categoryRefSchema),
  all_descendants: z.array(categoryRefSchema),
});
export const categoryStatsResponseSchema = z.object({
  stats: z.object({
    total: z.number().int(),
    roots: z.number().int(),
    leaves: z.number().int(),
    max_depth: z.number().int(),
    with_books: z.number().int(),
  }),
});

const categoryNameField = safeText({ error: 'Le nom est obligatoire' })
  .trim()
  .min(2, 'Le nom doit contenir au moins 2 caractères')
  .max(80);
export const categoryCreateRequestSchema = z.object({
  name: categoryNameField,
  parent_id: positiveId().nullish(),
  order: dbInt().optional(),
});
export const categoryUpdateRequestSchema = z.object({
  name: categoryNameField,
  order: dbInt().optional(),
});
export const categoryOrderRequestSchema = z.object({
  order: z.array(z.object({ id: int4(z.number().int().positive()), order: int4(z.number().int()) })).min(1),
});
/** null: the category becomes a root. */
export const categoryMoveRequestSchema = z.object({ parent_id: positiveId().nullable() });
export const categoryEdgeRequestSchema = z.object({
  category_id: positiveId(),
  parent_id: positiveId(),
});

// ── banners (SPEC.md section 2 "Home") ──────────────────────────────────────────────────────

export const bannerColors = ['light', 'dark'] as const;

/**
 * What a banner's button leads to: a page of the site (`/books?…`: one slash, then a path) or
 * another site over https. Anything else is no link: `//host` and `/\\host` (another site to a
 * browser), `javascript:`, `data:`, `http:`… are refused, and never shown if stored before.
 */
export function bannerLinkKind(link: string): 'internal' | 'external' | null {
  if (/^\/(?![/\\])[^\s\\]*$/.test(link)) return 'internal';
  if (!/^https:\/\/[^/\\\s]/i.test(link) || /[\s\\]/.test(link)) return null;
  try {
    return new URL(link).protocol === 'https:' ? 'external' : null;
  } catch {
    return null;
  }
}
export const bannerLinkMessages = {
  invalid: 'Lien interne (/books…) ou https:// attendu',
  protocolRelative:
    'Un lien commençant par // mène vers un autre site : écrivez https://… pour un lien externe, ou /… pour une page du site.',
};

const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);
/** The banner form's multipart fields (the image travels beside them, field `image`). */
export const bannerFieldsSchema = z.object({
  title: safeText({ error: 'Le titre est obligatoire' })
    .trim()
    .min(2, 'Le titre doit contenir au moins 2 caractères')
    .max(120),
  subtitle: z.preprocess(blankToNull, safeText().trim().max(240).nullish()),
  button_text: z.preprocess(blankToNull, safeText().trim().max(40).nullish()),
  button_link: z.preprocess(
    blankToNull,
    safeText()
      .trim()
      .max(300)
      .refine((v) => !v.startsWith('//') && !v.startsWith('/\\'), {
        message: bannerLinkMessages.protocolRelative,
        abort: true,
      })
      .refine((v) => bannerLinkKind(v) !== null, bannerLinkMessages.invalid)
      .nullish(),
  ),
  color: z.enum(bannerColors, { error: 'Couleur light ou dark' }).default('dark'),
  order: dbInt().min(0).default(0),
  is_active: flag.default(true),
});
export type BannerFields = z.infer<typeof bannerFieldsSchema>;

export const bannerSchema = z
  .object({
    id: z.number().int(),
    title: z.string(),
    subtitle: z.string().nullable(),
    image_url: z.string().nullable(),
    button_text: z.string().nullable(),
    button_link: z.string().nullable(),
    color: z.enum(bannerColors),
    order: z.number().int(),
    is_active: z.boolean(),
  })
  .meta({ id: 'Banner' });
export type Banner = z.infer<typeof bannerSchema>;
export const bannersResponseSchema = z.object({ banners: z.array(bannerSchema) });
export const bannerResponseSchema = z.object({ banner: bannerSchema });
export const bannerReorderRequestSchema = z.object({
  banners: z.array(z.object({ id: int4(z.number().int().positive()), order: int4(z.number().int().min(0)) })).min(1),
});
