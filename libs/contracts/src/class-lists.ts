import { z } from 'zod';
import { classListChangeSchema, classListVersionSchema } from './class-list-versions.ts';
import {
  csvImportReportSchema,
  dbInt,
  multilineText,
  pageMetaSchema,
  positiveId,
  queryBool,
  safeText,
} from './common.ts';
import {
  bookConditions,
  type ClassListKind,
  classListKinds,
  classListMatchKinds,
  classListRequirements,
  classListStatuses,
  proximities,
} from './labels.ts';

/**
 * Class book lists and « Ma liste » (services/catalog/API.md
 * "Class book lists"). DOMAIN.md says how lists work in Gabon: the IPN validates an official
 * list that changes every year, and private schools often publish their own.
 *
 * - A **class list** is the list of books of one level (a category: « 6e », « Terminale D »)
 *   for one school year (« 2026-2027 »): `official` (the IPN's) or `school` (one school's, with
 *   its name and town). It is `draft` while an operator prepares it, `proposed` when a teacher
 *   or a school sent it, `published` (the public sees it) or `rejected` (with a reason).
 * - A **list item** is one book of the list: title, author, publisher, edition/year, ISBN when
 *   known, subject (a category), required or recommended, and its position.
 * - **« Ma liste »** (GET /class-lists/{id}/availability) puts the available listings beside
 *   each item: exact matches (same ISBN, or same title once accents and case are ignored), else
 *   the listings of the same subject and level; nearest first (the chosen town, its province,
 *   elsewhere). Books marked « déjà obtenu » (`owned`) leave the total.
 * - A member **saves** a list with a town and their marks (PUT /my-class-lists/{list_id}); a new
 *   listing matching a missing book nearby sends `catalog.class_list.match_found`.
 */

export const classListMessages = {
  notFound: 'Liste de manuels introuvable.',
  itemNotFound: 'Manuel introuvable dans cette liste.',
  schoolYearInvalid: 'Année scolaire invalide (ex. 2026-2027)',
  levelRequired: 'Choisissez le niveau (classe)',
  levelNotFound: 'Ce niveau est introuvable.',
  subjectNotFound: 'Cette matière est introuvable.',
  cityNotFound: 'Cette ville est introuvable.',
  kindInvalid: 'Type de liste inconnu (officielle ou d’établissement)',
  statusInvalid: 'État de liste inconnu',
  schoolRequired: 'Indiquez le nom de l’établissement pour une liste d’établissement',
  schoolMax: 'Le nom de l’établissement ne peut pas dépasser 120 caractères',
  sourceNoteMax: 'La source ne peut pas dépasser 500 caractères',
  titleRequired: 'Le titre est obligatoire',
  titleMin: 'Le titre doit contenir au moins 2 caractères',
  titleMax: 'Le titre ne peut pas dépasser 200 caractères',
  authorMax: 'L’auteur ne peut pas dépasser 150 caractères',
  publisherMax: 'L’éditeur ne peut pas dépasser 150 caractères',
  editionMax: 'L’édition ne peut pas dépasser 80 caractères',
  yearInvalid: 'Année d’édition invalide',
  isbnInvalid: 'ISBN invalide (10 ou 13 chiffres)',
  requirementInvalid: 'Indiquez « obligatoire » ou « conseillé »',
  positionInvalid: 'Position invalide',
  tooManyItems: 'Une liste compte au plus 60 manuels.',
  itemsRequired: 'Ajoutez au moins un manuel à la liste',
  duplicateList: 'Une liste existe déjà pour cette année, ce niveau et cet établissement.',
  sameYear: 'Choisissez une autre année scolaire que celle de la liste copiée.',
  notProposed: 'Cette liste n’attend pas de validation.',
  reasonRequired: 'Indiquez un motif (5 caractères au moins)',
  reasonMax: 'Le motif ne peut pas dépasser 500 caractères',
  notPublished: 'Cette liste n’est pas publiée.',
  ownedInvalid: 'Manuels « déjà obtenus » invalides',
  searchMin: 'Tapez au moins 2 caractères',
  searchMax: 'La recherche ne peut pas dépasser 100 caractères',
  csvRequired: 'Joignez un fichier CSV (champ csv_file)',
  created: 'Liste créée avec succès',
  updated: 'Liste modifiée avec succès',
  deleted: 'Liste supprimée avec succès',
  copied: 'Liste copiée pour la nouvelle année scolaire',
  itemAdded: 'Manuel ajouté à la liste',
  itemUpdated: 'Manuel modifié',
  itemDeleted: 'Manuel retiré de la liste',
  itemReplaced: 'Manuel remplacé dans la liste',
  imported: 'Manuels importés',
  proposed: 'Merci ! Votre liste a été envoyée : un administrateur va la vérifier avant de la publier.',
  approved: 'Liste validée et publiée',
  rejected: 'Liste refusée',
  saved:
    'Liste enregistrée dans votre compte : vous serez prévenu quand un manuel manquant sera proposé près de chez vous.',
  unsaved: 'Liste retirée de votre compte',
  savedNotFound: 'Vous n’avez pas enregistré cette liste.',
  tooManySaved: 'Vous pouvez enregistrer au plus 20 listes.',
  basketNeedsCity:
    'Choisissez d’abord la ville où vous cherchez dans « Ma liste » : les paniers réunissent des vendeurs près de chez vous.',
} as const;
const m = classListMessages;

