import {
  CLASS_LIST_COVERAGE_MAX_LISTS,
  CLASS_LIST_COVERAGE_ROW_TOP,
  CLASS_LIST_COVERAGE_TOP,
  type ClassListCoverage,
  type ClassListCoverageRow,
} from '@cartable/contracts';
import type { Db } from '@cartable/service-kit';
import { townNames } from '../../taxonomy/index.ts';
import * as queries from '../db/queries.ts';
import { candidateOffers, type ExchangeWishes, referenceOf, solveWithSwaps, swapOffers } from './baskets.ts';

/** How long a year's coverage is served from memory: the figures move with listings, not by the second. */
export const COVERAGE_TTL_MS = 60_000;
/** Saved lists worked on at once: each holds a pool connection for its candidates' statement. */
const PARALLEL = 3;

interface Outcome {
  coverable: boolean;
  /** The cheapest basket's saving; null when nothing is missing or the list is not coverable. */
  saving: number | null;
  /** The missing books with no listing nearby: [title key, title]. */
  wanted: Array<[string, string]>;
}

/**
 * The back office's coverage of a school year's saved lists, per level and town: each saved list
 * goes through what « Compléter ma liste » runs for its family (basketCandidates: the same
 * matching, town or province, the family's blocks and own listings left out; its swaps; then the
 * exact solver, cheapest goal only). Cost: one candidates statement and one solve per saved list, run
 * PARALLEL at a time; the seeded demo lists (docs/catalog.md) take a few milliseconds each. It
 * stops at CLASS_LIST_COVERAGE_MAX_LISTS saved lists (the latest saved; the answer says
 * `truncated`) and is kept COVERAGE_TTL_MS per year, so a back office reloading the screen does not
 * run it again.
 */
export function listCoverage(db: Db, options: { ttlMs?: number; maxLists?: number; wishes?: ExchangeWishes } = {}) {
  const ttl = options.ttlMs ?? COVERAGE_TTL_MS;
  const max = options.maxLists ?? CLASS_LIST_COVERAGE_MAX_LISTS;
  const cache = new Map<string, { at: number; value: Promise<ClassListCoverage> }>();
  return (schoolYear: string) => {
    const hit = cache.get(schoolYear);
    if (hit && Date.now() - hit.at < ttl) return hit.value;
    const value = coverageOf(db, schoolYear, max, options.wishes);
    cache.set(schoolYear, { at: Date.now(), value });
    value.catch(() => cache.delete(schoolYear));
    return value;
  };
}

