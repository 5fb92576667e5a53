import { describe, expect, it } from 'vitest';
import {
  BASKET_GOALS,
  type BasketGoal,
  type BasketOffer,
  type BasketProblem,
  type BasketSolution,
  solveBasket,
} from '../src/modules/class-lists/domain/basket.ts';

/** A small seeded generator (mulberry32): the same cases on every run. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const fares: Record<string, number> = {};
const fare = (seller: string) => fares[seller] ?? 1000;

/** Each goal's order: the price then the meetings, the meetings then the price, price and fares then the meetings. */
function key(goal: BasketGoal, s: { total: number; meetings: number; fares: number }): [number, number] {
  if (goal === 'cheapest') return [s.total, s.meetings];
  if (goal === 'fewest_meetings') return [s.meetings, s.total];
  return [s.total + s.fares, s.meetings];
}

/** Every subset of the offers: the best key among those holding every book someone offers. */
function bruteForce(problem: BasketProblem, goal: BasketGoal) {
  const wanted = new Set(problem.items);
  const coverable = new Set(problem.offers.flatMap((o) => o.items.filter((i) => wanted.has(i))));
  let best: [number, number] | null = null;
  const n = problem.offers.length;
  for (let subset = 0; subset < 1 << n; subset++) {
    const chosen = problem.offers.filter((_, i) => subset & (1 << i));
    const held = new Set(chosen.flatMap((o) => o.items));
    if ([...coverable].some((i) => !held.has(i))) continue;
    const sellers = new Set(chosen.map((o) => o.sellerId));
    const k = key(goal, {
      total: chosen.reduce((s, o) => s + o.price, 0),
      meetings: sellers.size,
      fares: [...sellers].reduce((s, id) => s + fare(id), 0),
    });
    if (!best || k[0] < best[0] || (k[0] === best[0] && k[1] < best[1])) best = k;
  }
  return best;
}

function expectValid(problem: BasketProblem, solution: BasketSolution) {
  const held = new Set(solution.offers.flatMap((o) => o.items));
  const coverable = problem.items.filter((i) => problem.offers.some((o) => o.items.includes(i)));
  expect(coverable.every((i) => held.has(i))).toBe(true);
  expect(solution.covered.sort()).toEqual([...coverable].sort());
  expect(solution.uncovered.sort()).toEqual(problem.items.filter((i) => !coverable.includes(i)).sort());
  expect(solution.total).toBe(solution.offers.reduce((s, o) => s + o.price, 0));
  expect(solution.meetings).toBe(new Set(solution.offers.map((o) => o.sellerId)).size);
}

function randomProblem(rand: () => number): BasketProblem {
  const nItems = 1 + Math.floor(rand() * 7);
  const nSellers = 1 + Math.floor(rand() * 6);
  const nOffers = 1 + Math.floor(rand() * 14);
  const items = Array.from({ length: nItems }, (_, i) => 100 + i);
  // Few distinct prices: ties are common; 0 is a gift.
  const prices = [0, 500, 1000, 1500, 2000, 3500];
  const offers: BasketOffer[] = Array.from({ length: nOffers }, (_, id) => {
    const lot = rand() < 0.2 && nItems > 1;
    const first = items[Math.floor(rand() * nItems)]!;
    const held = lot
      ? [...new Set([first, items[Math.floor(rand() * nItems)]!, items[Math.floor(rand() * nItems)]!])]
      : [first];
    return {
      id: id + 1,
      sellerId: `s${Math.floor(rand() * nSellers)}`,
      price: prices[Math.floor(rand() * prices.length)]! * (lot ? 2 : 1),
      items: held,
    };
  });
  // One book in five is not a book of the list (another list's), one more nobody offers.
  return { items: [...items, 999], offers, fare };
}

/**
 * Without lots a basket comes down to its sellers, each book bought from the cheapest of them:
 * the best key over every set of sellers (a set with a seller it does not need only scores worse).
 */