// ── enumerations and labels: ./labels.ts ──

// ── constants ────────────────────────────────────────────────────────────────────────────────

export const CLASS_LIST_ITEMS_MAX = 60;
export const CLASS_LISTS_PER_PAGE = 20;
/** Book cards shown under each book of « Ma liste » (the nearest first). */
export const CLASS_LIST_BOOKS_PER_ITEM = 3;
export const CLASS_LIST_BOOKS_PER_ITEM_MAX = 10;
export const SAVED_CLASS_LISTS_MAX = 20;
export const CLASS_LIST_SUGGESTIONS_MAX = 10;
export const CLASS_LIST_IMPORT_MAX_BYTES = 512 * 1024;
/** The CSV import's columns, in this order (`;` or `,`; a header line is recognised and skipped). */
export const classListCsvColumns = ['title', 'author', 'publisher', 'year', 'isbn', 'subject', 'required'] as const;

/** « 2026-2027 »: two consecutive years. */
export const schoolYearSchema = safeText({ error: m.schoolYearInvalid })
  .trim()
  .regex(/^\d{4}-\d{4}$/, m.schoolYearInvalid)
  .refine((v) => {
    const [a, b] = v.split('-').map(Number);
    return b === (a ?? 0) + 1 && (a ?? 0) >= 2000 && (a ?? 0) <= 2100;
  }, m.schoolYearInvalid);

/** The school year a date falls in (it starts in September): 2026-11-26 → « 2026-2027 ». */
export const schoolYearOf = (date: Date = new Date()) => {
  const y = date.getUTCFullYear();
  const start = date.getUTCMonth() >= 7 ? y : y - 1; // from August, the coming year's list
  return `${start}-${start + 1}`;
};

/** ISBN-10 or ISBN-13, hyphens and spaces removed, X upper-cased. */
export const normaliseIsbn = (v: string) => v.replace(/[-\s]/g, '').toUpperCase();
const isbnField = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
  safeText({ error: m.isbnInvalid })
    .trim()
    .transform(normaliseIsbn)
    .refine((v) => /^(\d{9}[\dX]|\d{13})$/.test(v), m.isbnInvalid)
    .nullable(),
);
const optionalLine = (max: number, message: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
    safeText().trim().max(max, message).nullable(),
  );

// ── answers ──────────────────────────────────────────────────────────────────────────────────

const refSchema = z.object({ id: z.number().int(), name: z.string() });
const cityRefSchema = z.object({ id: z.number().int(), name: z.string(), province: z.string().nullable() });

export const classListItemSchema = z
  .object({
    id: z.number().int(),
    list_id: z.number().int(),
    title: z.string(),
    author: z.string(),
    publisher: z.string().nullable(),
    /** « Édition 2019 », « Nouvelle édition »… */
    edition: z.string().nullable(),
    year: z.number().int().nullable(),
    isbn: z.string().nullable(),
    subject: refSchema.nullable(),
    requirement: z.enum(classListRequirements),
    requirement_label: z.string(),
    position: z.number().int(),
  })
  .meta({ id: 'ClassListItem' });
export type ClassListItem = z.infer<typeof classListItemSchema>;

