import type { BookFields, BookStatus } from '@cartable/contracts';
import { type Db, dailyCounts, lastWeek, rowsOf, type StatsWindow, trend } from '@cartable/service-kit';
import { and, asc, desc, eq, inArray, isNull, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { blockedEitherWay, membersSubquery } from '../../members/index.ts';
import { townRelation, townsSubquery } from '../../taxonomy/index.ts';
import { bookImages, bookLotItems, books } from './schema.ts';

export type ListingRow = typeof books.$inferSelect;

/**
 * The seller's badge as an SQL expression of their id: the monetisation module's, handed in at
 * start-up (a listings statement reads it with the seller's row; listings imports nothing of
 * monetisation, which reads listings).
 */
export type SellerBadgeSql = (userId: SQLWrapper) => SQL<string | null>;

// ── a listing as pages show it ───────────────────────────────────────────────────────────────

interface PhotoKeys {
  slot: number;
  displayKey: string;
  thumbnailKey: string;
}

const listingColumns = (towns: ReturnType<typeof townsSubquery>) => ({
  id: books.id,
  userId: books.userId,
  title: books.title,
  author: books.author,
  isbn: books.isbn,
  description: books.description,
  publisher: books.publisher,
  publicationYear: books.publicationYear,
  condition: books.condition,
  conditionFlags: books.conditionFlags,
  price: books.price,
  status: books.status,
  cityId: books.cityId,
  isNegotiable: books.isNegotiable,
  isExchangePossible: books.isExchangePossible,
  views: books.views,
  categoryIds: books.categoryIds,
  createdAt: books.createdAt,
  updatedAt: books.updatedAt,
  hiddenAt: books.hiddenAt,
  hiddenReason: books.hiddenReason,
  isLot: sql<boolean>`${books.lotTitles} is not null`,
  cityName: towns.name,
  province: towns.provinceName,
  // The photos, in slot order, read in the same pass: PostgreSQL runs this subquery only for the
  // rows it returns (past the sort and the LIMIT: an expensive output column is computed last).
  images: sql<PhotoKeys[]>`coalesce((select json_agg(json_build_object('slot', ${bookImages.slot},
    'displayKey', ${bookImages.displayKey}, 'thumbnailKey', ${bookImages.thumbnailKey}) order by ${bookImages.slot})
    from ${bookImages} where ${bookImages.bookId} = ${books.id}), '[]'::json)`,
});

/** Listings with their town (taxonomy's relation) and photos. */
const fromListings = (db: Db) => {
  const towns = townsSubquery(db, 'towns');
  return db.select(listingColumns(towns)).from(books).leftJoin(towns, eq(towns.id, books.cityId));
};
export type BookRow = Awaited<ReturnType<ReturnType<typeof fromListings>['execute']>>[number];

/**
 * The reads of every book page and listing page as named prepared statements, one set per
 * database: drizzle builds their SQL once and PostgreSQL parses and plans them once per connection
 * (building and planning were most of a book page's cost in catalog's CPU profile).
 */
const statements = new WeakMap<Db, ReturnType<typeof prepare>>();
function prepare(db: Db, sellerBadge: SellerBadgeSql) {
  const towns = townsSubquery(db, 'towns');
  const sellerTowns = townsSubquery(db, 'seller_towns');
  const seller = membersSubquery(db, 'seller');
  return {
    // The book page: the book, its photos, its seller (with their town, badge and whether they
    // blocked the viewer, null for a visitor) in one trip.
    page: db
      .select({
        ...listingColumns(towns),
        seller: {
          userId: seller.userId,
          name: seller.name,
          username: seller.username,
          profileImage: seller.profileImage,
          email: seller.email,
          phone: seller.phone,
          ratingAverage: seller.ratingAverage,
          ratingCount: seller.ratingCount,
          createdAt: seller.createdAt,
          deactivatedAt: seller.deactivatedAt,
          deletedAt: seller.deletedAt,
        },
        sellerCity: sellerTowns.name,
        sellerProvince: sellerTowns.provinceName,
        badge: sellerBadge(seller.userId),
        blockedViewer: blockedEitherWay(seller.userId, sql`${sql.placeholder('viewer')}::uuid`),
      })
      .from(books)
      .leftJoin(towns, eq(towns.id, books.cityId))
      .leftJoin(seller, eq(seller.userId, books.userId))
      .leftJoin(sellerTowns, eq(sellerTowns.id, seller.cityId))
      .where(eq(books.id, sql.placeholder('id')))
      .prepare('catalog_book_page'),
  };
}
/** Pages of listings by id: one plan per connection whatever the number of ids. */
const rowStatements = new WeakMap<Db, ReturnType<typeof prepareRows>>();
const prepareRows = (db: Db) =>
  fromListings(db)
    .where(sql`${books.id} = any(${sql.placeholder('ids')}::int[])`)
    .prepare('catalog_books_by_ids');
const prepared = (db: Db, sellerBadge: SellerBadgeSql) => {
  let found = statements.get(db);
  if (!found) {
    found = prepare(db, sellerBadge);
    statements.set(db, found);
  }
  return found;
};

/** A book page's row (photos included), its seller for this viewer, in one prepared statement. */
export async function findBookPage(db: Db, sellerBadge: SellerBadgeSql, id: number, viewer?: string) {
  const [row] = await prepared(db, sellerBadge).page.execute({ id, viewer: viewer ?? null });
  return row;
}
export type BookPageRow = NonNullable<Awaited<ReturnType<typeof findBookPage>>>;

/**
 * Listings by id, in the order of the ids (one that no longer exists is left out), from a prepared
 * statement. One statement joining a page's ids and its rows was slower (1.5 against 1.15 ms for
 * (c), measured): drizzle builds its SQL and PostgreSQL plans its joins at every request, where
 * this one is planned once per connection.
 */
export async function findListingRows(db: Db, ids: number[]) {
  if (!ids.length) return [];
  let statement = rowStatements.get(db);
  if (!statement) {
    statement = prepareRows(db);
    rowStatements.set(db, statement);
  }
  const byId = new Map((await statement.execute({ ids })).map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r) => r !== undefined);
}