function bruteForceBySellers(problem: BasketProblem) {
  const sellers = [...new Set(problem.offers.map((o) => o.sellerId))];
  const coverable = problem.items.filter((i) => problem.offers.some((o) => o.items.includes(i)));
  const price = sellers.map((s) =>
    coverable.map((i) =>
      Math.min(...problem.offers.filter((o) => o.sellerId === s && o.items.includes(i)).map((o) => o.price)),
    ),
  );
  const best: Partial<Record<BasketGoal, [number, number]>> = {};
  for (let subset = 1; subset < 1 << sellers.length; subset++) {
    let total = 0;
    for (let i = 0; i < coverable.length && total < Infinity; i++) {
      let cheapest = Infinity;
      for (let s = 0; s < sellers.length; s++) if (subset & (1 << s)) cheapest = Math.min(cheapest, price[s]![i]!);
      total += cheapest;
    }
    if (total === Infinity) continue;
    const chosen = sellers.filter((_, s) => subset & (1 << s));
    const score = { total, meetings: chosen.length, fares: chosen.reduce((f, id) => f + fare(id), 0) };
    for (const goal of BASKET_GOALS) {
      const k = key(goal, score);
      const b = best[goal];
      if (!b || k[0] < b[0] || (k[0] === b[0] && k[1] < b[1])) best[goal] = k;
    }
  }
  return best;
}

/** A town's sellers: each offers a few of a dozen books, one by one, some twice; one book nobody sells. */
function sellersProblem(rand: () => number): BasketProblem {
  const items = Array.from({ length: 10 + Math.floor(rand() * 4) }, (_, i) => 200 + i);
  const prices = [0, 500, 1000, 1500, 2000, 2500, 3500, 5000];
  const offers: BasketOffer[] = [];
  const nSellers = 8 + Math.floor(rand() * 7);
  for (let s = 0; s < nSellers; s++) {
    const held = new Set(
      Array.from({ length: 1 + Math.floor(rand() * 5) }, () => items[Math.floor(rand() * items.length)]!),
    );
    for (const item of held)
      for (let copies = rand() < 0.15 ? 2 : 1; copies > 0; copies--)
        offers.push({
          id: offers.length + 1,
          sellerId: `t${s}`,
          price: prices[Math.floor(rand() * prices.length)]!,
          items: [item],
        });
  }
  return { items: [...items, 999], offers, fare };
}