export const classListSchema = z
  .object({
    id: z.number().int(),
    school_year: z.string(),
    level: refSchema,
    kind: z.enum(classListKinds),
    kind_label: z.string(),
    /** A school's own list: its name (null for the official list). */
    school_name: z.string().nullable(),
    city: cityRefSchema.nullable(),
    status: z.enum(classListStatuses),
    status_label: z.string(),
    /** Where the list comes from (« Liste IPN 2026-2027 », « illustrative »…). */
    source_note: z.string().nullable(),
    /** Set when an operator refused a proposal. */
    rejection_reason: z.string().nullable(),
    /** The member who proposed it (null when an operator wrote it). */
    proposed_by: z.string().uuid().nullable(),
    items_count: z.number().int(),
    required_count: z.number().int(),
    published_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'ClassList' });
export type ClassList = z.infer<typeof classListSchema>;

export const classListDetailSchema = classListSchema.extend({ items: z.array(classListItemSchema) });
export type ClassListDetail = z.infer<typeof classListDetailSchema>;

/** GET /class-lists and GET /admin/class-lists. */
export const classListPageSchema = z.object({ data: z.array(classListSchema), meta: pageMetaSchema });
export type ClassListPage = z.infer<typeof classListPageSchema>;
/** GET /class-lists/{id}, GET /admin/class-lists/{id}. */
export const classListResponseSchema = z.object({ list: classListDetailSchema });
/** Every write on a list answers the list as it is now. */
export const classListWriteResponseSchema = z.object({ message: z.string(), list: classListDetailSchema });
export type ClassListWriteResponse = z.infer<typeof classListWriteResponseSchema>;
export const classListItemWriteResponseSchema = z.object({ message: z.string(), item: classListItemSchema });

// ── requests ─────────────────────────────────────────────────────────────────────────────────

const itemFields = {
  title: safeText({ error: m.titleRequired }).trim().min(2, m.titleMin).max(200, m.titleMax),
  author: safeText().trim().max(150, m.authorMax),
  publisher: optionalLine(150, m.publisherMax),
  edition: optionalLine(80, m.editionMax),
  year: z.preprocess(
    (v) => (v === '' ? null : v),
    z.coerce
      .number({ error: m.yearInvalid })
      .int(m.yearInvalid)
      .min(1950, m.yearInvalid)
      .max(2100, m.yearInvalid)
      .nullable(),
  ),
  isbn: isbnField,
  subject_id: positiveId(m.subjectNotFound).nullable(),
  requirement: z.enum(classListRequirements, { error: m.requirementInvalid }),
  /** Absent: after the last one. */
  position: dbInt(m.positionInvalid).min(0, m.positionInvalid).max(1000, m.positionInvalid),
};

/** A book of a list (POST /admin/class-lists/{id}/items, and in a new list or a proposal). */
export const classListItemRequestSchema = z.object({
  ...itemFields,
  author: itemFields.author.default(''),
  publisher: itemFields.publisher.default(null),
  edition: itemFields.edition.default(null),
  year: itemFields.year.default(null),
  isbn: itemFields.isbn.default(null),
  subject_id: itemFields.subject_id.default(null),
  requirement: itemFields.requirement.default('required'),
  position: itemFields.position.optional(),
});
export type ClassListItemRequest = z.input<typeof classListItemRequestSchema>;
/** PUT /admin/class-lists/{id}/items/{item_id}: the fields given change. */
export const classListItemUpdateRequestSchema = z.object(itemFields).partial();
export type ClassListItemUpdateRequest = z.input<typeof classListItemUpdateRequestSchema>;

const listFields = {
  school_year: schoolYearSchema,
  level_id: positiveId(m.levelRequired),
  kind: z.enum(classListKinds, { error: m.kindInvalid }).default('official'),
  school_name: optionalLine(120, m.schoolMax).default(null),
  city_id: positiveId(m.cityNotFound).nullable().default(null),
  source_note: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
    multilineText().trim().max(500, m.sourceNoteMax).nullable(),
  ),
};
const schoolNamed = (v: { kind?: ClassListKind; school_name?: string | null }) =>
  v.kind !== 'school' || !!v.school_name;

/** POST /admin/class-lists (lists.manage): a list, with its books if known. */
export const classListCreateRequestSchema = z
  .object({
    ...listFields,
    source_note: listFields.source_note.default(null),
    /** An operator publishes at once or keeps a draft. */
    status: z.enum(['draft', 'published'], { error: m.statusInvalid }).default('draft'),
    items: z.array(classListItemRequestSchema).max(CLASS_LIST_ITEMS_MAX, m.tooManyItems).default([]),
  })
  .refine(schoolNamed, { message: m.schoolRequired, path: ['school_name'] });
