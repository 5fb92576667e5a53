import {
  BASKET_FARE_PROVINCE,
  BASKET_FARE_TOWN,
  basketGoalLabels,
  type ClassListBasket,
  type ClassListBaskets,
  classListMessages as m,
} from '@cartable/contracts';
import { conflict, type Db, notFound } from '@cartable/service-kit';
import { memberCards } from '../../members/index.ts';
import { townNames } from '../../taxonomy/index.ts';
import * as queries from '../db/queries.ts';
import {
  BASKET_GOALS,
  type BasketGoal,
  type BasketOffer,
  type BasketProblem,
  type BasketSolution,
  solveBasket,
} from './basket.ts';

/**
 * « Compléter ma liste »: the member's saved list (its town, the books they own) turned into three
 * baskets of listings (domain/basket.ts says the model). Lots count for all the missing books they
 * hold, gifts at 0, swaps at 0 (a listing open to exchange whose seller looks for a book the family
 * owns: swapOffers). A listing its seller has reserved for the family by proposing the deal is
 * still theirs to take (domain/holds.ts).
 */
export type CandidateOffer = BasketOffer & {
  cityId: number | null;
  inLot: boolean;
  /** The seller would swap it (« échange possible »). */
  exchange: boolean;
  /** For a swap: the family's book the seller asks in return (a class list item). */
  gives?: number;
};

/**
 * Which of these books (class list items) each seller looks for in exchange: the exchanges
 * module's wishes, wired by the composition root (exchanges depends on class lists).
 */
export type ExchangeWishes = (
  db: Db,
  sellerIds: string[],
  itemIds: number[],
) => Promise<Array<{ seller_id: string; item_id: number }>>;

/**
 * The candidates' rows as the solver's offers (one per listing, with the missing books it holds),
 * each book's median price on the site, and each seller's nearest trip (0: the family's town).
 */
export function candidateOffers(rows: queries.BasketCandidateRow[]) {
  const median = new Map<number, number>();
  const offers = new Map<number, CandidateOffer>();
  const sellerProx = new Map<string, number>();
  for (const r of rows) {
    const itemId = Number(r.item_id);
    if (r.median !== null) median.set(itemId, Number(r.median));
    if (r.id === null || r.seller_id === null) continue;
    const id = Number(r.id);
    const offer = offers.get(id) ?? {
      id,
      sellerId: r.seller_id,
      price: Number(r.price),
      items: [],
      cityId: r.city_id,
      inLot: Boolean(r.in_lot),
      exchange: Boolean(r.exchange),
    };
    offer.items.push(itemId);
    offers.set(id, offer);
    sellerProx.set(r.seller_id, Math.min(sellerProx.get(r.seller_id) ?? 1, Number(r.prox)));
  }
  return { median, offers, sellerProx };
}

/**
 * What a basket's books would cost at their usual price: the median on the site, or the listing's
 * price split over the books it holds when the book has no median; each book counted once, from
 * the first listing holding it. The saving is this minus the basket's total.
 */
export function referenceOf(chosen: BasketOffer[], median: Map<number, number>) {
  let reference = 0;
  const counted = new Set<number>();
  for (const o of chosen) {
    for (const i of o.items) {
      if (counted.has(i)) continue;
      counted.add(i);
      reference += median.get(i) ?? Math.round(o.price / o.items.length);
    }
  }
  return reference;
}

/**
 * Swaps: a listing open to exchange whose seller looks for a book the family owns is also offered
 * as a swap, at 0 FCFA, giving that book (the first one wished, in the list's order). Its id is the
 * listing's negated, so that the solver holds the purchase and the swap apart.
 */
export async function swapOffers(
  db: Db,
  wishes: ExchangeWishes | undefined,
  offers: CandidateOffer[],
  owned: number[],
) {
  const open = offers.filter((o) => o.exchange && o.price > 0);
  if (!wishes || !open.length || !owned.length) return [];
  const wanted = new Map<string, number[]>();
  for (const w of await wishes(db, [...new Set(open.map((o) => o.sellerId))], owned)) {
    wanted.set(w.seller_id, [...(wanted.get(w.seller_id) ?? []), Number(w.item_id)]);
  }
  return open.flatMap((o): CandidateOffer[] => {
    const gives = owned.find((i) => wanted.get(o.sellerId)?.includes(i));
    return gives === undefined ? [] : [{ ...o, id: -o.id, price: 0, gives }];
  });
}

/** Solves past which swaps that ask the same book are settled by dropping the later one (not proven). */
const SWAP_SOLVES = 16;

/** Whether basket a beats basket b for the goal (domain/basket.ts: what each goal weighs first). */
function beats(goal: BasketGoal, a: BasketSolution, b: BasketSolution) {
  const key = (s: BasketSolution) =>
    goal === 'cheapest'
      ? [s.total, s.meetings]
      : goal === 'fewest_meetings'
        ? [s.meetings, s.total]
        : [s.total + s.fares, s.meetings];
  const [x, y] = [key(a), key(b)];
  return x[0]! < y[0]! || (x[0] === y[0] && x[1]! < y[1]!);
}

/**
 * The family gives each of its books once, which the solver does not know: when a basket asks the
 * same book for two swaps, each of that book's swaps is tried alone (the others dropped) and the
 * best basket kept. Every basket giving each book once keeps the swap it uses in one branch, so
 * the best of the branches is the best basket. Past SWAP_SOLVES solves, a clash drops its later
 * swap instead and the basket is not proven the best.
 */
