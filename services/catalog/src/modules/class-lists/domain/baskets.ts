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
import { BASKET_GOALS, type BasketOffer, type BasketSolution, solveBasket } from './basket.ts';

/**
 * « Compléter ma liste »: the member's saved list (its town, the books they own) turned into three
 * baskets of listings (domain/basket.ts says the model). Lots count for all the missing books they
 * hold, gifts at 0; exchanges are not in the baskets (a swap is not bought). Nothing is reserved.
 */
export type CandidateOffer = BasketOffer & { cityId: number | null; inLot: boolean };

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

export async function basketsOf(db: Db, userId: string, listId: number): Promise<ClassListBaskets> {
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
  const fare = (seller: string) => (sellerProx.get(seller) === 0 ? BASKET_FARE_TOWN : BASKET_FARE_PROVINCE);
  const problem = { items: missing.map((i) => i.id), offers: [...offers.values()], fare };
  if (!problem.offers.length) return { ...answer, baskets: [] };
  const solutions = BASKET_GOALS.map((goal) => solveBasket(problem, goal));

  const chosen = [...new Set(solutions.flatMap((s) => s.offers))];
  const [cards, members, cities] = await Promise.all([
    queries.cardRows(
      db,
      chosen.map((o) => o.id),
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
      const card = cardOf.get(o.id);
      entry.listings.push({
        id: o.id,
        title: card?.title ?? '',
        price: o.price,
        items: o.items.map(ref),
        lot_size: card && Number(card.lot_size) > 0 ? Number(card.lot_size) : null,
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
