import {
  type BookListQuery,
  bookConditionFlags,
  bookConditions,
  bookListQuerySchema,
  bookStatuses,
} from '@cartable/contracts';
import { rowsOf } from '@cartable/service-kit';
import { and, eq, inArray, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as schema from '../src/db/schema.ts';
import { findListingRows } from '../src/modules/listings/index.ts';
import { catalogueConditions } from '../src/modules/search/db/queries.ts';
import { catalogueFilter, catalogueSearch } from '../src/modules/search/domain/catalogue.ts';
import { ListingIndex } from '../src/modules/search/domain/listing-index.ts';
import { type ListingIndexFeed, planSearch, startListingIndexFeed } from '../src/modules/search/index.ts';
import { type CatalogHarness, startCatalog } from './harness.ts';

/**
 * The in-memory listing index answers what SQL answers: the same page of ids, in the same order,
 * and the exact count of the matches, for random filter combinations over random listings; and
 * it follows the table through writes, a lost connection and a write of this replica.
 */

/** A reproducible sequence (the failing case can be run again). */
function randomOf(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  return {
    next,
    int: (below: number) => Math.floor(next() * below),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!,
    chance: (p: number) => next() < p,
  };
}

let h: CatalogHarness;
/** The listings' rows as SQL reads them. */
const findBookRows = (ids: number[]) => findListingRows(h.db, ids);
let feed: ListingIndexFeed;
let categoryIds: number[];
let cityIds: number[];
const random = randomOf(20261128);
const sellers = Array.from({ length: 6 }, (_, i) => `5e11e000-0000-4000-8000-00000000000${i}`);
const start = Date.parse('2026-08-01T08:00:00Z');

/** Random listings: shared prices and instants (ties broken by id), every status, hidden and away ones. */
async function insertListings(count: number) {
  const rows = Array.from({ length: count }, () => ({
    userId: random.pick(sellers),
    title: `Manuel ${random.int(1000)}`,
    author: 'Collectif',
    condition: random.pick(bookConditions),
    conditionFlags: bookConditionFlags.filter(() => random.chance(0.15)),
    price: random.pick([0, 500, 1000, 1500, 2500, 5000, 7500, 12_000]) + (random.chance(0.3) ? random.int(100) : 0),
    status: random.pick([...bookStatuses, 'disponible', 'disponible'] as const),
    cityId: random.chance(0.1) ? null : random.pick(cityIds),
    isNegotiable: random.chance(0.5),
    isExchangePossible: random.chance(0.3),
    categoryIds: Array.from({ length: random.int(4) }, () => random.pick(categoryIds)),
    createdAt: new Date(start + random.int(50) * 3_600_000 + (random.chance(0.5) ? 0 : random.int(999))),
    hiddenAt: random.chance(0.1) ? new Date() : null,
    // Shared counts: the sort by popularity breaks its ties by id.
    views: random.pick([0, 0, 1, 2, 5, 40]) + (random.chance(0.3) ? random.int(20) : 0),
  }));
  const inserted = await h.db.insert(schema.books).values(rows).returning({ id: schema.books.id });
  const away = inserted.filter(() => random.chance(0.1)).map((r) => r.id);
  if (away.length) await h.db.update(schema.books).set({ sellerAway: true }).where(inArray(schema.books.id, away));
}

/** A random page request, as a visitor's filters and the home's quick search make them. */
function randomQuery(): BookListQuery {
  const raw: Record<string, unknown> = {};
  if (random.chance(0.5))
    raw.category_ids = Array.from({ length: 1 + random.int(2) }, () => random.pick(categoryIds)).join(',');
  if (random.chance(0.15)) raw.category_id = random.pick(categoryIds);
  if (random.chance(0.1))
    raw.query = random.pick(['maths 6e', 'svt 3eme', 'anglais cm2', 'terminale', 'physique chimie seconde']);
  if (random.chance(0.4)) raw.min_price = random.pick([0, 500, 1000, 2000, 5000]);
  if (random.chance(0.4)) raw.max_price = random.pick([5000, 7500, 12_000, 20_000]);
  if (raw.min_price !== undefined && raw.max_price !== undefined && Number(raw.min_price) > Number(raw.max_price)) {
    delete raw.max_price;
  }
  if (random.chance(0.2)) raw.condition = random.pick(bookConditions);
  if (random.chance(0.2)) raw.without_flags = bookConditionFlags.filter(() => random.chance(0.4)).join(',');
  if (random.chance(0.2)) raw.is_negotiable = random.pick(['true', 'false']);
  if (random.chance(0.2)) raw.is_exchange_possible = random.pick(['true', 'false']);
  if (random.chance(0.4)) raw.city_id = random.pick(cityIds);
  if (random.chance(0.1)) raw.status = random.pick(bookStatuses);
  if (random.chance(0.05)) raw.exclude_id = 1 + random.int(400);
  if (random.chance(0.7)) raw.sort_by = random.pick(['created_at', 'price', 'relevance', 'popularity']);
  if (random.chance(0.5)) raw.sort_direction = random.pick(['asc', 'desc']);
  raw.per_page = random.pick([5, 12, 30]);
  raw.page = random.pick([1, 1, 1, 2, 3, 8]);
  return bookListQuerySchema.parse(raw);
}

/** Every match of the query, counted by SQL (the SQL page's total may be the planner's estimate). */
async function sqlCount(query: BookListQuery) {
  const view = await h.categoryStore.view();
  const plan = planSearch(query, view);
  const filter = plan ? catalogueFilter(plan.query, view.graph, plan.filter) : catalogueFilter(query, view.graph, null);
  const conditions = catalogueConditions(filter);
  const [row] = await rowsOf<{ n: number }>(
    h.db,
    sql`select count(*)::int as n from listing_facts where ${and(...conditions)}`,
  );
  return row!.n;
}

/**
 * The request answered by SQL alone and with the index, and the selections the index answered
 * (null while it could not).
 */
async function bothEngines(query: BookListQuery) {
  const view = await h.categoryStore.view();
  const answered: Parameters<ListingIndexFeed['select']>[0][] = [];
  const spy = {
    select: (selection: Parameters<ListingIndexFeed['select']>[0]) => {
      const answer = feed.select(selection);
      if (answer) answered.push(selection);
      return answer;
    },
    rows: feed.rows,
  };
  const fromSql = await catalogueSearch({ db: h.db, boostedIds: async () => [] }).page(query, view);
  const fromIndex = await catalogueSearch({
    db: h.db,
    feed: spy as ListingIndexFeed,
    boostedIds: async () => [],
  }).page(query, view);
  return { fromSql, fromIndex, answered };
}

/** The same request answered by SQL and by the index: the same ids in the same order, the exact total. */
async function expectSameAnswers(queries: number) {
  let servedByIndex = 0;
  for (let i = 0; i < queries; i++) {
    const query = randomQuery();
    const { fromSql, fromIndex, answered } = await bothEngines(query);
    const used = answered.length > 0;
    const context = JSON.stringify(query);
    expect(fromIndex.ids, context).toEqual(fromSql.ids);
    // The same rows too: those kept in memory are the table's.
    expect(await feed.rows(fromIndex.ids, findBookRows), context).toEqual(await findBookRows(fromSql.ids));
    if (used) {
      servedByIndex++;
      expect(fromIndex.total, context).toBe(await sqlCount(query));
    }
  }
  // Most of them: text that is not all levels and subjects stays with SQL.
  expect(servedByIndex).toBeGreaterThan(queries * 0.8);
}

/** Counted views as the view counter writes them (view-counter.ts): one statement for many books. */
async function countViews(ids: number[]) {
  const rows = ids.map((id) => sql`(${id}::int, ${1 + random.int(30)}::int)`);
  await h.db.execute(
    sql`update books set views = books.views + v.n from (values ${sql.join(rows, sql`, `)}) as v(id, n) where books.id = v.id`,
  );
}

/** Until the feed has read back every change committed so far. */
async function caughtUp() {
  feed.catchUp();
  await feed.ready();
}

beforeAll(async () => {
  h = await startCatalog();
  categoryIds = (await h.db.select({ id: schema.categories.id }).from(schema.categories)).map((c) => c.id);
  cityIds = (await h.db.select({ id: schema.cities.id }).from(schema.cities).limit(5)).map((c) => c.id);
  await insertListings(250);
  feed = startListingIndexFeed(h.config.CATALOG_DATABASE_URL!, pino({ level: 'silent' }));
  await feed.ready();
  // Listings written after the full read come by notification.
  await insertListings(150);
  await caughtUp();
}, 60_000);

afterAll(async () => {
  await feed?.close();
  await h?.teardown();
});

describe('the listing index', () => {
  it('answers 300 random filter combinations as SQL does', async () => {
    await expectSameAnswers(300);
  }, 120_000);

  it('follows the table: new, changed, hidden, sold and deleted listings, and an away seller', async () => {
    await insertListings(40);
    const ids = (await h.db.select({ id: schema.books.id }).from(schema.books)).map((r) => r.id);
    const some = () => ids.filter(() => random.chance(0.05));
    await h.db.update(schema.books).set({ price: 3333 }).where(inArray(schema.books.id, some()));
    await h.db.update(schema.books).set({ hiddenAt: new Date() }).where(inArray(schema.books.id, some()));
    await h.db.update(schema.books).set({ hiddenAt: null }).where(inArray(schema.books.id, some()));
    await h.db.update(schema.books).set({ status: 'vendu' }).where(inArray(schema.books.id, some()));
    await h.db
      .update(schema.books)
      .set({ categoryIds: [random.pick(categoryIds)] })
      .where(inArray(schema.books.id, some()));
    await h.db
      .update(schema.books)
      .set({ createdAt: new Date(start) })
      .where(inArray(schema.books.id, some()));
    await h.db.delete(schema.books).where(inArray(schema.books.id, some()));
    // More than one notification's worth (400 counts each).
    await countViews(ids);
    await h.registerSeller(sellers[0]!, 'Partie');
    await h.db.update(schema.sellers).set({ deactivatedAt: new Date() }).where(sql`user_id = ${sellers[0]}`);
    await caughtUp();
    await expectSameAnswers(150);
  }, 120_000);

  it('answers from SQL while its connection is lost, then reads the table again', async () => {
    await h.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity
      where application_name = 'catalog listing index' and datname = current_database()`);
    // Changes while it is away are read with everything else once it is back.
    await insertListings(30);
    await h.db.update(schema.books).set({ price: 4444 }).where(sql`id % 7 = 0`);
    const view = await h.categoryStore.view();
    const query = bookListQuerySchema.parse({ sort_by: 'price' });
    await expect
      .poll(() =>
        feed.select({ categoryConditions: [], order: { by: 'price', descending: false }, offset: 0, limit: 1 }),
      )
      .toBeNull();
    // Meanwhile a page is still answered (by SQL).
    expect(
      (await catalogueSearch({ db: h.db, feed, boostedIds: async () => [] }).page(query, view)).ids.length,
    ).toBeGreaterThan(0);
    await caughtUp();
    await expectSameAnswers(100);
  }, 120_000);

  it('answers null after a write of this replica until it has read it back', async () => {
    const selection = {
      categoryConditions: [],
      order: { by: 'created' as const, descending: true },
      offset: 0,
      limit: 1,
    };
    const [book] = await h.db
      .insert(schema.books)
      .values({
        userId: sellers[1]!,
        title: 'Tout neuf',
        author: 'X',
        condition: 'neuf',
        price: 1,
        createdAt: new Date('2030-01-01'),
      })
      .returning({ id: schema.books.id });
    feed.catchUp();
    expect(feed.select(selection)).toBeNull();
    await feed.ready();
    expect(feed.select(selection)?.ids).toEqual([book!.id]);
  });
});

describe("a text search among the index's candidates", () => {
  /** Newer than every listing above, the id and the date in the same order, one in three with the word. */
  async function insertNewest(count: number) {
    const rows = Array.from({ length: count }, (_, i) => ({
      userId: random.pick(sellers),
      title: `Cahier ${random.chance(0.35) ? 'tonnerre' : 'orage'} ${random.int(1000)}`,
      author: random.chance(0.5) ? 'Collectif tonnerre' : 'Collectif',
      condition: random.pick(bookConditions),
      price: random.pick([500, 1000, 2500, 5000, 7500]),
      cityId: random.pick(cityIds),
      categoryIds: Array.from({ length: 1 + random.int(2) }, () => random.pick(categoryIds)),
      createdAt: new Date(start + 10 * 86_400_000 + i * 1000),
    }));
    await h.db.insert(schema.books).values(rows);
  }

  it('ranks the same window as SQL, with the exact total when it can count it', async () => {
    await insertNewest(1400);
    await caughtUp();
    let among = 0;
    for (let i = 0; i < 60; i++) {
      const raw: Record<string, unknown> = {
        query: random.pick(['tonnerre', 'cahier tonnerre', 'orage']),
        sort_by: 'relevance',
        per_page: random.pick([5, 12]),
        page: random.pick([1, 1, 2, 3]),
      };
      if (random.chance(0.5)) raw.category_ids = String(random.pick(categoryIds));
      if (random.chance(0.4)) raw.min_price = random.pick([1000, 2500]);
      if (random.chance(0.3)) raw.city_id = random.pick(cityIds);
      const query = bookListQuerySchema.parse(raw);
      const { fromSql, fromIndex, answered } = await bothEngines(query);
      // The candidates are asked for deeper than any page.
      const candidates = answered.some((selection) => selection.limit > 30);
      const context = JSON.stringify(query);
      expect(fromIndex.ids, context).toEqual(fromSql.ids);
      const exact = await sqlCount(query);
      // Counted when the window holds every match (as SQL counts it: a page past the last says
      // 0); else estimated from the candidates read, as the SQL engine's is from the planner's
      // statistics.
      if (exact < 150) expect(fromIndex.total, context).toBe(fromIndex.ids.length ? exact : fromSql.total);
      else {
        expect(fromIndex.total, context).toBeGreaterThan(exact * 0.5);
        expect(fromIndex.total, context).toBeLessThan(exact * 2);
      }
      if (candidates) among++;
    }
    expect(among).toBeGreaterThan(40);
  }, 120_000);

  it('leaves a text rare among the candidates to SQL, and finds nothing when no listing passes the other filters', async () => {
    const view = await h.categoryStore.view();
    const search = catalogueSearch({ db: h.db, feed, boostedIds: async () => [] });
    const rare = bookListQuerySchema.parse({ query: 'Titre corrigé', sort_by: 'relevance' });
    const [row] = await h.db
      .insert(schema.books)
      .values({
        userId: sellers[1]!,
        title: 'Ouragan de Libreville',
        author: 'X',
        condition: 'bon',
        price: 1000,
        createdAt: new Date(start),
      })
      .returning({ id: schema.books.id });
    await caughtUp();
    // The oldest listing of all: far past the newest thousand, found by the text index.
    const oldest = await search.page(bookListQuerySchema.parse({ query: 'ouragan', sort_by: 'relevance' }), view);
    expect(oldest.ids).toEqual([row!.id]);
    expect(oldest.total).toBe(1);
    expect((await search.page(rare, view)).total).toBe(await sqlCount(rare));
    const nowhere = bookListQuerySchema.parse({ query: 'tonnerre', sort_by: 'relevance', min_price: 900_000 });
    expect(await search.page(nowhere, view)).toMatchObject({ ids: [], total: 0 });
  });
});

describe('the rows kept for the pages', () => {
  /** The rows of `ids` through the feed, and the ids it had to read from SQL. */
  async function rowsThroughFeed(ids: number[]) {
    const read: number[] = [];
    const rows = await feed.rows(ids, (missing) => {
      read.push(...missing);
      return findBookRows(missing);
    });
    return { rows, read };
  }
  const someIds = async (n: number) =>
    (await h.db.select({ id: schema.books.id }).from(schema.books).orderBy(schema.books.id).limit(n)).map((r) => r.id);

  it('watch every column of books but the views and the search vector', async () => {
    const columns = (
      await rowsOf<{ name: string }>(
        h.db,
        sql`select column_name as name from information_schema.columns where table_name = 'books'`,
      )
    ).map((c) => c.name);
    const [trigger] = await rowsOf<{ definition: string }>(
      h.db,
      sql`select pg_get_triggerdef(oid) as definition from pg_trigger where tgname = 'books_card_changed'`,
    );
    const watched = columns.filter(
      (c) => trigger!.definition.includes(`old.${c} `) || trigger!.definition.includes(`old.${c},`),
    );
    expect(columns.filter((c) => !watched.includes(c)).sort()).toEqual(['search', 'views']);
  });

  it('are read once, then follow the table: an edit, a photo, a town renamed, a count of views', async () => {
    const ids = await someIds(6);
    // Read the first time they are shown (the pages above may have shown some already).
    await rowsThroughFeed(ids);
    const again = await rowsThroughFeed(ids);
    expect(again.read).toEqual([]);
    expect(again.rows).toEqual(await findBookRows(ids));

    // Written by another replica (or the back office): only the notification tells this one.
    await h.db.update(schema.books).set({ title: 'Titre corrigé' }).where(eq(schema.books.id, ids[0]!));
    await h.db
      .insert(schema.bookImages)
      .values({ bookId: ids[1]!, slot: 1, displayKey: 'd.webp', thumbnailKey: 't.webp' });
    await countViews([ids[2]!]);
    await caughtUp();
    const edited = await rowsThroughFeed(ids);
    expect(edited.read).toEqual([ids[0], ids[1]]);
    expect(edited.rows).toEqual(await findBookRows(ids));
    expect(edited.rows[0]!.title).toBe('Titre corrigé');
    expect(edited.rows[1]!.images).toHaveLength(1);

    const [town] = await h.db.select().from(schema.cities).where(eq(schema.cities.id, cityIds[0]!));
    await h.db
      .update(schema.cities)
      .set({ name: `${town!.name} (renommée)` })
      .where(eq(schema.cities.id, town!.id));
    await caughtUp();
    expect((await rowsThroughFeed(ids)).read).toEqual(ids);
    await h.db.update(schema.cities).set({ name: town!.name }).where(eq(schema.cities.id, town!.id));
    await caughtUp();
  });

  it('keep no row read while a change was committed: it may be older than the change', async () => {
    const [id] = await someIds(1);
    await h.db.update(schema.books).set({ title: 'Avant' }).where(eq(schema.books.id, id!));
    await caughtUp();
    const during = await feed.rows([id!], async (missing) => {
      const rows = await findBookRows(missing);
      // Committed and heard after the row was read, before it is kept.
      await h.db.update(schema.books).set({ title: 'Après' }).where(eq(schema.books.id, id!));
      await caughtUp();
      return rows;
    });
    expect(during[0]!.title).toBe('Avant');
    const next = await rowsThroughFeed([id!]);
    expect(next.read).toEqual([id]);
    expect(next.rows[0]!.title).toBe('Après');

    // The same with a count of views: the row read holds the count before it.
    await h.db.update(schema.books).set({ title: 'Compté' }).where(eq(schema.books.id, id!));
    await caughtUp();
    const read = vi.fn(async (missing: number[]) => {
      const rows = await findBookRows(missing);
      await countViews([id!]);
      await caughtUp();
      return rows;
    });
    await feed.rows([id!], read);
    expect(read).toHaveBeenCalledOnce();
    const counted = await rowsThroughFeed([id!]);
    expect(counted.read).toEqual([id]);
    expect(counted.rows).toEqual(await findBookRows([id!]));
  });

  it('are all read from SQL while the connection is lost, and none kept from before it', async () => {
    const ids = await someIds(4);
    await rowsThroughFeed(ids);
    await h.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity
      where application_name = 'catalog listing index' and datname = current_database()`);
    const selection = {
      categoryConditions: [],
      order: { by: 'price' as const, descending: false },
      offset: 0,
      limit: 1,
    };
    await expect.poll(() => feed.select(selection)).toBeNull();
    // Whether it is back yet or not, nothing from before the loss is shown.
    expect((await rowsThroughFeed(ids)).read).toEqual(ids);
    await caughtUp();
    await rowsThroughFeed(ids);
    expect((await rowsThroughFeed(ids)).read).toEqual([]);
  });
});