export type ClassListCreateRequest = z.input<typeof classListCreateRequestSchema>;

/** PUT /admin/class-lists/{id} (lists.manage): the fields given change; items have their own calls. */
export const classListUpdateRequestSchema = z
  .object({
    school_year: listFields.school_year,
    level_id: listFields.level_id,
    kind: z.enum(classListKinds, { error: m.kindInvalid }),
    school_name: optionalLine(120, m.schoolMax),
    city_id: positiveId(m.cityNotFound).nullable(),
    source_note: listFields.source_note,
    status: z.enum(classListStatuses, { error: m.statusInvalid }),
  })
  .partial();
export type ClassListUpdateRequest = z.input<typeof classListUpdateRequestSchema>;

/** POST /admin/class-lists/{id}/copy: the same books for another school year (a draft). */
export const classListCopyRequestSchema = z.object({ school_year: schoolYearSchema });
export type ClassListCopyRequest = z.input<typeof classListCopyRequestSchema>;

/**
 * POST /class-lists/proposals (a signed-in member: a teacher, a school): the list goes to the
 * operators as `proposed`. `source_note` says who proposes it (« Enseignant de 6e au lycée … »).
 */
export const classListProposalRequestSchema = z
  .object({
    ...listFields,
    kind: z.enum(classListKinds, { error: m.kindInvalid }).default('school'),
    source_note: listFields.source_note.default(null),
    items: z.array(classListItemRequestSchema).min(1, m.itemsRequired).max(CLASS_LIST_ITEMS_MAX, m.tooManyItems),
  })
  .refine(schoolNamed, { message: m.schoolRequired, path: ['school_name'] });
export type ClassListProposalRequest = z.input<typeof classListProposalRequestSchema>;

/** POST /admin/class-lists/{id}/reject. */
export const classListRejectRequestSchema = z.object({
  reason: multilineText({ error: m.reasonRequired }).trim().min(5, m.reasonRequired).max(500, m.reasonMax),
});

/** GET /class-lists: published lists. `school` is part of a school's name (accents ignored). */
export const classListQuerySchema = z.object({
  level_id: positiveId(m.levelNotFound).optional(),
  school_year: schoolYearSchema.optional(),
  kind: z.enum(classListKinds, { error: m.kindInvalid }).optional(),
  school: safeText().trim().max(120).optional(),
  city_id: positiveId(m.cityNotFound).optional(),
  page: dbInt().min(1).max(10_000).default(1),
});
export type ClassListQuery = z.input<typeof classListQuerySchema>;

/** GET /admin/class-lists (lists.manage): every status. `q` looks in the school and the source. */
export const adminClassListQuerySchema = classListQuerySchema.extend({
  status: z.enum(classListStatuses, { error: m.statusInvalid }).optional(),
  q: safeText().trim().max(100).optional(),
});
export type AdminClassListQuery = z.input<typeof adminClassListQuerySchema>;

/**
 * POST /admin/class-lists/{id}/import?dry_run=true (multipart, field `csv_file`): lines
 * `title;author;publisher;year;isbn;subject;required` (subject by name among the level's
 * subjects; required: oui/non, 1/0, obligatoire/conseillé). The preview writes nothing.
 */
export const classListImportQuerySchema = z.object({ dry_run: queryBool.default(false) });
export const classListImportResponseSchema = csvImportReportSchema(
  z.object({
    line: z.number().int(),
    title: z.string(),
    author: z.string(),
    publisher: z.string().nullable(),
    year: z.number().int().nullable(),
    isbn: z.string().nullable(),
    subject: refSchema.nullable(),
    requirement: z.enum(classListRequirements),
  }),
);
export type ClassListImportReport = z.infer<typeof classListImportResponseSchema>;

// ── « Ma liste » ─────────────────────────────────────────────────────────────────────────────

/** "1,2" or ["1","2"] → [1, 2]. */
const idList = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(',').filter((x) => x.trim() !== '') : v),
  z.array(positiveId(m.ownedInvalid)).max(CLASS_LIST_ITEMS_MAX, m.ownedInvalid),
);