/** The books of these lots, in their order (one query, only when a page holds a lot). */
export const lotItemsOf = (db: Db, bookIds: number[]) =>
  db
    .select()
    .from(bookLotItems)
    .where(inArray(bookLotItems.bookId, bookIds))
    .orderBy(asc(bookLotItems.bookId), asc(bookLotItems.position));

// ── one listing ──────────────────────────────────────────────────────────────────────────────

export async function listingById(db: Db, id: number) {
  const [row] = await db.select().from(books).where(eq(books.id, id));
  return row;
}

/** The row, locked until the transaction ends, so two writers' changes do not interleave. */
export async function lockListing(db: Db, id: number) {
  const [row] = await db.select().from(books).where(eq(books.id, id)).for('update');
  return row;
}

/** These listings, locked in id order until the transaction ends (two deals on one listing never interleave). */
export const lockListings = (db: Db, ids: number[]) =>
  db.select().from(books).where(inArray(books.id, ids)).orderBy(asc(books.id)).for('update');

/** What a listing's event carries: the row as the transaction leaves it, and its first photo. */
export async function eventSnapshot(db: Db, id: number) {
  const [[book], [first]] = await Promise.all([
    db.select().from(books).where(eq(books.id, id)),
    db.select().from(bookImages).where(eq(bookImages.bookId, id)).orderBy(bookImages.slot).limit(1),
  ]);
  return book ? { book, firstThumbnailKey: first?.thumbnailKey ?? null } : undefined;
}

export const listingValues = (fields: BookFields) => ({
  title: fields.title,
  author: fields.author,
  isbn: fields.isbn ?? null,
  description: fields.description ?? null,
  publisher: fields.publisher ?? null,
  publicationYear: fields.publication_year ?? null,
  condition: fields.condition,
  conditionFlags: fields.condition_flags,
  price: fields.price,
  cityId: fields.city_id,
  isNegotiable: fields.is_negociable,
  isExchangePossible: fields.is_exchange_possible,
  // The main category first, each once.
  categoryIds: [...new Set(fields.category_ids)],
});
export type ListingValues = ReturnType<typeof listingValues> & {
  lotTitles?: string | null;
  lotAuthors?: string | null;
};

