/**
 * « Compléter ma liste »: which listings to buy so that a family gets the books it still misses.
 *
 * The model: a weighted set cover with a fixed cost per seller. The elements are the missing
 * books that at least one offer holds (the others stay uncovered, whatever is chosen). An offer is
 * an available listing of one seller holding one missing book, or a lot holding several, at its
 * price (0 for a gift). A basket is a set of offers holding every coverable book; it costs
 *
 *     A · Σ price(offer) + Σ over the distinct sellers met W(seller)
 *
 * and the three goals are three choices of A and W, all integers:
 * - `cheapest`: A = M + 1, W = 1 (M: coverable books): the lowest price, then the fewest meetings;
 * - `fewest_meetings`: A = 1, W = P + 1 (P bounds any basket's price): the fewest sellers, then the price;
 * - `balanced`: A = M + 1, W = (M + 1) · fare(seller) + 1: price plus the fare of each trip
 *   (BASKET_FARE_TOWN in the family's town, BASKET_FARE_PROVINCE elsewhere in its province), then
 *   the fewest meetings.
 *
 * The solver is exact up to BASKET_EXACT_MAX_ITEMS coverable books: a depth-first branch and bound
 * that takes the uncovered book with the fewest offers still open (below) and tries each open
 * offer holding it, cheapest first, cutting a branch when its cost plus a lower bound reaches the
 * best basket found. The bound is the largest of three, each proven below any completion that
 * could beat the best basket found (a branch none can beat is cut, whatever the bound says):
 * - prices plus meetings: each uncovered book costs at least its cheapest share of an offer
 *   holding it (a lot's price split over the uncovered books it holds), and the books no seller
 *   already met offers, taken so that no one seller offers two of them, need a new seller each
 *   (at the smallest W among that book's sellers); or, when larger, those books need at least as
 *   many new sellers as the fewest sellers whose books hold them all (an exact count, memoised
 *   per set of books), each at the smallest W among those books' sellers;
 * - each uncovered book charged its offer's share plus, for a seller not met yet, W split over
 *   the uncovered books that seller offers: no seller is charged more than its W in all;
 * - the first, its prices taken among open offers only: those of sellers met, or of sellers not
 *   met yet whose W, plus the fewest other new sellers for the books they and the sellers met do
 *   not offer, plus every uncovered book's cheapest share, stays below what is left to beat the
 *   best basket. Any completion meeting a closed seller costs that much, so it is not tried.
 * Before the search, offers and sellers that cannot be in a best basket are dropped: an offer a
 * seller's own offers beat (the same books or more for less, or a lot its books alone match); an
 * offer dearer than the cheapest offers of its books by more than meeting their sellers costs;
 * a seller a kept seller replaces for no more, whichever of its books a basket takes (W and
 * prices counted). The search starts from the greedy basket (best cost per new book held, a new
 * seller's W counted) improved locally (drop a seller, re-cover greedily, keep it if cheaper,
 * until nothing improves); for the fewest meetings, also from a cover by the fewest sellers (that
 * same count). Past `nodeBudget` nodes, or past the exact size, the best basket found is returned
 * with `optimal: false`.
 */

export const BASKET_GOALS = ['cheapest', 'fewest_meetings', 'balanced'] as const;
export type BasketGoal = (typeof BASKET_GOALS)[number];

/** Past this many coverable books the baskets are greedy and locally improved (bit masks of 31 bits). */
export const BASKET_EXACT_MAX_ITEMS = 30;
export const BASKET_NODE_BUDGET = 40_000;
/** Sets of books whose fewest sellers the meeting bound may work out and remember. */
export const BASKET_COVER_BUDGET = 50_000;

export interface BasketOffer {
  /** The listing. */
  id: number;
  sellerId: string;
  /** Whole FCFA; 0 is a gift. */
  price: number;
  /** The missing books (class list item ids) it holds: one, or several for a lot. */
  items: number[];
}

export interface BasketProblem {
  /** The missing books. */
  items: number[];
  offers: BasketOffer[];
  /** What meeting this seller costs, whole FCFA (the `balanced` goal). */
  fare: (sellerId: string) => number;
}