async function coverageOf(
  db: Db,
  schoolYear: string,
  max: number,
  wishes: ExchangeWishes | undefined,
): Promise<ClassListCoverage> {
  const found = await queries.savedListsOfYear(db, schoolYear, max + 1);
  const saved = found.slice(0, max);
  const [items, towns] = await Promise.all([
    queries.itemsOfLists(db, [...new Set(saved.map((s) => s.list_id))]),
    townNames(
      db,
      saved.flatMap((s) => (s.city_id ? [s.city_id] : [])),
    ),
  ]);

  async function outcomeOf(s: (typeof saved)[number]): Promise<Outcome> {
    const owned = new Set(s.owned_item_ids);
    const missing = (items.get(s.list_id) ?? []).filter((i) => !owned.has(i.id));
    if (!missing.length) return { coverable: true, saving: null, wanted: [] };
    const town = s.city_id ? towns.get(s.city_id) : undefined;
    // No town, no basket: « Compléter ma liste » asks for one first.
    if (!s.city_id || !town) return { coverable: false, saving: null, wanted: [] };
    const rows = await queries.basketCandidates(db, {
      listId: s.list_id,
      itemIds: missing.map((i) => i.id),
      cityId: s.city_id,
      provinceId: town.provinceId,
      memberId: s.user_id,
    });
    const { median, offers } = candidateOffers(rows);
    const offered = new Set([...offers.values()].flatMap((o) => o.items));
    const wanted = missing
      .filter((i) => !offered.has(i.id))
      .map((i): [string, string] => [i.titleKey || i.title, i.title]);
    if (wanted.length) return { coverable: false, saving: null, wanted };
    // Swaps as the family's baskets count them: they change the saving, never the coverage.
    const ownedHere = (items.get(s.list_id) ?? []).filter((i) => owned.has(i.id)).map((i) => i.id);
    const gives = new Map<number, number>();
    for (const swap of await swapOffers(db, wishes, [...offers.values()], ownedHere)) {
      offers.set(swap.id, swap);
      gives.set(swap.id, swap.gives!);
    }
    // The cheapest goal weighs no trip: the fare is not read.
    const problem = { items: missing.map((i) => i.id), offers: [...offers.values()], fare: () => 0 };
    const best = solveWithSwaps(problem, 'cheapest', gives);
    return { coverable: true, saving: referenceOf(best.offers, median) - best.total, wanted: [] };
  }

  const outcomes: Outcome[] = new Array(saved.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(PARALLEL, saved.length) }, async () => {
      while (next < saved.length) {
        const n = next++;
        outcomes[n] = await outcomeOf(saved[n]!);
      }
    }),
  );

  interface Group {
    row: Omit<ClassListCoverageRow, 'coverable_share' | 'median_saving' | 'most_wanted'>;
    order: number;
    savings: number[];
    wanted: Tally;
  }
  const groups = new Map<string, Group>();
  const overall = tally();
  saved.forEach((s, n) => {
    const o = outcomes[n]!;
    const town = s.city_id ? towns.get(s.city_id) : undefined;
    const cityId = town ? s.city_id : null;
    const key = `${s.level_id}:${cityId ?? ''}`;
    const g = groups.get(key) ?? {
      row: {
        level: { id: s.level_id, name: s.level_name ?? '' },
        city: cityId && town ? { id: cityId, name: town.name, province: town.province } : null,
        families: 0,
        coverable: 0,
      },
      order: s.level_order ?? Number.MAX_SAFE_INTEGER,
      savings: [],
      wanted: tally(),
    };
    groups.set(key, g);
    g.row.families++;
    if (o.coverable) g.row.coverable++;
    if (o.saving !== null) g.savings.push(o.saving);
    g.wanted.add(o.wanted);
    overall.add(o.wanted);
  });

  const rows = [...groups.values()]
    .sort(
      (a, b) =>
        a.order - b.order ||
        a.row.level.name.localeCompare(b.row.level.name, 'fr') ||
        // The families without a town last.
        Number(a.row.city === null) - Number(b.row.city === null) ||
        (a.row.city?.name ?? '').localeCompare(b.row.city?.name ?? '', 'fr'),
    )
    .map((g) => ({
      ...g.row,
      coverable_share: g.row.families ? g.row.coverable / g.row.families : 0,
      median_saving: medianOf(g.savings),
      most_wanted: g.wanted.top(CLASS_LIST_COVERAGE_ROW_TOP),
    }));
  return {
    school_year: schoolYear,
    rows,
    most_wanted: overall.top(CLASS_LIST_COVERAGE_TOP),
    lists: saved.length,
    truncated: found.length > max,
    computed_at: new Date().toISOString(),
  };
}

/** The middle value, or the mean of the two middle ones rounded to the franc; null for none. */
export function medianOf(values: number[]) {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
}

type Tally = ReturnType<typeof tally>;

/** Families per title (by title key: the same book in two lists is one title), the most first. */
function tally() {
  const counts = new Map<string, { title: string; families: number }>();
  return {
    add(wanted: Array<[string, string]>) {
      for (const [key, title] of new Map(wanted)) {
        const entry = counts.get(key) ?? { title, families: 0 };
        entry.families++;
        counts.set(key, entry);
      }
    },
    top: (n: number) =>
      [...counts.values()].sort((a, b) => b.families - a.families || a.title.localeCompare(b.title, 'fr')).slice(0, n),
  };
}