/** Set on every update of a listing: its next version. */
const nextVersion = { version: sql`${books.version} + 1`, updatedAt: sql`now()` };

export async function insertListing(db: Db, userId: string, values: Omit<typeof books.$inferInsert, 'id' | 'userId'>) {
  const [created] = await db
    .insert(books)
    .values({ ...values, userId })
    .returning({ id: books.id });
  return created!.id;
}

export async function countListings(db: Db) {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(books);
  return row?.n ?? 0;
}

export async function updateListing(db: Db, id: number, values: Partial<ListingValues>) {
  await db
    .update(books)
    .set({ ...values, ...nextVersion })
    .where(eq(books.id, id));
}

/** Puts a listing back on sale as new: it is dated now, so it shows among the recent ones again. */
export async function relistListing(db: Db, id: number) {
  await db
    .update(books)
    .set({ createdAt: sql`now()`, ...nextVersion })
    .where(eq(books.id, id));
}

export async function setListingStatus(db: Db, id: number, status: BookStatus) {
  await db
    .update(books)
    .set({ status, ...nextVersion })
    .where(eq(books.id, id));
}

export async function setListingHidden(db: Db, id: number, hidden: { at: Date; reason: string } | null) {
  await db
    .update(books)
    .set({ hiddenAt: hidden?.at ?? null, hiddenReason: hidden?.reason ?? null, ...nextVersion })
    .where(eq(books.id, id));
}

export async function deleteListing(db: Db, id: number) {
  await db.delete(books).where(eq(books.id, id));
}

// ── photos ───────────────────────────────────────────────────────────────────────────────────

export interface PhotoRow {
  bookId: number;
  slot: number;
  displayKey: string;
  thumbnailKey: string;
}

export const photosOf = (db: Db, bookId: number) => db.select().from(bookImages).where(eq(bookImages.bookId, bookId));

export async function insertPhotos(db: Db, rows: PhotoRow[]) {
  if (rows.length) await db.insert(bookImages).values(rows);
}

export async function removePhotoRows(db: Db, bookId: number, slots: number[]) {
  if (slots.length)
    await db.delete(bookImages).where(and(eq(bookImages.bookId, bookId), inArray(bookImages.slot, slots)));
}

/** The first thumbnail key of each of these listings. */
export async function firstThumbnailKeys(db: Db, ids: number[]) {
  if (!ids.length) return new Map<number, string>();
  const rows = await db
    .select({ bookId: bookImages.bookId, key: bookImages.thumbnailKey })
    .from(bookImages)
    .where(inArray(bookImages.bookId, ids))
    .orderBy(asc(bookImages.bookId), asc(bookImages.slot));
  const keys = new Map<number, string>();
  for (const r of rows) if (!keys.has(r.bookId)) keys.set(r.bookId, r.key);
  return keys;
}

// ── lots ─────────────────────────────────────────────────────────────────────────────────────

export interface LotItemValues {
  classListItemId: number;
  title: string;
  author: string;
  publisher: string | null;
  year: number | null;
  isbn: string | null;
  subjectId: number | null;
}

export async function insertLotItems(db: Db, bookId: number, items: LotItemValues[]) {
  await db.insert(bookLotItems).values(items.map((item, position) => ({ bookId, position, ...item })));
}

/** The subjects a lot's books bring to its categories. */
export async function lotSubjects(db: Db, bookId: number) {
  const rows = await db
    .select({ subjectId: bookLotItems.subjectId })
    .from(bookLotItems)
    .where(eq(bookLotItems.bookId, bookId));
  return rows.map((r) => r.subjectId).filter((id): id is number => id !== null);
}

// ── a member's listings ──────────────────────────────────────────────────────────────────────

/** The public catalogue's rule: not hidden by the moderation, its seller neither deactivated nor gone. */
export const shownCondition = and(isNull(books.hiddenAt), sql`not ${books.sellerAway}`);

