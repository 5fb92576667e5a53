import { z } from 'zod';
import { positiveId } from './common.ts';

/**
 * A class list's versions: the IPN withdraws and replaces titles from one year to the next, and
 * often after families have started buying (DOMAIN.md). Every change of a list's books by an
 * operator (a book added, withdrawn, replaced by another) or by a CSV import is a new version,
 * written with the change; the families who saved the list and the sellers of a withdrawn book
 * hear of it, and « Ma liste » always reads the current books.
 */

export const classListChangeKinds = ['added', 'withdrawn', 'replaced'] as const;
export type ClassListChangeKind = (typeof classListChangeKinds)[number];
export const classListChangeLabels: Record<ClassListChangeKind, string> = {
  added: 'Ajouté',
  withdrawn: 'Retiré',
  replaced: 'Remplacé',
};

const changedItemSchema = z.object({ id: z.number().int(), title: z.string(), isbn: z.string().nullable() });

/** One book of a version's change; `previous` is the book a replacement took the place of. */
export const classListChangeSchema = z.object({
  kind: z.enum(classListChangeKinds),
  item: changedItemSchema,
  previous: changedItemSchema.nullable(),
});
export type ClassListChange = z.infer<typeof classListChangeSchema>;

export const classListVersionSources = ['admin', 'import'] as const;

export const classListVersionSchema = z
  .object({
    /** 1 is the list as first written; every change adds one. */
    number: z.number().int(),
    source: z.enum(classListVersionSources),
    changes: z.array(classListChangeSchema),
    created_at: z.string(),
  })
  .meta({ id: 'ClassListVersion' });
export type ClassListVersion = z.infer<typeof classListVersionSchema>;

/** GET /admin/class-lists/{id}/versions: the newest first. */
export const classListVersionsResponseSchema = z.object({ data: z.array(classListVersionSchema) });
export type ClassListVersionsResponse = z.infer<typeof classListVersionsResponseSchema>;

/** A list as a listing's page names it: « 6e · 2026-2027 » (and the school for a school's list). */
export const classListRefSchema = z.object({
  id: z.number().int(),
  level_id: z.number().int(),
  school_year: z.string(),
  level_name: z.string(),
  school_name: z.string().nullable(),
});
export type ClassListRef = z.infer<typeof classListRefSchema>;

/**
 * GET /books/{id}/class-lists: the published lists whose current books name this listing's book
 * (same rule as « Ma liste »), and those that withdrew it and do not name it any more.
 */
export const bookClassListsSchema = z
  .object({
    named: z.array(classListRefSchema),
    withdrawn: z.array(classListRefSchema.extend({ withdrawn_at: z.string() })),
  })
  .meta({ id: 'BookClassLists' });
export type BookClassLists = z.infer<typeof bookClassListsSchema>;

/** At most this many listings per GET /class-lists/withdrawn-books (a page of the catalogue). */
export const WITHDRAWN_BOOKS_MAX = 48;
const bookIdsMessage = 'Liste d’annonces invalide';

/** GET /class-lists/withdrawn-books?ids=1,2,3: the cards of a page of listings. */
export const withdrawnBooksQuerySchema = z.object({
  ids: z.preprocess(
    (v) => (typeof v === 'string' ? v.split(',').filter((x) => x.trim() !== '') : v),
    z.array(positiveId(bookIdsMessage)).min(1, bookIdsMessage).max(WITHDRAWN_BOOKS_MAX, bookIdsMessage),
  ),
});
export type WithdrawnBooksQuery = z.input<typeof withdrawnBooksQuerySchema>;

/** For each of these listings that a published list withdrew (and names no more), those lists. */
export const withdrawnBooksResponseSchema = z.object({
  data: z.array(z.object({ book_id: z.number().int(), withdrawn: z.array(classListRefSchema) })),
});
export type WithdrawnBooksResponse = z.infer<typeof withdrawnBooksResponseSchema>;

// ── events ───────────────────────────────────────────────────────────────────────────────────

/** catalog.class_list.changed: a new version of a list, with what changed. */
export const classListChangedEventSchema = z.object({
  list: classListRefSchema,
  status: z.string(),
  version: z.number().int(),
  source: z.enum(classListVersionSources),
  changes: z.array(classListChangeSchema),
  at: z.string(),
});
export type ClassListChangedEvent = z.infer<typeof classListChangedEventSchema>;

/** catalog.class_list.saved_changed: a published list a member saved changed (one event per member). */
export const classListSavedChangedEventSchema = z.object({
  user_id: z.string().uuid(),
  list: classListRefSchema,
  version: z.number().int(),
  changes: z.array(classListChangeSchema),
  at: z.string(),
});
export type ClassListSavedChangedEvent = z.infer<typeof classListSavedChangedEventSchema>;

/**
 * catalog.class_list.listing_withdrawn: an available listing's book was withdrawn from a published
 * list (and the list names it no more): its seller hears it will not sell for that level.
 */
export const classListListingWithdrawnEventSchema = z.object({
  user_id: z.string().uuid(),
  list: classListRefSchema,
  version: z.number().int(),
  book: z.object({ id: z.number().int(), title: z.string() }),
  item: z.object({ id: z.number().int(), title: z.string() }),
  at: z.string(),
});
export type ClassListListingWithdrawnEvent = z.infer<typeof classListListingWithdrawnEventSchema>;
