/**
 * The exchange matcher, free of I/O: who could give what to whom, then pairs and cycles of
 * three. exchanges.ts beside it loads the inputs in three queries and stores
 * what this returns.
 *
 * Members only meet within a province (a book travels from Owendo to Libreville, not from
 * Franceville to Port-Gentil); a suggestion inside one town beats one across a province.
 */

export interface MatcherMember {
  id: string;
  cityId: number | null;
  provinceId: number | null;
}

/** A listing open to exchange. */
export interface MatcherOffer {
  bookId: number;
  userId: string;
  /** cartable_title_key(title) and cartable_isbn_key(isbn): accents, case and punctuation out. */
  titleKey: string;
  isbnKey: string | null;
  categoryIds: number[];
  cityId: number | null;
  provinceId: number | null;
}

/** What a member looks for: a book of a class list, or a level and a subject. */
export interface MatcherWish {
  id: number;
  userId: string;
  label: string;
  titleKey: string | null;
  isbnKey: string | null;
  levelId: number | null;
  subjectId: number | null;
}

export interface MatchedLeg {
  from: string;
  to: string;
  bookId: number;
  wishId: number;
  wishLabel: string;
}

export interface MatchedSuggestion {
  kind: 'pair' | 'cycle';
  legs: MatchedLeg[];
  /** Everyone in one town (else one province). */
  sameCity: boolean;
  cityId: number | null;
  provinceId: number | null;
  /** The legs in a canonical order: two suggestions with the same signature are the same. */
  signature: string;
}

/** A title of a list this long or more also matches the titles that start with it (« … 6e – édition 2024 »). */
export const TITLE_PREFIX_MIN = 12;
/** Listings kept per giver and receiver, best first. */
const OPTIONS_PER_GIVER = 4;
/** Listings a wish considers, nearest first. */
export const CANDIDATES_PER_WISH = 100;
/** Givers looked at per member at each step of the search for cycles. */
export const CYCLE_BREADTH = 25;

function* first<T>(items: Iterable<T>, n: number) {
  if (n <= 0) return;
  let i = 0;
  for (const item of items) {
    yield item;
    if (++i >= n) return;
  }
}

export const suggestionSignature = (legs: Array<Pick<MatchedLeg, 'from' | 'to' | 'bookId'>>) =>
  legs
    .map((l) => `${l.from}>${l.to}:${l.bookId}`)
    .sort()
    .join('|');

const pairKey = (a: number, b: number) => (a < b ? `${a}:${b}` : `${b}:${a}`);

/** Whether a listing answers a wish. */
export function satisfies(offer: MatcherOffer, wish: MatcherWish) {
  if (wish.isbnKey && offer.isbnKey && wish.isbnKey === offer.isbnKey) return true;
  if (wish.titleKey) {
    if (offer.titleKey === wish.titleKey) return true;
    if (wish.titleKey.length >= TITLE_PREFIX_MIN && offer.titleKey.startsWith(wish.titleKey)) return true;
    return false;
  }
  return (
    wish.levelId !== null &&
    wish.subjectId !== null &&
    offer.categoryIds.includes(wish.levelId) &&
    offer.categoryIds.includes(wish.subjectId)
  );
}

interface Edge {
  /** The receiver's wish, answered by… */
  wish: MatcherWish;
  /** …this listing of the giver. */
  offer: MatcherOffer;
}

/**
 * Finds pairs, then cycles of three among the members no pair serves. Each listing goes into at
 * most one suggestion, each member into at most one per run; `taken` holds listings already in
 * an open suggestion, `refused` the signatures already declined (never suggested again) or open.
 */