export async function idsOfOwner(db: Db, userId: string) {
  const rows = await db
    .select({ id: books.id })
    .from(books)
    .where(eq(books.userId, userId))
    .orderBy(desc(books.createdAt), desc(books.id));
  return rows.map((r) => r.id);
}

/** A member's listings others may see (available or reserved), newest first, 50 at most. */
export async function publicIdsOfOwner(db: Db, userId: string) {
  const rows = await db
    .select({ id: books.id })
    .from(books)
    .where(and(eq(books.userId, userId), inArray(books.status, ['disponible', 'réservé']), shownCondition))
    .orderBy(desc(books.createdAt), desc(books.id))
    .limit(50);
  return rows.map((r) => r.id);
}

/** Of these ids, those others may see (hidden ones and those of away sellers left out). */
export async function shownIds(db: Db, ids: number[]) {
  if (!ids.length) return new Set<number>();
  const rows = await db
    .select({ id: books.id })
    .from(books)
    .where(and(inArray(books.id, ids), shownCondition));
  return new Set(rows.map((r) => r.id));
}

/** A page of what others see of a member's listings (available or reserved, shown), newest first, with the total. */
export async function publicPageOfOwner(db: Db, userId: string, page: { limit: number; offset: number }) {
  const where = and(eq(books.userId, userId), inArray(books.status, ['disponible', 'réservé']), shownCondition);
  const [rows, [counted]] = await Promise.all([
    db
      .select({ id: books.id })
      .from(books)
      .where(where)
      .orderBy(desc(books.createdAt), desc(books.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: sql<number>`count(*)::int` }).from(books).where(where),
  ]);
  return { ids: rows.map((r) => r.id), total: counted?.total ?? 0 };
}

export async function ownerStats(db: Db, userId: string) {
  return db
    .select({
      status: books.status,
      n: sql<number>`count(*)::int`,
      views: sql<number>`coalesce(sum(${books.views}), 0)::int`,
    })
    .from(books)
    .where(eq(books.userId, userId))
    .groupBy(books.status);
}

/** The listings of these ids as deals and exchanges name them: title, price, status, owner, first thumbnail key. */
export async function listingSummaries(db: Db, ids: number[]) {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map<number, ListingSummary>();
  const [rows, thumbnails] = await Promise.all([
    db
      .select({
        id: books.id,
        userId: books.userId,
        title: books.title,
        price: books.price,
        status: books.status,
        hiddenAt: books.hiddenAt,
        isExchangePossible: books.isExchangePossible,
        condition: books.condition,
      })
      .from(books)
      .where(inArray(books.id, unique)),
    firstThumbnailKeys(db, unique),
  ]);
  return new Map(rows.map((r) => [r.id, { ...r, thumbnailKey: thumbnails.get(r.id) ?? null }]));
}
export interface ListingSummary {
  id: number;
  userId: string;
  title: string;
  price: number;
  status: BookStatus;
  hiddenAt: Date | null;
  isExchangePossible: boolean;
  condition: ListingRow['condition'];
  thumbnailKey: string | null;
}

/** A member's listings offered for exchange now (available, shown), the newest first, 100 at most. */
export const exchangeOffersOf = (db: Db, userId: string) =>
  db
    .select({ id: books.id, title: books.title, price: books.price })
    .from(books)
    .where(
      and(
        eq(books.userId, userId),
        eq(books.isExchangePossible, true),
        eq(books.status, 'disponible'),
        isNull(books.hiddenAt),
      ),
    )
    .orderBy(desc(books.createdAt))
    .limit(100);

// ── counted views ────────────────────────────────────────────────────────────────────────────

/** Adds counted views, each pair (listing, views to add); one statement for the lot. */
export async function addViews(db: Db, counts: Array<[number, number]>) {
  const rows = counts.map(([id, n]) => sql`(${id}::int, ${n}::int)`);
  await db.execute(
    sql`update ${books} set views = ${books.views} + v.n from (values ${sql.join(rows, sql`, `)}) as v(id, n) where ${books.id} = v.id`,
  );
}

// ── what the listings say of taxonomy's categories and towns ─────────────────────────────────