describe('« Compléter ma liste »: the basket solver', () => {
  it('finds, for each goal, the best basket brute force finds, on 400 seeded random cases', () => {
    const rand = random(20260907);
    for (let s = 0; s < 6; s++) fares[`s${s}`] = s % 3 === 2 ? 5000 : 1000;
    for (let n = 0; n < 400; n++) {
      const problem = randomProblem(rand);
      for (const goal of BASKET_GOALS) {
        const solution = solveBasket(problem, goal);
        expectValid(problem, solution);
        expect(solution.optimal).toBe(true);
        expect(key(goal, solution), `case ${n}, ${goal}`).toEqual(bruteForce(problem, goal));
      }
    }
  });

  it('finds, for each goal, the best basket every set of sellers gives, on 60 seeded towns of up to 14 sellers', () => {
    const rand = random(20261207);
    for (let s = 0; s < 14; s++) fares[`t${s}`] = s % 4 === 3 ? 3000 : 1000;
    for (let n = 0; n < 60; n++) {
      const problem = sellersProblem(rand);
      const expected = bruteForceBySellers(problem);
      for (const goal of BASKET_GOALS) {
        const solution = solveBasket(problem, goal);
        expectValid(problem, solution);
        expect(solution.optimal, `town ${n}, ${goal}`).toBe(true);
        expect(key(goal, solution), `town ${n}, ${goal}`).toEqual(expected[goal]);
      }
    }
  });

  it('finds the same baskets when the count of the fewest sellers stops early (the weaker meeting bound)', () => {
    const rand = random(20261208);
    for (let s = 0; s < 14; s++) fares[`t${s}`] = s % 3 === 1 ? 3000 : 1000;
    for (let n = 0; n < 40; n++) {
      const problem = sellersProblem(rand);
      const expected = bruteForceBySellers(problem);
      for (const goal of BASKET_GOALS)
        for (const coverBudget of [0, 3]) {
          const solution = solveBasket(problem, goal, { coverBudget });
          expectValid(problem, solution);
          expect(solution.optimal, `town ${n}, ${goal}, ${coverBudget}`).toBe(true);
          expect(key(goal, solution), `town ${n}, ${goal}, ${coverBudget}`).toEqual(expected[goal]);
        }
    }
  });

  it('leaves uncovered the books nobody sells, and buys nothing for an empty list', () => {
    const problem: BasketProblem = {
      items: [1, 2, 3],
      offers: [{ id: 10, sellerId: 'a', price: 1500, items: [2] }],
      fare,
    };
    const solution = solveBasket(problem, 'cheapest');
    expect(solution.uncovered.sort()).toEqual([1, 3]);
    expect(solution.covered).toEqual([2]);
    expect(solution.total).toBe(1500);
    const none = solveBasket({ items: [1], offers: [], fare }, 'balanced');
    expect(none).toMatchObject({ offers: [], uncovered: [1], total: 0, meetings: 0, optimal: true });
  });

  it('meets one seller who sells everything for the fewest meetings, others for the cheapest', () => {
    const items = [1, 2, 3, 4];
    const offers: BasketOffer[] = [
      ...items.map((i) => ({ id: i, sellerId: 'tout', price: 3000, items: [i] })),
      ...items.map((i) => ({ id: 10 + i, sellerId: `v${i}`, price: 1000, items: [i] })),
    ];
    const problem = { items, offers, fare };
    expect(solveBasket(problem, 'fewest_meetings')).toMatchObject({ meetings: 1, total: 12_000, optimal: true });
    expect(solveBasket(problem, 'cheapest')).toMatchObject({ meetings: 4, total: 4000, optimal: true });
    // 4 × 3,000 + one trip = 13,000 against 4 × 1,000 + four trips = 8,000.
    expect(solveBasket(problem, 'balanced')).toMatchObject({ meetings: 4, total: 4000 });
  });

  it('takes gifts, and among equal prices the fewest meetings', () => {
    const gifts: BasketProblem = {
      items: [1, 2],
      offers: [
        { id: 1, sellerId: 'a', price: 0, items: [1] },
        { id: 2, sellerId: 'b', price: 1000, items: [2] },
        { id: 3, sellerId: 'c', price: 500, items: [1] },
        { id: 4, sellerId: 'c', price: 500, items: [2] },
      ],
      fare,
    };
    expect(solveBasket(gifts, 'cheapest')).toMatchObject({ total: 500, meetings: 2 });
    expect(
      solveBasket(gifts, 'cheapest')
        .offers.map((o) => o.id)
        .sort(),
    ).toEqual([1, 4]);
    const ties: BasketProblem = {
      items: [1, 2],
      offers: [
        { id: 1, sellerId: 'x', price: 500, items: [1] },
        { id: 2, sellerId: 'y', price: 500, items: [2] },
        { id: 3, sellerId: 'z', price: 500, items: [1] },
        { id: 4, sellerId: 'z', price: 500, items: [2] },
      ],
      fare,
    };
    // 1,000 either way: z alone is one meeting.
    expect(solveBasket(ties, 'cheapest')).toMatchObject({ total: 1000, meetings: 1 });
  });

  it('buys a lot when it is cheaper than its books one by one', () => {
    const problem: BasketProblem = {
      items: [1, 2, 3],
      offers: [
        { id: 1, sellerId: 'a', price: 4000, items: [1, 2, 3] },
        { id: 2, sellerId: 'b', price: 2000, items: [1] },
        { id: 3, sellerId: 'b', price: 2000, items: [2] },
        { id: 4, sellerId: 'b', price: 2000, items: [3] },
      ],
      fare,
    };
    expect(solveBasket(problem, 'cheapest').offers.map((o) => o.id)).toEqual([1]);
  });

  it('past its node budget returns a full basket, not proven', () => {
    const rand = random(7);
    const items = Array.from({ length: 15 }, (_, i) => i + 1);
    const offers: BasketOffer[] = [];
    for (let id = 1; id <= 600; id++)
      offers.push({
        id,
        sellerId: `s${Math.floor(rand() * 120)}`,
        price: 500 * Math.floor(1 + rand() * 10),
        items: [items[Math.floor(rand() * items.length)]!],
      });
    const problem = { items, offers, fare };
    const cut = solveBasket(problem, 'balanced', { nodeBudget: 5 });
    expectValid(problem, cut);
    expect(cut.optimal).toBe(false);
    const exact = solveBasket(problem, 'balanced', { nodeBudget: 2_000_000 });
    expectValid(problem, exact);
    expect(exact.optimal).toBe(true);
    expect(exact.total + exact.fares).toBeLessThanOrEqual(cut.total + cut.fares);
  });

  it('covers a list longer than the exact size greedily, not proven', () => {
    const items = Array.from({ length: 40 }, (_, i) => i + 1);
    const offers = items.flatMap((i) => [
      { id: i, sellerId: `a${i % 5}`, price: 1000, items: [i] },
      { id: 100 + i, sellerId: `b${i % 7}`, price: 800, items: [i] },
    ]);
    const problem = { items, offers, fare };
    for (const goal of BASKET_GOALS) {
      const solution = solveBasket(problem, goal);
      expectValid(problem, solution);
      expect(solution.optimal).toBe(false);
    }
  });
});