/**
 * GET /class-lists/{id}/availability?city_id&owned&per_item. `owned` (item ids) marks books
 * « déjà obtenu » for a visitor; a signed-in member who saved the list gets their saved marks
 * (and saved town) when `owned` (or `city_id`) is absent.
 */
export const classListAvailabilityQuerySchema = z.object({
  city_id: positiveId(m.cityNotFound).optional(),
  owned: idList.optional(),
  per_item: dbInt().min(1).max(CLASS_LIST_BOOKS_PER_ITEM_MAX).default(CLASS_LIST_BOOKS_PER_ITEM),
});
export type ClassListAvailabilityQuery = z.input<typeof classListAvailabilityQuerySchema>;

/** A listing as « Ma liste » shows it under a book: a small card (mobile data). */
export const classListBookCardSchema = z
  .object({
    id: z.number().int(),
    title: z.string(),
    author: z.string(),
    publisher: z.string().nullable(),
    /** Whole FCFA; 0 is a gift. */
    price: z.number().int(),
    condition: z.enum(bookConditions),
    condition_label: z.string(),
    is_negociable: z.boolean(),
    is_exchange_possible: z.boolean(),
    city: cityRefSchema.nullable(),
    thumbnail: z.string().nullable(),
    /** A lot: how many books it holds (its price is for all of them); null for a single book. */
    lot_size: z.number().int().nullable().default(null),
    match: z.enum(classListMatchKinds),
    proximity: z.enum(proximities),
    created_at: z.string(),
  })
  .meta({ id: 'ClassListBookCard' });
export type ClassListBookCard = z.infer<typeof classListBookCardSchema>;

export const classListItemAvailabilitySchema = z.object({
  item: classListItemSchema,
  /** Marked « déjà obtenu ». */
  owned: z.boolean(),
  /** `exact`: same ISBN or same title; `fallback`: same subject and level; `none`: nothing available. */
  match: z.enum(['exact', 'fallback', 'none']),
  /** Available listings of that kind (exact ones, else the fallback ones), everywhere. */
  count: z.number().int(),
  /** Of them, in the chosen town and in its province (the town included). */
  city_count: z.number().int(),
  province_count: z.number().int(),
  /** Cheapest of them sold alone, whole FCFA (0: a gift); null when none (a lot's price is for all its books). */
  cheapest_price: z.number().int().nullable(),
  /** Of them, lots holding this book among others. */
  lot_count: z.number().int().default(0),
  gift_count: z.number().int(),
  exchange_count: z.number().int(),
  /** The nearest (town, province, elsewhere), cheapest first within each; at most `per_item`. */
  books: z.array(classListBookCardSchema),
});
export type ClassListItemAvailability = z.infer<typeof classListItemAvailabilitySchema>;

export const classListAvailabilitySchema = z
  .object({
    list: classListSchema,
    city: cityRefSchema.nullable(),
    items: z.array(classListItemAvailabilitySchema),
    totals: z.object({
      items: z.number().int(),
      owned: z.number().int(),
      /** Books not owned yet. */
      missing: z.number().int(),
      /** Missing books with at least one exact listing. */
      found: z.number().int(),
      /** Missing books with only a same-subject listing, and with none. */
      fallback_only: z.number().int(),
      not_found: z.number().int(),
      /** The missing books at their cheapest exact listing, whole FCFA. */
      cost: z.number().int(),
      /** The same for the required books only. */
      required_cost: z.number().int(),
    }),
    /** The caller saved this list (false for a visitor). */
    saved: z.boolean(),
    /** The list's latest change (« Liste mise à jour le … »); null while it is as first written. */
    version: classListVersionSchema.nullable(),
    /** Books the family had for titles since withdrawn: no longer needed, not lost. */
    no_longer_needed: z.array(classListChangeSchema.shape.item),
  })
  .meta({ id: 'ClassListAvailability' });
export type ClassListAvailability = z.infer<typeof classListAvailabilitySchema>;

// ── listing-form autofill ────────────────────────────────────────────────────────────────────

