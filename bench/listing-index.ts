/**
 * The in-memory listing index on its own (the search module's): its
 * memory and start-up read at BOOKS listings of the realistic catalogue, and the time of one page
 * for the catalogue benchmark's requests and a few broader ones, in the service's process, with
 * no HTTP, SQL or other load around it; then the memory of the rows kept for the pages
 * (ListingCards, full) and the time of a page's rows, kept or read from SQL.
 *   npm run bench -- listing-index          (BOOKS=100000 ROUNDS=2000)
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { type BookListQuery, bookListQuerySchema } from '@cartable/contracts';
import { createLogger } from '@cartable/service-kit';
import pg from 'pg';
import { findListingRows, listingFacts } from '../services/catalog/src/modules/listings/index.ts';
import {
  CARDS_KEPT,
  planSearch,
  selectionOf,
  startListingIndexFeed,
} from '../services/catalog/src/modules/search/index.ts';
import { startCatalog } from '../services/catalog/test/harness.ts';
import { seedBooks } from './support/seed-books.ts';

const BOOKS = Number(process.env.BOOKS ?? 100_000);
const ROUNDS = Number(process.env.ROUNDS ?? 2000);

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
/** Live memory, after collections a few turns apart (the seed's buffers are let go late). */
const heapUsed = async () => {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
};

const h = await startCatalog();
try {
  const db = new pg.Client({ connectionString: h.config.CATALOG_DATABASE_URL });
  await db.connect();
  await seedBooks(db, BOOKS);
  await db.end();
  h.categoryStore.clear();
  const view = await h.categoryStore.view();

  const before = await heapUsed();
  const started = performance.now();
  const feed = startListingIndexFeed(h.config.CATALOG_DATABASE_URL!, createLogger('bench', 'silent'));
  await feed.ready();
  const loadMs = performance.now() - started;
  const memoryMb = ((await heapUsed()) - before) / 2 ** 20;
  console.log(
    JSON.stringify({ listings: BOOKS, 'load ms': Math.round(loadMs), 'memory MB': Number(memoryMb.toFixed(1)) }),
  );

  const lycee = String(await h.categoryId('Lycée'));
  const libreville = await h.cityId('Libreville');
  // Each run: a request of the catalogue benchmark (or a broader one), its price changing.
  const runs: Array<[string, (n: number) => Record<string, unknown>]> = [
    [
      '(c) maths + Lycée + town + price range, by price',
      (n) => ({
        query: 'mathématiques',
        category_ids: lycee,
        min_price: n % 5000,
        max_price: 20_000,
        city_id: libreville,
        sort_by: 'price',
        sort_direction: 'asc',
      }),
    ],
    [
      '(d) « mathématiques » + town + price floor, newest',
      (n) => ({ query: 'mathématiques', city_id: libreville, min_price: n % 3000 }),
    ],
    [
      '(d) « anglais » + price floor + condition, newest',
      (n) => ({ query: 'anglais', min_price: n % 3000, condition: 'bon' }),
    ],
    ['every listing, a price floor, by price', (n) => ({ min_price: n % 3000, sort_by: 'price' })],
    ['every listing, newest (the catalogue page)', () => ({})],
    ['page 40 of Lycée by price', () => ({ category_ids: lycee, sort_by: 'price', page: 40 })],
    // « À la une » and the recommendations read the most viewed (migration 0024: no index on views).
    // The index keeps such a page until a listing or a count changes: a price floor that changes
    // makes each one a new pass, the cost of « À la une » once per change.
    ['every listing, a price floor, most viewed', (n) => ({ sort_by: 'popularity', min_price: n % 3000 })],
    ['a town, most viewed', (n) => ({ city_id: libreville, sort_by: 'popularity', min_price: n % 3000 })],
  ];
  for (const [title, request] of runs) {
    const selections = Array.from({ length: ROUNDS }, (_, n) => {
      const query: BookListQuery = bookListQuerySchema.parse(request(n));
      const plan = planSearch(query, view);
      return selectionOf(plan?.query ?? query, view.graph, plan?.filter ?? null, 12)!;
    });
    let matches = 0;
    for (const s of selections.slice(0, 200)) matches = feed.select(s)!.total; // warm-up
    const times: number[] = [];
    for (const selection of selections) {
      const t = performance.now();
      feed.select(selection);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const µs = (q: number) => Math.round(times[Math.floor(q * (times.length - 1))]! * 1000);
    console.log(JSON.stringify({ title, matches, 'p50 µs': µs(0.5), 'p99 µs': µs(0.99) }));
  }

  // The rows kept for the pages (ListingRows): their memory when as many are kept as it allows,
  // and a page of 12 of them, kept or read from SQL.
  const ids = (await h.db.select({ id: listingFacts.id }).from(listingFacts).orderBy(listingFacts.id)).map((r) => r.id);
  const beforeRows = await heapUsed();
  for (let i = 0; i < CARDS_KEPT; i += 500) {
    await feed.rows(ids.slice(i, i + 500), (missing) => findListingRows(h.db, missing));
  }
  const rowsMb = ((await heapUsed()) - beforeRows) / 2 ** 20;
  const pageOf = async (first: number) => {
    const t = performance.now();
    await feed.rows(ids.slice(first, first + 12), (missing) => findListingRows(h.db, missing));
    return performance.now() - t;
  };
  const median = async (firsts: number[]) => {
    const times: number[] = [];
    for (const first of firsts) times.push(await pageOf(first));
    return Math.round(times.sort((a, b) => a - b)[times.length >> 1]! * 1000);
  };
  const kept = await median(Array.from({ length: 200 }, (_, n) => n * 12));
  const read = await median(Array.from({ length: 200 }, (_, n) => CARDS_KEPT + 12 + n * 12));
  console.log(
    JSON.stringify({
      'rows kept': CARDS_KEPT,
      'memory MB': Number(rowsMb.toFixed(1)),
      'page of 12, kept µs': kept,
      'page of 12, read from SQL µs': read,
    }),
  );
  await feed.close();
} finally {
  await h.teardown();
}