/**
 * Listings of the public catalogue (not sold, not hidden, seller active) that each category
 * wholly contains, each listing once, given the pairs (category, a category it wholly contains).
 */
export async function countShownWithin(db: Db, within: Array<[number, number]>): Promise<Array<[number, number]>> {
  if (!within.length) return [];
  const pairs = within.map(([ancestor, descendant]) => sql`(${ancestor}::int, ${descendant}::int)`);
  const rows = await rowsOf<{ id: number; n: number }>(
    db,
    sql`select w.ancestor as id, count(distinct bc.book_id)::int as n
      from (values ${sql.join(pairs, sql`, `)}) as w(ancestor, descendant)
      join (
        select b.id as book_id, unnest(b.category_ids) as category_id from ${books} b
        where b.status <> 'vendu' and b.hidden_at is null and not b.seller_away
      ) bc on bc.category_id = w.descendant
      group by w.ancestor`,
  );
  return rows.map((r) => [Number(r.id), Number(r.n)]);
}

/** Listings in any state (sold and hidden ones too) that carry this category. */
export async function countWithCategory(db: Db, categoryId: number) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(books)
    .where(sql`${books.categoryIds} @> array[${categoryId}]::integer[]`);
  return row?.n ?? 0;
}

/** Listings (any state) placed in each of these towns. */
export async function countInTowns(db: Db, cityIds: number[]) {
  if (!cityIds.length) return new Map<number, number>();
  const rows = await db
    .select({ cityId: books.cityId, n: sql<number>`count(*)::int` })
    .from(books)
    .where(inArray(books.cityId, cityIds))
    .groupBy(books.cityId);
  return new Map(rows.map((r) => [r.cityId!, r.n]));
}

// ── text ─────────────────────────────────────────────────────────────────────────────────────

/**
 * A text typed by someone as a French full-text query on the listing's search vector (accents
 * ignored; its words are bound values). A dash standing alone between words (« SVT 6e – Planète
 * vivante », as class lists write titles) is punctuation there, not the websearch syntax's « - »
 * that excludes the next word; « -word » still excludes.
 */
export function textQuery(text: string) {
  const cleaned = text.replace(/(^|\s)[-\u2010-\u2015\u2212]+(?=\s|$)/g, '$1');
  return sql`websearch_to_tsquery('french', cartable_unaccent(${cleaned}))`;
}

// ── the back office ──────────────────────────────────────────────────────────────────────────

export interface AdminListingFilter {
  search?: string | undefined;
  status?: BookStatus | undefined;
  hidden?: boolean | undefined;
  cityId?: number | undefined;
  ownerId?: string | undefined;
  /** The category and what it wholly contains (taxonomy's `within`), as the public catalogue filters. */
  categoryIds?: number[] | undefined;
}

/** `%`, `_` and `\` typed by the moderator are letters, not LIKE wildcards. */
const likeEscape = (q: string) => q.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Every listing (sold and hidden too). The text matches title or author anywhere in a word
 * (trigram indexes serve `like`), the French full-text vector, or the ISBN.
 */
function adminConditions(filter: AdminListingFilter): SQL | undefined {
  const conditions: SQL[] = [];
  if (filter.search) {
    const contains = sql`'%' || cartable_unaccent(lower(${likeEscape(filter.search)})) || '%'`;
    const compactIsbn = filter.search.replace(/[-\s]/g, '');
    const isbn = /^\d{9,13}[\dXx]?$/.test(compactIsbn)
      ? sql` or replace(${books.isbn}, '-', '') = ${compactIsbn}`
      : sql``;
    conditions.push(
      sql`(cartable_unaccent(lower(${books.title})) like ${contains} or cartable_unaccent(lower(${books.author})) like ${contains} or ${books.search} @@ ${textQuery(filter.search)}${isbn})`,
    );
  }
  if (filter.status) conditions.push(eq(books.status, filter.status));
  if (filter.hidden === true) conditions.push(sql`${books.hiddenAt} is not null`);
  if (filter.hidden === false) conditions.push(isNull(books.hiddenAt));
  if (filter.cityId) conditions.push(eq(books.cityId, filter.cityId));
  if (filter.ownerId) conditions.push(eq(books.userId, filter.ownerId));
  if (filter.categoryIds)
    conditions.push(
      filter.categoryIds.length
        ? sql`${books.categoryIds} && ${`{${filter.categoryIds.join(',')}}`}::integer[]`
        : sql`false`,
    );
  return and(...conditions);
}