/** GET /class-list-items/search?q&level_id: books of the published lists (title, author, publisher, ISBN). */
export const classListItemSearchQuerySchema = z.object({
  q: safeText({ error: m.searchMin }).trim().min(2, m.searchMin).max(100, m.searchMax),
  level_id: positiveId(m.levelNotFound).optional(),
});
export const classListItemSuggestionSchema = z.object({
  /** The book of the lists it stands for (the newest published list's): an exchange wish names it. */
  item_id: z.number().int(),
  title: z.string(),
  author: z.string(),
  publisher: z.string().nullable(),
  year: z.number().int().nullable(),
  isbn: z.string().nullable(),
  level: refSchema,
  subject: refSchema.nullable(),
  /** For the listing form's categories: the level, then the subject. */
  category_ids: z.array(z.number().int()),
});
export type ClassListItemSuggestion = z.infer<typeof classListItemSuggestionSchema>;
export const classListItemSearchResponseSchema = z.object({ suggestions: z.array(classListItemSuggestionSchema) });

// ── saved lists ──────────────────────────────────────────────────────────────────────────────

export const savedClassListSchema = z
  .object({
    list: classListSchema,
    city: cityRefSchema.nullable(),
    owned_item_ids: z.array(z.number().int()),
    /** Books of the list not owned yet. */
    missing_count: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'SavedClassList' });
export type SavedClassList = z.infer<typeof savedClassListSchema>;
/** GET /my-class-lists. */
export const savedClassListsResponseSchema = z.object({ data: z.array(savedClassListSchema) });
/** PUT /my-class-lists/{list_id}: save (or update) a published list with the town and the marks. */
export const savedClassListRequestSchema = z.object({
  city_id: positiveId(m.cityNotFound).nullable().default(null),
  owned_item_ids: z.array(positiveId(m.ownedInvalid)).max(CLASS_LIST_ITEMS_MAX, m.ownedInvalid).default([]),
});
export type SavedClassListRequest = z.input<typeof savedClassListRequestSchema>;
export const savedClassListResponseSchema = z.object({ message: z.string(), saved: savedClassListSchema });

// ── « Compléter ma liste »: baskets ──────────────────────────────────────────────────────────

/**
 * What a meeting with a seller is counted in the `balanced` basket, whole FCFA: about a taxi fare
 * there and back in the family's town; a trip to another town of the province costs more.
 */
export const BASKET_FARE_TOWN = 1000;
export const BASKET_FARE_PROVINCE = 3000;
export const basketGoals = ['cheapest', 'fewest_meetings', 'balanced'] as const;
export const basketGoalLabels: Record<(typeof basketGoals)[number], string> = {
  cheapest: 'Le moins cher',
  fewest_meetings: 'Le moins de rendez-vous',
  balanced: 'Le meilleur compromis',
};

const basketListingSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  /** Whole FCFA; 0 is a gift. For a lot, the price of all its books. */
  price: z.number().int(),
  /** The missing books of the list it holds (several for a lot). */
  items: z.array(refSchema),
  lot_size: z.number().int().nullable(),
  /** A swap: the family's book the seller asks in return (price 0); null or absent: bought. */
  exchange_for: refSchema.nullable().optional(),
});

const basketSellerSchema = z.object({
  seller: z.object({ id: z.string(), name: z.string(), username: z.string() }),
  /** What is bought from this seller, whole FCFA. */
  total: z.number().int(),
  listings: z.array(basketListingSchema),
});

export const classListBasketSchema = z
  .object({
    goal: z.enum(basketGoals),
    label: z.string(),
    /** The listings' prices, whole FCFA. */
    total: z.number().int(),
    /**
     * What the same books cost at their usual price: the median of the book's available listings
     * sold alone on the whole site (the lists carry no new price), else what is paid for it here.
     */
    reference_total: z.number().int(),
    /** reference_total − total: negative when the basket costs more than usual. */
    saving: z.number().int(),
    /** Distinct sellers to meet. */
    meetings: z.number().int(),
    /** The trips counted for them (BASKET_FARE_TOWN, BASKET_FARE_PROVINCE), whole FCFA. */
    fares: z.number().int(),
    /** Proven the best for its goal; false when the search stopped at its budget. */
    optimal: z.boolean(),
    /** The sellers to meet, by town: the family's town first. */
    towns: z.array(z.object({ city: cityRefSchema.nullable(), sellers: z.array(basketSellerSchema) })),
    /** The missing books no listing in the town or its province holds. */
    uncovered: z.array(refSchema),
  })
  .meta({ id: 'ClassListBasket' });
export type ClassListBasket = z.infer<typeof classListBasketSchema>;