export function findExchanges(
  members: MatcherMember[],
  offers: MatcherOffer[],
  wishes: MatcherWish[],
  {
    taken = new Set<number>(),
    refused = new Set<string>(),
    blocked = () => false,
  }: {
    taken?: Set<number>;
    refused?: Set<string>;
    /** Whether a block stands between two members (either way): they are never put together. */
    blocked?: (a: string, b: string) => boolean;
  } = {},
): MatchedSuggestion[] {
  const where = new Map(members.map((m) => [m.id, m]));
  const province = (userId: string) => where.get(userId)?.provinceId ?? null;

  // Listings by what finds them, within their province: ISBN, title, and the pair of
  // categories a listing carries (its level and its subject) for level + subject wishes: one map
  // read per wish, never a scan of the whole country's listings.
  const byIsbn = new Map<string, MatcherOffer[]>();
  const byTitle = new Map<string, MatcherOffer[]>();
  const byCategoryPair = new Map<string, MatcherOffer[]>();
  const titlesByProvince = new Map<number, MatcherOffer[]>();
  const offersOf = new Map<string, MatcherOffer[]>();
  const push = <K>(map: Map<K, MatcherOffer[]>, key: K, offer: MatcherOffer) => {
    const list = map.get(key);
    if (list) list.push(offer);
    else map.set(key, [offer]);
  };
  for (const offer of [...offers].sort((x, y) => x.bookId - y.bookId)) {
    if (taken.has(offer.bookId)) continue;
    const p = province(offer.userId);
    // A listing away from its member's province is not part of their exchanges.
    if (p === null || (offer.provinceId !== null && offer.provinceId !== p)) continue;
    push(offersOf, offer.userId, offer);
    if (offer.isbnKey) push(byIsbn, `${p}|${offer.isbnKey}`, offer);
    push(byTitle, `${p}|${offer.titleKey}`, offer);
    push(titlesByProvince, p, offer);
    const categories = [...new Set(offer.categoryIds)];
    for (let i = 0; i < categories.length; i++)
      for (let j = i + 1; j < categories.length; j++)
        push(byCategoryPair, `${p}|${pairKey(categories[i]!, categories[j]!)}`, offer);
  }
  for (const list of titlesByProvince.values())
    list.sort((a, b) => (a.titleKey < b.titleKey ? -1 : a.titleKey > b.titleKey ? 1 : 0));

  const candidatesFor = (wish: MatcherWish, p: number): MatcherOffer[] => {
    if (!wish.titleKey && !wish.isbnKey) {
      return wish.levelId !== null && wish.subjectId !== null
        ? (byCategoryPair.get(`${p}|${pairKey(wish.levelId, wish.subjectId)}`) ?? [])
        : [];
    }
    const found = new Set<MatcherOffer>();
    if (wish.isbnKey) for (const o of byIsbn.get(`${p}|${wish.isbnKey}`) ?? []) found.add(o);
    if (wish.titleKey) {
      if (wish.titleKey.length >= TITLE_PREFIX_MIN) {
        // Every title starting with the key: a binary search, then a walk.
        const sorted = titlesByProvince.get(p) ?? [];
        let lo = 0;
        let hi = sorted.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (sorted[mid]!.titleKey < wish.titleKey) lo = mid + 1;
          else hi = mid;
        }
        for (let i = lo; i < sorted.length && sorted[i]!.titleKey.startsWith(wish.titleKey); i++) found.add(sorted[i]!);
      } else for (const o of byTitle.get(`${p}|${wish.titleKey}`) ?? []) found.add(o);
    }
    return [...found];
  };

  // Whether `giver` looks for something `receiver` offers: such a giver can make a pair.
  const wishesOf = new Map<string, MatcherWish[]>();
  for (const wish of wishes) {
    const list = wishesOf.get(wish.userId);
    if (list) list.push(wish);
    else wishesOf.set(wish.userId, [wish]);
  }
  const reciprocal = new Map<string, boolean>();
  const wantsFrom = (giver: string, receiver: string) => {
    const key = `${giver}|${receiver}`;
    let known = reciprocal.get(key);
    if (known === undefined) {
      const theirs = wishesOf.get(giver) ?? [];
      known = (offersOf.get(receiver) ?? []).some((o) => theirs.some((w) => satisfies(o, w)));
      reciprocal.set(key, known);
    }
    return known;
  };

  // receiver → giver → the giver's listings that answer a wish of the receiver, best first.
  const gets = new Map<string, Map<string, Edge[]>>();
  for (const wish of wishes) {
    const p = province(wish.userId);
    if (p === null) continue;
    const town = where.get(wish.userId)?.cityId ?? null;
    // A bounded number of answers per wish (at the rentrée a « 6e · Mathématiques » wish has
    // hundreds in Estuaire): first those whose member looks for something this member offers
    // (a pair), then the same town, then the rest of the province.
    const rank = (o: MatcherOffer) =>
      (wantsFrom(o.userId, wish.userId) ? 0 : 2) + (o.cityId !== null && o.cityId === town ? 0 : 1);
    const ranked: MatcherOffer[][] = [[], [], [], []];
    for (const o of candidatesFor(wish, p)) if (o.userId !== wish.userId) ranked[rank(o)]!.push(o);
    const nearest = ranked.flat().slice(0, CANDIDATES_PER_WISH);
    for (const offer of nearest) {
      const givers = gets.get(wish.userId) ?? new Map<string, Edge[]>();
      gets.set(wish.userId, givers);
      const options = givers.get(offer.userId) ?? [];
      givers.set(offer.userId, options);
      if (!options.some((e) => e.offer.bookId === offer.bookId)) options.push({ wish, offer });
    }
  }
  for (const [receiver, givers] of gets) {
    const town = where.get(receiver)?.cityId ?? null;
    const near = (o: MatcherOffer) => (o.cityId !== null && o.cityId === town ? 0 : 1);
    for (const options of givers.values()) {
      options.sort((x, y) => near(x.offer) - near(y.offer) || x.offer.bookId - y.offer.bookId);
      // A few choices per giver are plenty to step around declined suggestions.
      options.length = Math.min(options.length, OPTIONS_PER_GIVER);
    }
  }

  const busyMembers = new Set<string>();
  const busyBooks = new Set<number>();
  const suggestions: MatchedSuggestion[] = [];
  const leg = (to: string, from: string, edge: Edge): MatchedLeg => ({
    from,
    to,
    bookId: edge.offer.bookId,
    wishId: edge.wish.id,
    wishLabel: edge.wish.label,
  });
  /** The first combination of listings along `people` (each receives from the next) that is free and never refused. */
  const consider = (kind: 'pair' | 'cycle', people: string[]) => {
    if (people.some((p) => busyMembers.has(p))) return false;
    if (people.some((a, i) => people.some((b, j) => i < j && blocked(a, b)))) return false;
    const choices = people.map((to, i) => {
      const from = people[(i + 1) % people.length]!;
      return (gets.get(to)?.get(from) ?? []).filter((e) => !busyBooks.has(e.offer.bookId)).map((e) => leg(to, from, e));
    });
    const pick = (i: number, chosen: MatchedLeg[]): MatchedLeg[] | null => {
      if (i === choices.length) return refused.has(suggestionSignature(chosen)) ? null : chosen;
      for (const option of choices[i]!) {
        const found = pick(i + 1, [...chosen, option]);
        if (found) return found;
      }
      return null;
    };
    const legs = pick(0, []);
    if (!legs) return false;
    const cities = new Set(people.map((p) => where.get(p)?.cityId ?? null));
    const sameCity = cities.size === 1 && !cities.has(null);
    suggestions.push({
      kind,
      legs,
      sameCity,
      cityId: sameCity ? (where.get(people[0]!)?.cityId ?? null) : null,
      provinceId: province(people[0]!),
      signature: suggestionSignature(legs),
    });
    for (const p of people) busyMembers.add(p);
    for (const l of legs) busyBooks.add(l.bookId);
    return true;
  };

  // Pairs, those within one town first.
  const pairs: Array<{ a: string; b: string; sameCity: boolean }> = [];
  for (const [a, givers] of gets) {
    for (const b of givers.keys()) {
      if (a < b && gets.get(b)?.has(a)) {
        const ca = where.get(a)?.cityId ?? null;
        pairs.push({ a, b, sameCity: ca !== null && ca === (where.get(b)?.cityId ?? null) });
      }
    }
  }
  pairs.sort((x, y) => Number(y.sameCity) - Number(x.sameCity) || (x.a + x.b < y.a + y.b ? -1 : 1));
  for (const { a, b } of pairs) consider('pair', [a, b]);

  // Cycles of three for members left: b gives to a, c gives to b, a gives to c.
  const left = [...gets.keys()].filter((m) => !busyMembers.has(m)).sort();
  for (const a of left) {
    if (busyMembers.has(a)) continue;
    // The nearest givers only (their order in the maps): bounded work per member.
    search: for (const b of first(gets.get(a)!.keys(), CYCLE_BREADTH)) {
      if (b === a || busyMembers.has(b)) continue;
      for (const c of first(gets.get(b)?.keys() ?? [], CYCLE_BREADTH)) {
        if (c === a || c === b || busyMembers.has(c)) continue;
        if (!gets.get(c)?.has(a)) continue;
        if (consider('cycle', [a, b, c])) break search;
      }
    }
  }
  return suggestions;
}