describe('the listing pages of the API', () => {
  let app: CatalogHarness;
  beforeAll(async () => {
    app = await startCatalog({}, { listingIndex: true });
  }, 60_000);
  afterAll(async () => app?.teardown());

  it('come from the index, a listing just written included, with exact totals', async () => {
    const libreville = String(await app.cityId('Libreville'));
    const categories = [String(await app.categoryId('Terminale D')), String(await app.categoryId('Mathématiques'))];
    const seller = await app.token();
    const select = vi.spyOn(app.listings!, 'select');
    for (let i = 0; i < 5; i++) {
      const fields = { title: `Annales BAC ${i}`, author: 'Collectif', condition: 'bon', price: String(2000 + i) };
      const created = await app.form(
        'POST',
        '/books',
        { ...fields, city_id: libreville, category_ids: categories },
        {},
        seller.token,
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      await app.listings!.ready();
      const page = await app.call('GET', `/books?query=maths+terminale&city_id=${libreville}&per_page=1`);
      expect(select.mock.results.at(-1)?.value).not.toBeNull();
      expect(page.body.data[0].id).toBe(created.body.book.id);
      expect(page.body.total).toBe(i + 1);
    }
  });
});

describe('the most viewed listings, from the index', () => {
  let app: CatalogHarness;
  beforeAll(async () => {
    app = await startCatalog({}, { listingIndex: true });
  }, 60_000);
  afterAll(async () => app?.teardown());

  it("« À la une » and the recommendations: by views, the member's town first, never their own", async () => {
    const libreville = await app.cityId('Libreville');
    const portGentil = await app.cityId('Port-Gentil');
    const member = await app.token();
    const other = await app.token();
    await app.registerSeller(member.sub, 'Moi', libreville);
    await app.registerSeller(other.sub, 'Autre', portGentil);
    const category = String(await app.categoryId('Mathématiques'));
    const post = async (seller: { token: string }, title: string, city: number) => {
      const fields = {
        title,
        author: 'Collectif',
        condition: 'bon',
        price: '1500',
        city_id: String(city),
        category_ids: [category],
      };
      const created = await app.form('POST', '/books', fields, {}, seller.token);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body.book.id as number;
    };
    const mine = await post(member, 'Le mien', libreville);
    const near = await post(other, 'Près de chez moi', libreville);
    const far = [await post(other, 'Loin A', portGentil), await post(other, 'Loin B', portGentil)];
    // As the view counter writes them: one statement, the table has no index on views.
    const counts = new Map([
      [mine, 900],
      [near, 5],
      [far[0]!, 300],
      [far[1]!, 40],
    ]);
    const rows = [...counts].map(([id, n]) => sql`(${id}::int, ${n}::int)`);
    await app.db.execute(
      sql`update books set views = books.views + v.n from (values ${sql.join(rows, sql`, `)}) as v(id, n) where books.id = v.id`,
    );
    const select = vi.spyOn(app.listings!, 'select');
    const ids = async (url: string, bearer?: string) => {
      const answer = await app.call('GET', url, undefined, bearer);
      const list = answer.body.featured_books ?? answer.body.books;
      return list.map((b: { id: number }) => b.id);
    };
    // The counts reach the index by notification.
    await expect.poll(() => ids('/books/featured')).toEqual([mine, far[0], far[1], near]);
    expect(select.mock.results.at(-1)?.value).not.toBeNull();
    expect(await ids('/books/recommended', member.token)).toEqual([near, far[0], far[1]]);
    expect(await ids('/books/recommended')).toEqual([mine, far[0], far[1], near]);
    // The same answers from SQL (the index behind): its order and its town first agree.
    select.mockReturnValue(null);
    expect(await ids('/books/featured')).toEqual([mine, far[0], far[1], near]);
    expect(await ids('/books/recommended', member.token)).toEqual([near, far[0], far[1]]);
  });
});

describe('ListingIndex', () => {
  it('keeps its sort orders through growth, moves and removals', () => {
    const index = new ListingIndex(2);
    const entry = (id: number, price: number) => ({
      id,
      status: 'disponible' as const,
      shown: true,
      categoryIds: [1],
      price,
      cityId: 1,
      condition: 'bon' as const,
      conditionFlags: [],
      negotiable: false,
      exchange: false,
      createdMicros: id,
      views: 0,
      userId: 'seller',
    });
    for (let id = 1; id <= 100; id++) index.upsert(entry(id, (id * 37) % 11));
    for (let id = 1; id <= 100; id += 3) index.upsert(entry(id, 5));
    for (let id = 2; id <= 100; id += 5) index.remove(id);
    const expected = Array.from({ length: 100 }, (_, i) => i + 1)
      .filter((id) => (id - 2) % 5 !== 0)
      .map((id) => ({ id, price: (id - 1) % 3 === 0 ? 5 : (id * 37) % 11 }))
      .sort((a, b) => a.price - b.price || a.id - b.id);
    const page = index.select({
      categoryConditions: [[1]],
      order: { by: 'price', descending: false },
      offset: 3,
      limit: 200,
    });
    expect(page.total).toBe(expected.length);
    expect(page.ids).toEqual(expected.slice(3).map((e) => e.id));
    const cheap = index.select({
      categoryConditions: [],
      maxPrice: 4,
      order: { by: 'price', descending: true },
      offset: 0,
      limit: 5,
    });
    expect(cheap.ids).toEqual(
      expected
        .filter((e) => e.price <= 4)
        .reverse()
        .slice(0, 5)
        .map((e) => e.id),
    );
  });

  it('answers a combination asked again from its kept orders as the first time', () => {
    const index = new ListingIndex();
    const pick = randomOf(29);
    for (let id = 1; id <= 3000; id++) {
      index.upsert({
        id,
        status: pick.pick(bookStatuses),
        shown: pick.chance(0.9),
        categoryIds: [1 + pick.int(4)],
        price: pick.pick([0, 500, 1000, 2500, 5000]) + pick.int(3) * 100,
        cityId: pick.chance(0.1) ? null : 1 + pick.int(3),
        condition: pick.pick(bookConditions),
        conditionFlags: [],
        negotiable: pick.chance(0.5),
        exchange: false,
        createdMicros: pick.int(500),
        views: 0,
        userId: 'seller',
      });
    }
    for (let i = 0; i < 400; i++) {
      const selection = {
        categoryConditions: pick.chance(0.5) ? [[1 + pick.int(4)]] : [],
        ...(pick.chance(0.5) ? { cityId: 1 + pick.int(3) } : {}),
        ...(pick.chance(0.3) ? { status: pick.pick(bookStatuses) } : {}),
        ...(pick.chance(0.6) ? { minPrice: pick.pick([0, 600, 2500]) } : {}),
        ...(pick.chance(0.6) ? { maxPrice: pick.pick([500, 2600, 9000]) } : {}),
        order: { by: pick.pick(['price', 'created'] as const), descending: pick.chance(0.5) },
        offset: pick.pick([0, 0, 7, 40, 2000]),
        limit: pick.pick([1, 12, 30]),
      };
      // The first time by the pass over the sets (checked against SQL above), then from the orders.
      const first = index.select(selection);
      expect(index.select({ ...selection }), JSON.stringify(selection)).toEqual(first);
    }
  });
});