export function solveWithSwaps(problem: BasketProblem, goal: BasketGoal, gives: Map<number, number>): BasketSolution {
  let solves = 0;
  let settled = false;
  const search = (offers: BasketOffer[]): BasketSolution => {
    solves++;
    const solution = solveBasket({ ...problem, offers }, goal);
    const given = new Map<number, number>();
    let clash: { book: number; first: number } | undefined;
    for (const o of solution.offers) {
      const book = gives.get(o.id);
      if (book === undefined) continue;
      const first = given.get(book);
      if (first !== undefined) {
        clash = { book, first };
        break;
      }
      given.set(book, o.id);
    }
    if (!clash) return solution;
    const { book, first } = clash;
    if (solves >= SWAP_SOLVES) {
      settled = true;
      return search(offers.filter((o) => gives.get(o.id) !== book || o.id === first));
    }
    let best: BasketSolution | undefined;
    for (const keep of offers.filter((o) => gives.get(o.id) === book)) {
      const found = search(offers.filter((o) => gives.get(o.id) !== book || o.id === keep.id));
      if (!best || beats(goal, found, best)) best = found;
    }
    return best!;
  };
  const solution = search(problem.offers);
  return settled ? { ...solution, optimal: false } : solution;
}

export async function basketsOf(
  db: Db,
  userId: string,
  listId: number,
  wishes?: ExchangeWishes,
): Promise<ClassListBaskets> {
  const saved = await queries.savedList(db, userId, listId);
  if (!saved) throw notFound(m.savedNotFound);
  if (!saved.cityId) throw conflict(m.basketNeedsCity);
  const cityId = saved.cityId;
  const [items, towns] = await Promise.all([queries.itemsOf(db, listId), townNames(db, [cityId])]);
  const town = towns.get(cityId);
  if (!town) throw conflict(m.basketNeedsCity);
  const owned = new Set(saved.ownedItemIds);
  const missing = items.filter((i) => !owned.has(i.id));
  const answer = {
    list_id: listId,
    city: { id: cityId, name: town.name, province: town.province },
    missing: missing.length,
    fares: { town: BASKET_FARE_TOWN, province: BASKET_FARE_PROVINCE },
  };
  if (!missing.length) return { ...answer, baskets: [] };

  const rows = await queries.basketCandidates(db, {
    listId,
    itemIds: missing.map((i) => i.id),
    cityId,
    provinceId: town.provinceId,
    memberId: userId,
  });
  const { median, offers, sellerProx } = candidateOffers(rows);
  const ownedHere = items.filter((i) => owned.has(i.id)).map((i) => i.id);
  const gives = new Map<number, number>();
  for (const swap of await swapOffers(db, wishes, [...offers.values()], ownedHere)) {
    offers.set(swap.id, swap);
    gives.set(swap.id, swap.gives!);
  }
  const fare = (seller: string) => (sellerProx.get(seller) === 0 ? BASKET_FARE_TOWN : BASKET_FARE_PROVINCE);
  const problem = { items: missing.map((i) => i.id), offers: [...offers.values()], fare };
  if (!problem.offers.length) return { ...answer, baskets: [] };
  const solutions = BASKET_GOALS.map((goal) => solveWithSwaps(problem, goal, gives));

  const chosen = [...new Set(solutions.flatMap((s) => s.offers))];
  const [cards, members, cities] = await Promise.all([
    queries.cardRows(
      db,
      chosen.map((o) => Math.abs(o.id)),
    ),
    memberCards(
      db,
      chosen.map((o) => o.sellerId),
    ),
    townNames(db, [...new Set(chosen.flatMap((o) => offers.get(o.id)?.cityId ?? []))]),
  ]);
  const cardOf = new Map(cards.map((c) => [Number(c.id), c]));
  const title = new Map(items.map((i) => [i.id, i.title]));
  const ref = (id: number) => ({ id, name: title.get(id) ?? '' });

  const shape = (s: BasketSolution): ClassListBasket => {
    const reference = referenceOf(s.offers, median);
    const byTown = new Map<number | null, Map<string, ClassListBasket['towns'][number]['sellers'][number]>>();
    for (const o of s.offers) {
      const cityOf = offers.get(o.id)?.cityId ?? null;
      const sellers = byTown.get(cityOf) ?? new Map();
      byTown.set(cityOf, sellers);
      const member = members.get(o.sellerId);
      const entry = sellers.get(o.sellerId) ?? {
        seller: { id: o.sellerId, name: member?.name ?? '', username: member?.username ?? '' },
        total: 0,
        listings: [],
      };
      entry.total += o.price;
      const card = cardOf.get(Math.abs(o.id));
      const given = gives.get(o.id);
      entry.listings.push({
        id: Math.abs(o.id),
        title: card?.title ?? '',
        price: o.price,
        items: o.items.map(ref),
        lot_size: card && Number(card.lot_size) > 0 ? Number(card.lot_size) : null,
        exchange_for: given === undefined ? null : ref(given),
      });
      sellers.set(o.sellerId, entry);
    }
    const townsOut = [...byTown.entries()]
      .map(([id, sellers]) => {
        const t = id === null ? undefined : id === cityId ? town : cities.get(id);
        return {
          city: id !== null && t ? { id, name: t.name, province: t.province } : null,
          sellers: [...sellers.values()],
        };
      })
      // The family's town first, then the others by name.
      .sort(
        (a, b) =>
          Number(b.city?.id === cityId) - Number(a.city?.id === cityId) ||
          (a.city?.name ?? '').localeCompare(b.city?.name ?? '', 'fr'),
      );
    return {
      goal: s.goal,
      label: basketGoalLabels[s.goal],
      total: s.total,
      reference_total: reference,
      saving: reference - s.total,
      meetings: s.meetings,
      fares: s.fares,
      optimal: s.optimal,
      towns: townsOut,
      uncovered: s.uncovered.map(ref),
    };
  };
  return { ...answer, baskets: solutions.map(shape) };
}
