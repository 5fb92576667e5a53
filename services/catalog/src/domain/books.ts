import {
  type Book,
  type BookListPage,
  type BookListQuery,
  conditionLabels,
  type Seller,
  statusLabel,
} from '@cartable/contracts';
import type { Db, Storage } from '@cartable/service-kit';
import { and, asc, desc, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { LRUCache } from 'lru-cache';
import { bookImages, books, cities, provinces, sellers } from '../db/schema.ts';
import type { CategoryView } from './category-store.ts';

export const DEFAULT_PER_PAGE = 12;

const bookColumns = {
  id: books.id,
  userId: books.userId,
  title: books.title,
  author: books.author,
  isbn: books.isbn,
  description: books.description,
  publisher: books.publisher,
  publicationYear: books.publicationYear,
  condition: books.condition,
  price: books.price,
  status: books.status,
  cityId: books.cityId,
  isNegotiable: books.isNegotiable,
  isExchangePossible: books.isExchangePossible,
  views: books.views,
  categoryIds: books.categoryIds,
  createdAt: books.createdAt,
  updatedAt: books.updatedAt,
  cityName: cities.name,
  province: provinces.name,
};

const fromBooks = (db: Db) =>
  db
    .select(bookColumns)
    .from(books)
    .leftJoin(cities, eq(cities.id, books.cityId))
    .leftJoin(provinces, eq(provinces.id, cities.provinceId));
type BookRow = Awaited<ReturnType<ReturnType<typeof fromBooks>['execute']>>[number];

/** The same, with the number of matching rows computed in the same pass (before LIMIT). */
const fromBooksCounted = (db: Db) =>
  db
    .select({ ...bookColumns, matching: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(books)
    .leftJoin(cities, eq(cities.id, books.cityId))
    .leftJoin(provinces, eq(provinces.id, cities.provinceId));

/** The text a visitor typed, made comparable: lower case, no accents (as the indexes are). */
const plain = (q: string) => sql`cartable_unaccent(lower(${q}))`;
const tsQuery = (q: string) => sql`websearch_to_tsquery('french', cartable_unaccent(${q}))`;

/**
 * How a text query matches: French full-text (stems, accents ignored) and the ISBN; when that
 * finds nothing, trigram word similarity on title and author, which forgives typos.
 */
export type TextMode = 'fulltext' | 'typo';

function textCondition(q: string, mode: TextMode): SQL {
  if (mode === 'typo') {
    return sql`(${plain(q)} <% cartable_unaccent(lower(${books.title})) or ${plain(q)} <% cartable_unaccent(lower(${books.author})))`;
  }
  const compactIsbn = q.replace(/[-\s]/g, '');
  const isbn = /^\d{9,13}[\dXx]?$/.test(compactIsbn)
    ? sql` or replace(${books.isbn}, '-', '') = ${compactIsbn}`
    : sql``;
  return sql`(${books.search} @@ ${tsQuery(q)}${isbn})`;
}

/** Every filter of the catalogue (SPEC.md section 2) as SQL conditions. */
export function listConditions(query: BookListQuery, view: CategoryView, mode: TextMode = 'fulltext'): SQL[] {
  // "Listed" is every status but vendu: the form the partial indexes are built on.
  const conditions: SQL[] = [query.status ? eq(books.status, query.status) : ne(books.status, 'vendu')];
  if (query.query) conditions.push(textCondition(query.query, mode));
  const wanted = [...(query.category_ids ?? []), ...(query.category_id ? [query.category_id] : [])];
  if (wanted.length) {
    const groups = view.graph.filterGroups(wanted);
    const overlaps = (ids: number[]) => sql`${books.categoryIds} && ${`{${ids.join(',')}}`}::integer[]`;
    conditions.push(
      groups.length
        ? sql`(${sql.join(
            groups.map((sets) => sql`(${sql.join(sets.map(overlaps), sql` and `)})`),
            sql` or `,
          )})`
        : sql`false`,
    );
  }
  if (query.min_price !== undefined) conditions.push(sql`${books.price} >= ${query.min_price}`);
  if (query.max_price !== undefined) conditions.push(sql`${books.price} <= ${query.max_price}`);
  if (query.condition) conditions.push(eq(books.condition, query.condition));
  const negotiable = query.is_negociable ?? query.is_negotiable;
  if (negotiable !== undefined) conditions.push(eq(books.isNegotiable, negotiable));
  if (query.is_exchange_possible !== undefined)
    conditions.push(eq(books.isExchangePossible, query.is_exchange_possible));
  if (query.city_id) conditions.push(eq(books.cityId, query.city_id));
  if (query.user_id) conditions.push(eq(books.userId, query.user_id));
  if (query.exclude_id) conditions.push(sql`${books.id} <> ${query.exclude_id}`);
  return conditions;
}

function ordering(query: BookListQuery, mode: TextMode): SQL[] {
  const direction = query.sort_direction ?? (query.sort_by === 'title' || query.sort_by === 'price' ? 'asc' : 'desc');
  const dir = (column: SQL | AnyPgColumn) => (direction === 'asc' ? asc(column) : desc(column));
  const sortBy = query.sort_by ?? (query.query ? 'relevance' : 'created_at');
  switch (sortBy) {
    case 'price':
      return [dir(books.price), dir(books.id)];
    case 'title':
      return [dir(sql`lower(${books.title})`), dir(books.id)];
    case 'popularity':
      return [dir(books.views), dir(books.id)];
    case 'relevance':
      if (query.query) {
        const rank =
          mode === 'typo'
            ? sql`word_similarity(${plain(query.query)}, cartable_unaccent(lower(${books.title})))`
            : sql`ts_rank_cd(${books.search}, ${tsQuery(query.query)})`;
        return [desc(rank), desc(books.id)];
      }
      return [desc(books.createdAt), desc(books.id)];
    default:
      return [dir(books.createdAt), dir(books.id)];
  }
}

/**
 * Totals for pagination, kept 15 s: counting tens of thousands of rows on every page turn costs
 * more than the page itself, and a total a few seconds old misleads nobody. Writes clear it.
 */
const totals = new LRUCache<string, number>({ max: 2000, ttl: 15_000 });

/**
 * Whole listing pages, kept 10 s: the same searches come back all day (« maths 3e », a cycle
 * from the home page), and ranking ten thousand matches again for each visitor is waste. A book
 * written here clears both caches; another replica's page may be up to 10 s old.
 */
export const listingPages = new LRUCache<string, BookListPage>({ max: 1000, ttl: 10_000 });

export const forgetListings = () => {
  totals.clear();
  listingPages.clear();
};

async function countBooks(db: Db, query: BookListQuery, where: SQL | undefined, mode: TextMode) {
  const {
    page: _page,
    per_page: _perPage,
    limit: _limit,
    sort_by: _sortBy,
    sort_direction: _direction,
    ...filters
  } = query;
  const key = `${mode}:${JSON.stringify(filters)}`;
  const cached = totals.get(key);
  if (cached !== undefined) return cached;
  const [{ total } = { total: 0 }] = await db.select({ total: sql<number>`count(*)::int` }).from(books).where(where);
  totals.set(key, total);
  return total;
}

export async function listBooks(
  db: Db,
  storage: Storage,
  view: CategoryView,
  query: BookListQuery,
): Promise<BookListPage> {
  const perPage = query.limit ?? query.per_page ?? DEFAULT_PER_PAGE;
  const run = async (mode: TextMode) => {
    const where = and(...listConditions(query, view, mode));
    const offset = (query.page - 1) * perPage;
    if (query.query) {
      // A text search reads and ranks every match anyway: count them in the same pass rather
      // than run the whole search a second time for the total.
      const rows = await fromBooksCounted(db)
        .where(where)
        .orderBy(...ordering(query, mode))
        .limit(perPage)
        .offset(offset);
      const total = rows[0]?.matching ?? (offset > 0 ? await countBooks(db, query, where, mode) : 0);
      return { rows, total };
    }
    const [rows, total] = await Promise.all([
      fromBooks(db)
        .where(where)
        .orderBy(...ordering(query, mode))
        .limit(perPage)
        .offset(offset),
      countBooks(db, query, where, mode),
    ]);
    return { rows, total };
  };
  let result = await run('fulltext');
  // Nothing for those words: perhaps a typo (« mathematqiues »); try the similar ones.
  if (query.query && result.total === 0) result = await run('typo');
  return {
    data: await toBookDtos(db, storage, view, result.rows),
    total: result.total,
    per_page: perPage,
    current_page: query.page,
    last_page: Math.max(1, Math.ceil(result.total / perPage)),
  };
}

export async function findBookRows(db: Db, ids: number[]) {
  if (!ids.length) return [];
  return fromBooks(db).where(inArray(books.id, ids));
}

/** The API's Book (services/catalog/API.md) for a page of rows: one query for the photos; names from the cached graph. */
export async function toBookDtos(db: Db, storage: Storage, view: CategoryView, rows: BookRow[]): Promise<Book[]> {
  const ids = rows.map((r) => r.id);
  const images = ids.length
    ? await db.select().from(bookImages).where(inArray(bookImages.bookId, ids)).orderBy(asc(bookImages.slot))
    : [];
  return rows.map((r) => {
    const bookCats = r.categoryIds
      .filter((id) => view.graph.has(id))
      .map((id) => ({ id, name: view.graph.nodes.get(id)!.name }));
    const bookImgs = images
      .filter((i) => i.bookId === r.id)
      .map((i) => ({ slot: i.slot, url: storage.url(i.displayKey), thumbnail_url: storage.url(i.thumbnailKey) }));
    const slot = (n: number) => bookImgs.find((i) => i.slot === n)?.url ?? null;
    return {
      id: r.id,
      title: r.title,
      author: r.author,
      isbn: r.isbn,
      description: r.description,
      publisher: r.publisher,
      publication_year: r.publicationYear,
      condition: r.condition,
      condition_label: conditionLabels[r.condition],
      price: r.price,
      status: r.status,
      status_label: statusLabel(r.status),
      is_negociable: r.isNegotiable,
      is_negotiable: r.isNegotiable,
      is_exchange_possible: r.isExchangePossible,
      city: r.cityId && r.cityName ? { id: r.cityId, name: r.cityName, province: r.province } : null,
      city_id: r.cityId,
      category: bookCats[0] ?? null,
      categories: bookCats,
      category_ids: bookCats.map((c) => c.id),
      image1: slot(1),
      image2: slot(2),
      image3: slot(3),
      thumbnail: bookImgs[0]?.thumbnail_url ?? null,
      images: bookImgs,
      user_id: r.userId,
      views: r.views,
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
    };
  });
}
export type BookDto = Book;

/** The seller block of the detail page, from the projection of auth's events (no call to auth). */
export async function sellerOf(db: Db, userId: string): Promise<Seller | null> {
  const [row] = await db
    .select({ seller: sellers, cityName: cities.name, province: provinces.name })
    .from(sellers)
    .leftJoin(cities, eq(cities.id, sellers.cityId))
    .leftJoin(provinces, eq(provinces.id, cities.provinceId))
    .where(eq(sellers.userId, userId));
  if (!row) return null;
  const s = row.seller;
  return {
    id: s.userId,
    name: s.name,
    username: s.username,
    profile_image: s.profileImage,
    city: row.cityName,
    province: row.province,
    created_at: s.createdAt.toISOString(),
    show_email: s.email !== null,
    email: s.email,
    show_phone: s.phone !== null,
    phone: s.phone,
    rating: { average: s.ratingAverage, count: s.ratingCount },
  };
}
