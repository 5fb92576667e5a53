import { z } from 'zod';
import { positiveId } from './common.ts';
import { exchangeSuggestionKinds, exchangeSuggestionStatuses, exchangeWishKinds } from './labels.ts';

/**
 * Exchange matching (services/catalog/API.md "Exchange matching"). A pupil who
 * finished 6e holds books that the next 6e needs, and needs the 5e books someone else holds.
 *
 * - What a member **offers**: their available listings open to exchange (`is_exchange_possible`).
 * - What a member **looks for** (a wish): a book of a class list (`item`), or a level and a
 *   subject (`subject`: « 5e · Mathématiques »).
 * - The matcher finds members in the same town, else the same province, where each has what the
 *   other looks for (a **pair**), and cycles of three (A gives to B, B to C, C to A) for members
 *   no pair serves. A suggestion is a list of legs (who gives which listing to whom).
 * - Each member accepts or declines. When all have accepted, a conversation opens for each leg
 *   (about the listing, between its giver and its receiver). A declined suggestion, or one whose
 *   legs are the same as a declined one, is never suggested again.
 */

export const exchangeMessages = {
  wishNotFound: 'Souhait introuvable.',
  wishInvalid: 'Choisissez un manuel d’une liste de classe, ou un niveau et une matière',
  itemNotFound: 'Ce manuel de liste est introuvable.',
  levelNotFound: 'Ce niveau est introuvable.',
  subjectNotFound: 'Cette matière est introuvable.',
  wishDuplicate: 'Vous recherchez déjà ce manuel.',
  tooManyWishes: 'Vous pouvez rechercher au plus 30 manuels à la fois.',
  wishAdded: 'Souhait enregistré : nous vous proposerons les échanges possibles près de chez vous.',
  wishRemoved: 'Souhait retiré',
  suggestionNotFound: 'Proposition d’échange introuvable.',
  notOpen: 'Cette proposition n’est plus ouverte.',
  alreadyAnswered: 'Vous avez déjà répondu à cette proposition.',
  accepted: 'Vous avez accepté l’échange : les autres membres doivent accepter aussi.',
  allAccepted: 'Tout le monde a accepté : vos conversations sont ouvertes.',
  declined: 'Proposition refusée : elle ne vous sera plus proposée.',
} as const;
const m = exchangeMessages;

/** Wishes a member may hold at once. */
export const EXCHANGE_WISHES_MAX = 30;
/** An open suggestion nobody finished answering lapses after this many days. */
export const EXCHANGE_SUGGESTION_DAYS = 14;

const named = z.object({ id: z.number().int(), name: z.string() });

export const exchangeWishSchema = z
  .object({
    id: z.number().int(),
    kind: z.enum(exchangeWishKinds),
    /** « Mathématiques 6e – Collection Excellence » or « 5e · Mathématiques ». */
    label: z.string(),
    class_list_item_id: z.number().int().nullable(),
    level: named.nullable(),
    subject: named.nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'ExchangeWish' });
export type ExchangeWish = z.infer<typeof exchangeWishSchema>;

/** POST /exchanges/wishes: a book of a class list, or a level and a subject. */
export const exchangeWishRequestSchema = z.union(
  [
    z.object({ class_list_item_id: positiveId(m.itemNotFound) }),
    z.object({ level_id: positiveId(m.levelNotFound), subject_id: positiveId(m.subjectNotFound) }),
  ],
  { error: m.wishInvalid },
);
export type ExchangeWishRequest = z.input<typeof exchangeWishRequestSchema>;

export const exchangeMemberSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  city: z.string().nullable(),
});

/** One leg: `from` gives `book` to `to`, who looked for it (`wish`). */
export const exchangeLegSchema = z.object({
  from: exchangeMemberSchema,
  to: exchangeMemberSchema,
  book: z.object({
    id: z.number().int(),
    title: z.string(),
    price: z.number().int(),
    condition_label: z.string(),
    thumbnail: z.string().nullable(),
  }),
  wish: z.string(),
  /** Where to talk about it once all accepted (/messages/{bookId}/{userId} for the viewer). */
  conversation_url: z.string().nullable(),
});
export type ExchangeLeg = z.infer<typeof exchangeLegSchema>;

export const exchangeSuggestionSchema = z
  .object({
    id: z.string().uuid(),
    kind: z.enum(exchangeSuggestionKinds),
    status: z.enum(exchangeSuggestionStatuses),
    status_label: z.string(),
    /** « Libreville » or « Estuaire » (the province, when the members are in different towns). */
    area: z.string(),
    legs: z.array(exchangeLegSchema),
    /** Members who accepted so far. */
    accepted_by: z.array(z.string().uuid()),
    /** The viewer's answer: null while they have not answered. */
    my_answer: z.enum(['accepted', 'declined']).nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'ExchangeSuggestion' });
export type ExchangeSuggestion = z.infer<typeof exchangeSuggestionSchema>;

export const exchangeOverviewSchema = z.object({
  /** The member's listings open to exchange (what they offer). */
  offers: z.array(z.object({ id: z.number().int(), title: z.string(), price: z.number().int() })),
  wishes: z.array(exchangeWishSchema),
  suggestions: z.array(exchangeSuggestionSchema),
});
export type ExchangeOverview = z.infer<typeof exchangeOverviewSchema>;
export const exchangeWishResponseSchema = z.object({ message: z.string(), wish: exchangeWishSchema });
export const exchangeSuggestionResponseSchema = z.object({
  message: z.string(),
  suggestion: exchangeSuggestionSchema,
});

// ── events ───────────────────────────────────────────────────────────────────────────────────

const legEventSchema = z.object({
  from_user_id: z.string().uuid(),
  to_user_id: z.string().uuid(),
  book_id: z.number().int(),
  book_title: z.string(),
});

/** catalog.exchange.suggested / .accepted: notifications tells the members; messaging opens the talks. */
export const exchangeSuggestionEventSchema = z.object({
  suggestion_id: z.string().uuid(),
  kind: z.enum(exchangeSuggestionKinds),
  area: z.string(),
  legs: z.array(legEventSchema),
  at: z.string(),
});
export type ExchangeSuggestionEvent = z.infer<typeof exchangeSuggestionEventSchema>;