export interface BasketSolution {
  goal: BasketGoal;
  offers: BasketOffer[];
  /** The missing books the basket holds, and those nobody offers. */
  covered: number[];
  uncovered: number[];
  total: number;
  meetings: number;
  fares: number;
  /** Proven the best for its goal (false: the search stopped at its budget or the list is too long). */
  optimal: boolean;
  nodes: number;
}

interface Offer {
  source: BasketOffer;
  seller: number;
  mask: number;
  cost: number;
}

const popcount = (x: number) => {
  let n = x - ((x >>> 1) & 0x55555555);
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return (((n + (n >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
};

/** Per seller, the offers no other offer of theirs makes useless. */
function undominated(offers: Offer[]): Offer[] {
  const bySeller = new Map<number, Offer[]>();
  for (const o of offers) bySeller.set(o.seller, [...(bySeller.get(o.seller) ?? []), o]);
  const kept: Offer[] = [];
  for (const own of bySeller.values()) {
    // The cheapest single offer per book, to price a lot against the same books sold alone.
    const single = new Map<number, number>();
    for (const o of own)
      if (popcount(o.mask) === 1) single.set(o.mask, Math.min(single.get(o.mask) ?? Infinity, o.cost));
    for (const o of own) {
      const beaten = own.some(
        (p) =>
          p !== o &&
          (p.mask & o.mask) === o.mask &&
          // Strictly cheaper, or the same offer again: a lot at the price of its books alone beats neither.
          (p.cost < o.cost || (p.cost === o.cost && p.mask === o.mask && p.source.id < o.source.id)),
      );
      if (beaten) continue;
      if (popcount(o.mask) > 1) {
        let alone = 0;
        for (let m = o.mask; m && alone <= o.cost; m &= m - 1) alone += single.get(m & -m) ?? Infinity;
        if (alone <= o.cost) continue;
      }
      kept.push(o);
    }
  }
  return kept;
}

/**
 * Across sellers: an offer dearer than the cheapest single offers of its books by more than
 * meeting their sellers costs is never in a best basket (buying those instead is cheaper even if
 * each is a new meeting), so the search never tries it.
 */
function withoutDearer(offers: Offer[], W: number[]): Offer[] {
  const cheapest = new Map<number, Offer>();
  for (const o of offers) {
    if (popcount(o.mask) !== 1) continue;
    const c = cheapest.get(o.mask);
    if (!c || o.cost < c.cost || (o.cost === c.cost && W[o.seller]! < W[c.seller]!)) cheapest.set(o.mask, o);
  }
  return offers.filter((o) => {
    let alone = 0;
    const sellers = new Set<number>();
    for (let m = o.mask; m; m &= m - 1) {
      const c = cheapest.get(m & -m);
      if (!c) return true;
      if (c === o) return true;
      alone += c.cost;
      sellers.add(c.seller);
    }
    let trips = 0;
    for (const s of sellers) trips += W[s]!;
    return o.cost - alone <= trips;
  });
}

/**
 * Between sellers: a seller whose books another seller also offers is never needed when buying
 * from the second instead costs no more, whichever of the first's books a basket takes from them:
 * W(second) − W(first) plus, for the books taken, the differences of price (A · price, each
 * seller's own offers) stays ≤ 0 for every such set of books, the worst being all the books the
 * second sells dearer (or, if none, the one whose price comes nearest). Comparing whole sets of
 * books would not do: a basket may take only the first's cheaper books. Sellers are compared only
 * with sellers kept (the widest first), so every seller dropped has one kept in its place; sellers
 * of lots are all kept.
 */
function withoutDominatedSellers(offers: Offer[], W: number[]): Offer[] {
  const bySeller = new Map<number, Offer[]>();
  for (const o of offers) bySeller.set(o.seller, [...(bySeller.get(o.seller) ?? []), o]);
  const singles = new Map<number, { seller: number; mask: number; price: Map<number, number> }>();
  for (const [seller, own] of bySeller) {
    if (own.some((o) => popcount(o.mask) !== 1)) continue;
    const price = new Map<number, number>();
    for (const o of own) price.set(o.mask, Math.min(price.get(o.mask) ?? Infinity, o.cost));
    singles.set(seller, { seller, mask: own.reduce((m, o) => m | o.mask, 0), price });
  }
  const costFor = (s: { seller: number; price: Map<number, number> }, mask: number) => {
    let c = W[s.seller]!;
    for (let m = mask; m; m &= m - 1) c += s.price.get(m & -m) ?? Infinity;
    return c;
  };
  const neverDearer = (k: { seller: number; price: Map<number, number> }, s: typeof k & { mask: number }) => {
    let dearer = 0;
    let nearest = -Infinity;
    for (let m = s.mask; m; m &= m - 1) {
      const d = (k.price.get(m & -m) ?? Infinity) - s.price.get(m & -m)!;
      if (d > 0) dearer += d;
      if (d > nearest) nearest = d;
    }
    return W[k.seller]! - W[s.seller]! + (dearer > 0 ? dearer : nearest) <= 0;
  };
  const order = [...singles.values()].sort(
    (a, b) => popcount(b.mask) - popcount(a.mask) || costFor(a, a.mask) - costFor(b, b.mask) || a.seller - b.seller,
  );
  const keptByBit = new Map<number, Array<{ seller: number; mask: number; price: Map<number, number> }>>();
  const dropped = new Set<number>();
  for (const s of order) {
    const first = s.mask & -s.mask;
    if ((keptByBit.get(first) ?? []).some((k) => (k.mask & s.mask) === s.mask && neverDearer(k, s))) {
      dropped.add(s.seller);
      continue;
    }
    for (let m = s.mask; m; m &= m - 1) keptByBit.set(m & -m, [...(keptByBit.get(m & -m) ?? []), s]);
  }
  return offers.filter((o) => !dropped.has(o.seller));
}

/**
 * The fewest sellers whose books hold a set of books, exact and memoised per set: on the distinct
 * widest sets of books sellers offer (a set inside another never lowers the count), branching on
 * the book the fewest sets hold (one of them is in every cover). Past `budget` sets worked out it
 * answers -1 (unknown) for any set not yet known, and callers fall back to a weaker bound.
 */
function sellerCounts(offers: Offer[], budget: number) {
  const maskOf = new Map<number, number>();
  const costOf = new Map<number, number>();
  for (const o of offers) {
    maskOf.set(o.seller, (maskOf.get(o.seller) ?? 0) | o.mask);
    costOf.set(o.seller, (costOf.get(o.seller) ?? 0) + o.cost);
  }
  const bySet = new Map<number, number>();
  for (const [seller, mask] of maskOf) {
    const held = bySet.get(mask);
    if (held === undefined || costOf.get(seller)! < costOf.get(held)!) bySet.set(mask, seller);
  }
  const distinct = [...bySet.keys()];
  const sets = distinct.filter((m) => !distinct.some((n) => n !== m && (n & m) === m));
  const holding: number[][] = Array.from({ length: 32 }, () => []);
  for (const set of sets) for (let m = set; m; m &= m - 1) holding[31 - Math.clz32(m & -m)]!.push(set);
  const pick = (mask: number) => {
    let bit = -1;
    for (let m = mask; m; m &= m - 1) {
      const b = 31 - Math.clz32(m & -m);
      if (bit < 0 || holding[b]!.length < holding[bit]!.length) bit = b;
    }
    return bit;
  };
  const memo = new Map<number, number>();
  let work = 0;
  const count = (mask: number): number => {
    if (!mask) return 0;
    const known = memo.get(mask);
    if (known !== undefined) return known;
    if (work >= budget) return -1;
    work++;
    let best = Infinity;
    for (const set of holding[pick(mask)]!) {
      const rest = count(mask & ~set);
      if (rest < 0) return -1;
      if (rest + 1 < best) best = rest + 1;
      if (best === 1) break;
    }
    memo.set(mask, best);
    return best;
  };
  /** A cover by the fewest sellers (each set's cheapest seller), or undefined past the budget. */
  const cover = (mask: number) => {
    const sellers = new Set<number>();
    let need = count(mask);
    if (need < 0 || need === Infinity) return undefined;
    while (mask) {
      const set = holding[pick(mask)]!.find((s) => count(mask & ~s) === need - 1);
      if (set === undefined) return undefined;
      sellers.add(bySet.get(set)!);
      mask &= ~set;
      need--;
    }
    return sellers;
  };
  return { count, cover, work: () => work };
}

export function solveBasket(
  problem: BasketProblem,
  goal: BasketGoal,
  opts: { nodeBudget?: number; coverBudget?: number } = {},
): BasketSolution {
  const budget = opts.nodeBudget ?? BASKET_NODE_BUDGET;
  const wanted = new Set(problem.items);
  const offered = new Set(problem.offers.flatMap((o) => o.items.filter((i) => wanted.has(i))));
  const coverable = [...wanted].filter((i) => offered.has(i));
  const uncovered = [...wanted].filter((i) => !offered.has(i));
  const exact = coverable.length <= BASKET_EXACT_MAX_ITEMS;
  // Past the exact size the extra books are still covered greedily, in a second round.
  const bitOf = new Map(coverable.slice(0, BASKET_EXACT_MAX_ITEMS).map((item, bit) => [item, bit]));
  const M = coverable.length;

  const sellerIds = [...new Set(problem.offers.map((o) => o.sellerId))];
  const sellerIndex = new Map(sellerIds.map((s, i) => [s, i]));
  const maxPrice = Math.max(0, ...problem.offers.map((o) => o.price));
  const A = goal === 'fewest_meetings' ? 1 : M + 1;
  const W = sellerIds.map((s) =>
    goal === 'cheapest' ? 1 : goal === 'fewest_meetings' ? M * maxPrice + 1 : (M + 1) * problem.fare(s) + 1,
  );

  const toOffers = (bits: Map<number, number>) =>
    undominated(
      problem.offers.flatMap((o) => {
        let mask = 0;
        for (const i of o.items) {
          const b = bits.get(i);
          if (b !== undefined) mask |= 1 << b;
        }
        return mask ? [{ source: o, seller: sellerIndex.get(o.sellerId)!, mask, cost: A * o.price }] : [];
      }),
    );

  const all = withoutDominatedSellers(withoutDearer(toOffers(bitOf), W), W);
  const full = bitOf.size === 32 ? -1 : (1 << bitOf.size) - 1;
  const met = new Int32Array(sellerIds.length);

  const costOf = (chosen: Offer[]) => {
    const sellers = new Set(chosen.map((o) => o.seller));
    return chosen.reduce((s, o) => s + o.cost, 0) + [...sellers].reduce((s, i) => s + W[i]!, 0);
  };

  /** Greedy: the best cost per new book, a new seller's W counted; `chosen` kept. */
  function greedy(offers: Offer[], target: number, chosen: Offer[]) {
    const picked = [...chosen];
    const seen = new Set(picked.map((o) => o.seller));
    let have = picked.reduce((m, o) => m | o.mask, 0) & target;
    while (have !== target) {
      let best: Offer | undefined;
      let bestRatio = Infinity;
      for (const o of offers) {
        const gain = popcount(o.mask & target & ~have);
        if (!gain) continue;
        const ratio = (o.cost + (seen.has(o.seller) ? 0 : W[o.seller]!)) / gain;
        if (ratio < bestRatio) {
          bestRatio = ratio;
          best = o;
        }
      }
      if (!best) break;
      picked.push(best);
      seen.add(best.seller);
      have |= best.mask;
    }
    return withoutRedundant(picked, target);
  }

  /** Drops offers (the dearest first) whose books the others hold. */
  function withoutRedundant(chosen: Offer[], target: number) {
    let kept = [...chosen].sort((a, b) => b.cost - a.cost);
    for (const o of [...kept]) {
      const others = kept.filter((p) => p !== o);
      if ((others.reduce((m, p) => m | p.mask, 0) & target) === target) kept = others;
    }
    return kept;
  }

  /** Local improvement: drop one seller's offers, re-cover greedily, keep what is cheaper. */
  function improve(offers: Offer[], target: number, start: Offer[]) {
    let best = start;
    let bestCost = costOf(best);
    for (let round = 0; round < 50; round++) {
      let better = false;
      for (const seller of new Set(best.map((o) => o.seller))) {
        const rest = best.filter((o) => o.seller !== seller);
        const others = offers.filter((o) => o.seller !== seller);
        const candidate = greedy(others, target, rest);
        const have = candidate.reduce((m, o) => m | o.mask, 0) & target;
        const c = costOf(candidate);
        if (have === target && c < bestCost) {
          best = candidate;
          bestCost = c;
          better = true;
          break;
        }
      }
      if (!better) break;
    }
    return best;
  }

  let best = improve(all, full, greedy(all, full, []));
  let bestCost = costOf(best);
  let nodes = 0;
  let stopped = !exact;

  // The fewest sellers holding a set of books: the start of the fewest meetings, and a meeting bound.
  const counts = sellerCounts(all, opts.coverBudget ?? BASKET_COVER_BUDGET);

  // Fewest meetings: start from a cover by the fewest sellers, their offers chosen greedily; the
  // search then looks for a cheaper one.
  if (exact && full !== 0 && goal === 'fewest_meetings') {
    const fewest = counts.cover(full);
    const start =
      fewest &&
      improve(
        all,
        full,
        greedy(
          all.filter((o) => fewest.has(o.seller)),
          full,
          [],
        ),
      );
    if (start && (start.reduce((m, o) => m | o.mask, 0) & full) === full && costOf(start) < bestCost) {
      best = start;
      bestCost = costOf(start);
    }
  }

  if (exact && full !== 0) {
    const byBit: Offer[][] = Array.from({ length: bitOf.size }, () => []);
    for (const o of all) for (let m = o.mask; m; m &= m - 1) byBit[31 - Math.clz32(m & -m)]!.push(o);
    // The most constrained book first: fewest offers.
    const order = byBit.map((offers, bit) => ({ bit, n: offers.length })).sort((a, b) => a.n - b.n);
    const singleMin = byBit.map((offers) =>
      Math.min(...offers.filter((o) => popcount(o.mask) === 1).map((o) => o.cost)),
    );
    const lotsOf = byBit.map((offers) => offers.filter((o) => popcount(o.mask) > 1));
    const sellerMask = new Int32Array(sellerIds.length);
    for (const o of all) sellerMask[o.seller]! |= o.mask;
    const sellersOf = byBit.map((offers) => [...new Set(offers.map((o) => o.seller))]);
    const chosen: Offer[] = [];
    // Per book: the books some seller of it also offers, and its cheapest meeting.
    const coMask = sellersOf.map((ss) => ss.reduce((m, x) => m | sellerMask[x]!, 0));
    const minW = sellersOf.map((ss) => Math.min(...ss.map((x) => W[x]!)));
    const packOrder = order.map((o) => o.bit).sort((a, b) => popcount(coMask[a]!) - popcount(coMask[b]!));

    // Per node: the sellers not met yet that may still be in a cheaper basket, and the book to branch on.
    const stamp = new Int32Array(sellerIds.length).fill(-1);
    const open = new Uint8Array(sellerIds.length);
    let branch = -1;

    const bound = (have: number, reachable: number, room: number) => {
      const left = full & ~have;
      let lb = 0;
      let split = 0;
      for (let m = left; m; m &= m - 1) {
        const bit = 31 - Math.clz32(m & -m);
        let share = singleMin[bit]!;
        for (const lot of lotsOf[bit]!) {
          const s = lot.cost / popcount(lot.mask & left);
          if (s < share) share = s;
        }
        lb += share;
        // The same book charged its offer's share plus, from a seller not met yet, W split
        // over the books left they offer: no seller is charged more than their W in total.
        let charged = Infinity;
        for (const o of byBit[bit]!) {
          let c = o.cost / popcount(o.mask & left);
          if (!met[o.seller]) c += W[o.seller]! / popcount(sellerMask[o.seller]! & left);
          if (c < charged) charged = c;
        }
        split += charged;
      }
      // Books no seller met offers, pairwise never offered by one seller: each needs its own new seller.
      const fresh = left & ~reachable;
      let packW = 0;
      for (let m = fresh, bit = 0; m; ) {
        bit = packOrder.find((b) => m & (1 << b))!;
        packW += minW[bit]!;
        m &= ~coMask[bit]!;
      }
      const bare = Math.max(lb + packW, split);
      if (bare >= room) return bare;
      // The fewest sellers holding the books no seller met offers, each at least the cheapest
      // meeting among those books' sellers: the new sellers a completion needs, at least.
      const need = fresh ? counts.count(fresh) : 0;
      let cheapestW = Infinity;
      for (let m = fresh; m; m &= m - 1) cheapestW = Math.min(cheapestW, minW[31 - Math.clz32(m & -m)]!);
      const meet = Math.max(packW, need > 0 ? need * cheapestW : 0);
      if (lb + meet >= room) return lb + meet;
      // A seller not met yet is closed when any basket meeting them costs the best's or more: their
      // W, the fewest other new sellers for the fresh books they do not offer, the books' prices.
      // Then every book's cheapest share among the offers of sellers met or open prices the
      // rest, and the book with the fewest such offers is the one to branch on.
      let priced = 0;
      let fewest = Infinity;
      branch = -1;
      for (let m = left; m; m &= m - 1) {
        const bit = 31 - Math.clz32(m & -m);
        let share = Infinity;
        let n = 0;
        for (const o of byBit[bit]!) {
          const seller = o.seller;
          if (!met[seller]) {
            if (stamp[seller] !== nodes) {
              stamp[seller] = nodes;
              const rest = counts.count(fresh & ~sellerMask[seller]!);
              open[seller] = rest < 0 || W[seller]! + (rest > 0 ? rest * cheapestW : 0) + lb < room ? 1 : 0;
            }
            if (!open[seller]) continue;
          }
          n++;
          const c = o.cost / popcount(o.mask & left);
          if (c < share) share = c;
        }
        priced += share;
        if (n < fewest) {
          fewest = n;
          branch = bit;
        }
      }
      return Math.max(bare, priced + meet);
    };

    const search = (have: number, cost: number, reachable: number) => {
      if (++nodes > budget) {
        stopped = true;
        return;
      }
      if (have === full) {
        if (cost < bestCost) {
          bestCost = cost;
          best = [...chosen];
        }
        return;
      }
      if (cost + bound(have, reachable, bestCost - cost) >= bestCost) return;
      const bit = branch;
      const left = full & ~have;
      const tries = byBit[bit]!.filter((o) => met[o.seller] || open[o.seller]).map((o) => ({
        o,
        step: o.cost + (met[o.seller] ? 0 : W[o.seller]!),
        reach: popcount(sellerMask[o.seller]! & left),
      }));
      // Equal steps: the seller offering more of what is left first.
      tries.sort((a, b) => a.step - b.step || b.reach - a.reach);
      for (const { o, step } of tries) {
        if (stopped) return;
        if (cost + step >= bestCost) break;
        chosen.push(o);
        met[o.seller]!++;
        search(have | o.mask, cost + step, reachable | sellerMask[o.seller]!);
        met[o.seller]!--;
        chosen.pop();
      }
    };
    search(0, 0, 0);
  }

  // The books past the exact size, greedily around what was chosen.
  let picked = best.map((o) => o.source);
  if (!exact) picked = coverRest(problem, coverable, picked, W, A, sellerIndex);

  const covered = new Set(picked.flatMap((o) => o.items.filter((i) => wanted.has(i))));
  const sellers = new Set(picked.map((o) => o.sellerId));
  return {
    goal,
    offers: picked,
    covered: coverable.filter((i) => covered.has(i)),
    uncovered,
    total: picked.reduce((s, o) => s + o.price, 0),
    meetings: sellers.size,
    fares: [...sellers].reduce((s, id) => s + problem.fare(id), 0),
    optimal: !stopped,
    nodes,
  };
}

/** Past the exact size: the books not yet held, greedily (cost per new book, a new seller's W counted). */
function coverRest(
  problem: BasketProblem,
  coverable: number[],
  picked: BasketOffer[],
  W: number[],
  A: number,
  sellerIndex: Map<string, number>,
) {
  const result = [...picked];
  const have = new Set(result.flatMap((o) => o.items));
  const seen = new Set(result.map((o) => o.sellerId));
  for (;;) {
    const left = coverable.filter((i) => !have.has(i));
    if (!left.length) return result;
    let best: BasketOffer | undefined;
    let bestRatio = Infinity;
    for (const o of problem.offers) {
      const gain = o.items.filter((i) => left.includes(i)).length;
      if (!gain) continue;
      const ratio = (A * o.price + (seen.has(o.sellerId) ? 0 : W[sellerIndex.get(o.sellerId)!]!)) / gain;
      if (ratio < bestRatio) {
        bestRatio = ratio;
        best = o;
      }
    }
    if (!best) return result;
    result.push(best);
    seen.add(best.sellerId);
    for (const i of best.items) have.add(i);
  }
}