/** GET /my-class-lists/{list_id}/baskets: three ways to buy the missing books of a saved list. */
export const classListBasketsSchema = z
  .object({
    list_id: z.number().int(),
    city: cityRefSchema,
    /** The books of the list not owned yet. */
    missing: z.number().int(),
    fares: z.object({ town: z.number().int(), province: z.number().int() }),
    /** cheapest, fewest_meetings, balanced; none when nothing is missing or nothing is offered. */
    baskets: z.array(classListBasketSchema),
  })
  .meta({ id: 'ClassListBaskets' });
export type ClassListBaskets = z.infer<typeof classListBasketsSchema>;

// ── the back office's coverage ───────────────────────────────────────────────────────────────

/** The saved lists one coverage looks at (the latest saved first); past it, `truncated`. */
export const CLASS_LIST_COVERAGE_MAX_LISTS = 1000;
/** Titles most wanted, in all and per level and town. */
export const CLASS_LIST_COVERAGE_TOP = 10;
export const CLASS_LIST_COVERAGE_ROW_TOP = 3;

/** GET /admin/class-lists/coverage (lists.manage): the current school year when none is given. */
export const classListCoverageQuerySchema = z.object({ school_year: schoolYearSchema.optional() });
export type ClassListCoverageQuery = z.input<typeof classListCoverageQuerySchema>;

/** A book still missing (not owned) that no listing in the family's town or province holds. */
const wantedTitleSchema = z.object({
  title: z.string(),
  /** The families (saved lists) missing it with nothing to buy nearby. */
  families: z.number().int(),
});

export const classListCoverageRowSchema = z
  .object({
    level: refSchema,
    /** The town the families saved their list for; null: none chosen (no basket possible). */
    city: cityRefSchema.nullable(),
    /** Saved lists of this level and town. */
    families: z.number().int(),
    /** Those whose every missing book has at least one listing nearby (or nothing missing). */
    coverable: z.number().int(),
    /** coverable / families, 0 to 1. */
    coverable_share: z.number(),
    /** The median saving of the cheapest basket among the coverable lists missing something, whole FCFA. */
    median_saving: z.number().int().nullable(),
    most_wanted: z.array(wantedTitleSchema),
  })
  .meta({ id: 'ClassListCoverageRow' });
export type ClassListCoverageRow = z.infer<typeof classListCoverageRowSchema>;

export const classListCoverageSchema = z
  .object({
    school_year: z.string(),
    /** By level (the hierarchy's order), then town. */
    rows: z.array(classListCoverageRowSchema),
    /** The top CLASS_LIST_COVERAGE_TOP over every level and town. */
    most_wanted: z.array(wantedTitleSchema),
    /** Saved lists looked at; `truncated` when the year holds more than CLASS_LIST_COVERAGE_MAX_LISTS. */
    lists: z.number().int(),
    truncated: z.boolean(),
    computed_at: z.string(),
  })
  .meta({ id: 'ClassListCoverage' });
export type ClassListCoverage = z.infer<typeof classListCoverageSchema>;

// ── events ───────────────────────────────────────────────────────────────────────────────────

/**
 * catalog.class_list.match_found: a new listing answers a missing book of a member's saved
 * list, in their town or province. Once per (saved list, book of the list, listing).
 */
export const classListMatchFoundEventSchema = z.object({
  user_id: z.string().uuid(),
  list: z.object({
    id: z.number().int(),
    school_year: z.string(),
    level_name: z.string(),
    school_name: z.string().nullable(),
  }),
  item: z.object({ id: z.number().int(), title: z.string() }),
  book: z.object({
    id: z.number().int(),
    title: z.string(),
    price: z.number().int(),
    is_exchange_possible: z.boolean(),
    city_name: z.string().nullable(),
  }),
  /** The town the member saved the list for. */
  city: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  proximity: z.enum(proximities),
  match: z.enum(classListMatchKinds),
  at: z.string(),
});
export type ClassListMatchFoundEvent = z.infer<typeof classListMatchFoundEventSchema>;

/** catalog.class_list.published / catalog.class_list.rejected: a proposal's outcome (to tell its author). */
export const classListReviewedEventSchema = z.object({
  list_id: z.number().int(),
  school_year: z.string(),
  level_name: z.string(),
  school_name: z.string().nullable(),
  /** The member who proposed it; null for an operator's own list. */
  proposed_by: z.string().uuid().nullable(),
  reason: z.string().nullable(),
  at: z.string(),
});
export type ClassListReviewedEvent = z.infer<typeof classListReviewedEventSchema>;