export type AdminListingOrder = { by: 'created_at' | 'price' | 'title' | 'views'; direction: 'asc' | 'desc' };

function adminOrdering({ by, direction }: AdminListingOrder): SQL[] {
  const dir = (column: SQLWrapper) => (direction === 'asc' ? asc(column) : desc(column));
  switch (by) {
    case 'price':
      return [dir(books.price), dir(books.id)];
    case 'title':
      return [dir(sql`lower(${books.title})`), dir(books.id)];
    case 'views':
      return [dir(books.views), dir(books.id)];
    default:
      return [dir(books.createdAt), dir(books.id)];
  }
}

/**
 * One page of the back office's ids, read off an index in the chosen order (created_at: the
 * books_created_idx; owner, city, hidden: their own indexes), with the exact total beside it.
 */
export async function adminPage(
  db: Db,
  filter: AdminListingFilter,
  order: AdminListingOrder,
  page: { limit: number; offset: number },
) {
  const where = adminConditions(filter);
  const [ids, [counted]] = await Promise.all([
    db
      .select({ id: books.id })
      .from(books)
      .where(where)
      .orderBy(...adminOrdering(order))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: sql<number>`count(*)::int` }).from(books).where(where),
  ]);
  return { ids: ids.map((r) => r.id), total: counted?.total ?? 0 };
}

// ── the back office's figures ────────────────────────────────────────────────────────────────

/** Listings by status, created over the window (with the week before and per day), the towns with most, and the category sets listed. */
export async function listingFigures(db: Db, window: StatsWindow, top: number) {
  const created = { from: sql`${books}`, at: sql`created_at` };
  const [byStatus, thisWeek, inPeriod, perDay, towns, categorySets] = await Promise.all([
    rowsOf<{ status: BookStatus; n: number }>(db, sql`select status, count(*)::int as n from ${books} group by status`),
    trend(db, created, lastWeek()),
    trend(db, created, window),
    dailyCounts(db, created, window),
    rowsOf<{ id: number; name: string; count: number }>(
      db,
      sql`
      select c.id, c.name, count(*)::int as count
      from ${books} b join ${townRelation} c on c.id = b.city_id
      where b.status <> 'vendu'
      group by c.id, c.name order by count desc, c.name limit ${top}`,
    ),
    // Few distinct sets (a subject and its level, mostly): the caller classifies them with the graph.
    rowsOf<{ ids: number[]; n: number }>(
      db,
      sql`select category_ids as ids, count(*)::int as n from ${books} where status <> 'vendu' group by category_ids`,
    ),
  ]);
  return { byStatus, thisWeek, inPeriod, perDay, towns, categorySets };
}

/**
 * The same book (ISBN, else title: the keys of the price guide) in this condition on sale now at
 * a price, other than `excludeId`: how many, the lowest and the highest asking price.
 */
export async function askingPrices(
  db: Db,
  book: { isbn?: string | null | undefined; title?: string | null | undefined; condition: string },
  excludeId?: number,
) {
  const [row] = await rowsOf<{ count: number; low: number | null; high: number | null }>(
    db,
    sql`select count(*)::int as count, min(price)::int as low, max(price)::int as high from ${books}
      where status <> 'vendu' and status = 'disponible' and hidden_at is null and not seller_away
        and price > 0 and condition = ${book.condition} and id <> ${excludeId ?? 0}
        and ((isbn is not null and cartable_isbn_key(isbn) = cartable_isbn_key(${book.isbn ?? null}::text))
          or (char_length(cartable_title_key(${book.title ?? ''}::text)) >= 2
            and cartable_title_key(title) = cartable_title_key(${book.title ?? ''}::text)))`,
  );
  return { count: row?.count ?? 0, low: row?.low ?? null, high: row?.high ?? null };
}
