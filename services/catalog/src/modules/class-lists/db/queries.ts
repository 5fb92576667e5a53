import type { ClassListMatchKind } from '@cartable/contracts';
import { type Db, rowsOf } from '@cartable/service-kit';
import { and, asc, count, desc, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import { listingFacts, lotItemFacts } from '../../listings/index.ts';
import { blockedEitherWay } from '../../members/index.ts';
import { categoriesSubquery, categoryRelation, townRelation } from '../../taxonomy/index.ts';
import { classListAlerts, classListHolds, classListItems, classLists, savedClassLists } from './schema.ts';

/**
 * Class lists read the listings through the views the listings module publishes (listing_facts,
 * lot_item_facts), and towns and categories through taxonomy's relations: they name no table of
 * another module. The planner reads the tables' indexes through them.
 */

export type ListRow = typeof classLists.$inferSelect;
export type ItemRow = typeof classListItems.$inferSelect;
export type ListValues = typeof classLists.$inferInsert;
export type ItemValues = typeof classListItems.$inferInsert;

/** Titles at least this long also match a listing whose title starts with them (« … – très bon état »). */
export const TITLE_PREFIX_MIN = 12;

// ── lists ────────────────────────────────────────────────────────────────────────────────────

export async function listById(db: Db, id: number) {
  const [row] = await db.select().from(classLists).where(eq(classLists.id, id));
  return row;
}

/** Items and required items of each list. */
export async function itemCounts(db: Db, listIds: number[]) {
  if (!listIds.length) return new Map<number, { n: number; required: number }>();
  const rows = await db
    .select({
      listId: classListItems.listId,
      n: sql<number>`count(*)::int`,
      required: sql<number>`(count(*) filter (where ${classListItems.requirement} = 'required'))::int`,
    })
    .from(classListItems)
    .where(inArray(classListItems.listId, listIds))
    .groupBy(classListItems.listId);
  return new Map(rows.map((r) => [r.listId, r]));
}

export interface ListFilter {
  status?: ListRow['status'] | undefined;
  levelId?: number | undefined;
  schoolYear?: string | undefined;
  kind?: ListRow['kind'] | undefined;
  cityId?: number | undefined;
  /** Part of the school's name, accents and case ignored. */
  school?: string | undefined;
  /** Part of the school's name or the source note (the back office). */
  text?: string | undefined;
}

const likeOf = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function listConditions(filter: ListFilter): SQL | undefined {
  const where: SQL[] = [];
  if (filter.status) where.push(eq(classLists.status, filter.status));
  if (filter.levelId) where.push(eq(classLists.levelId, filter.levelId));
  if (filter.schoolYear) where.push(eq(classLists.schoolYear, filter.schoolYear));
  if (filter.kind) where.push(eq(classLists.kind, filter.kind));
  if (filter.cityId) where.push(eq(classLists.cityId, filter.cityId));
  if (filter.school)
    where.push(
      sql`cartable_unaccent(lower(coalesce(${classLists.schoolName}, ''))) like cartable_unaccent(lower(${likeOf(filter.school)})) escape '\\'`,
    );
  if (filter.text)
    where.push(
      or(ilike(classLists.schoolName, likeOf(filter.text)), ilike(classLists.sourceNote, likeOf(filter.text)))!,
    );
  return and(...where);
}

/**
 * A page of lists. `public`: the newest year first, then levels in the hierarchy's order;
 * `review`: proposals waiting first, then the latest changed.
 */
export async function listPage(
  db: Db,
  filter: ListFilter,
  order: 'public' | 'review',
  page: { limit: number; offset: number },
) {
  const where = listConditions(filter);
  const level = categoriesSubquery(db, 'level');
  const orderBy =
    order === 'public'
      ? [
          desc(classLists.schoolYear),
          asc(level.order),
          asc(classLists.kind),
          asc(classLists.schoolName),
          asc(classLists.id),
        ]
      : [sql`(${classLists.status} = 'proposed') desc`, desc(classLists.updatedAt), desc(classLists.id)];
  const [[counted], rows] = await Promise.all([
    db.select({ total: count() }).from(classLists).where(where),
    db
      .select({ list: classLists })
      .from(classLists)
      .leftJoin(level, eq(level.id, classLists.levelId))
      .where(where)
      .orderBy(...orderBy)
      .limit(page.limit)
      .offset(page.offset),
  ]);
  return { rows: rows.map((r) => r.list), total: counted?.total ?? 0 };
}

export async function pendingProposalsOf(db: Db, userId: string) {
  const [row] = await db
    .select({ pending: count() })
    .from(classLists)
    .where(and(eq(classLists.proposedBy, userId), eq(classLists.status, 'proposed')));
  return row?.pending ?? 0;
}

export async function insertList(db: Db, values: ListValues) {
  const [list] = await db.insert(classLists).values(values).returning({ id: classLists.id });
  return list!.id;
}

export async function updateList(db: Db, id: number, values: Partial<ListValues>) {
  await db.update(classLists).set(values).where(eq(classLists.id, id));
}

/** A proposal reviewed (published or rejected), only while it is still a proposal; undefined otherwise. */
export async function reviewProposal(db: Db, id: number, values: Partial<ListValues>) {
  const [done] = await db
    .update(classLists)
    .set(values)
    .where(and(eq(classLists.id, id), eq(classLists.status, 'proposed')))
    .returning();
  return done;
}

/** Whether the list existed. */
export async function deleteList(db: Db, id: number) {
  const gone = await db.delete(classLists).where(eq(classLists.id, id)).returning({ id: classLists.id });
  return gone.length > 0;
}

/** Locks the list until the transaction ends: one writer of its items at a time. */
export async function lockList(db: Db, id: number) {
  await db.execute(sql`select 1 from ${classLists} where ${classLists.id} = ${id} for update`);
}

/** Writes the list's `updated_at` (its items changed). */
export async function touchList(db: Db, listId: number) {
  await db.update(classLists).set({ updatedAt: new Date() }).where(eq(classLists.id, listId));
}

// ── items ────────────────────────────────────────────────────────────────────────────────────

export const itemsOf = (db: Db, listId: number) =>
  db
    .select()
    .from(classListItems)
    .where(eq(classListItems.listId, listId))
    .orderBy(asc(classListItems.position), asc(classListItems.id));

export async function itemOf(db: Db, listId: number, itemId: number) {
  const [item] = await db
    .select()
    .from(classListItems)
    .where(and(eq(classListItems.id, itemId), eq(classListItems.listId, listId)));
  return item;
}

export async function itemById(db: Db, itemId: number) {
  const [item] = await db.select().from(classListItems).where(eq(classListItems.id, itemId));
  return item;
}

/** How many items the list holds, and its last position. */
export async function itemTally(db: Db, listId: number) {
  const [row] = await db
    .select({ n: count(), last: sql<number>`coalesce(max(${classListItems.position}), -1)::int` })
    .from(classListItems)
    .where(eq(classListItems.listId, listId));
  return row ?? { n: 0, last: -1 };
}

/** The title keys already in the list (an import refuses a title twice). */
export async function titleKeysOf(db: Db, listId: number) {
  const rows = await db
    .select({ key: classListItems.titleKey })
    .from(classListItems)
    .where(eq(classListItems.listId, listId));
  return rows.map((r) => r.key);
}

export async function insertItems(db: Db, values: ItemValues[]) {
  if (!values.length) return [];
  return db
    .insert(classListItems)
    .values(values)
    .returning({ id: classListItems.id, title: classListItems.title, isbn: classListItems.isbn });
}

export async function updateItem(db: Db, id: number, values: Partial<ItemValues>) {
  return db.update(classListItems).set(values).where(eq(classListItems.id, id)).returning();
}

export async function deleteItem(db: Db, id: number) {
  await db.delete(classListItems).where(eq(classListItems.id, id));
}

/** The class list books a lot names, with their list's level, in their list's order, among published lists. */
export const publishedItems = (db: Db, itemIds: number[]) =>
  db
    .select({ item: classListItems, levelId: classLists.levelId })
    .from(classListItems)
    .innerJoin(classLists, eq(classLists.id, classListItems.listId))
    .where(and(inArray(classListItems.id, itemIds), eq(classLists.status, 'published')))
    .orderBy(asc(classListItems.position), asc(classListItems.id));

/**
 * A class list's books as other modules join them in their own statements (the exchanges'
 * wishes): id, list_id, title, title_key, isbn.
 */
export const itemRelation = sql`(select id, list_id, title, title_key, isbn from ${classListItems})`;

/** These items' titles and their list's level (any list); those of published lists only when asked. */
export async function itemTitles(db: Db, itemIds: number[], onlyPublished = false) {
  if (!itemIds.length) return new Map<number, { title: string; levelId: number }>();
  const rows = await db
    .select({ id: classListItems.id, title: classListItems.title, levelId: classLists.levelId })
    .from(classListItems)
    .innerJoin(classLists, eq(classLists.id, classListItems.listId))
    .where(and(inArray(classListItems.id, itemIds), onlyPublished ? eq(classLists.status, 'published') : undefined));
  return new Map(rows.map((r) => [r.id, { title: r.title, levelId: r.levelId }]));
}

/** The items of these lists, ids only. */
export const itemIdsOfLists = (db: Db, listIds: number[]) =>
  listIds.length
    ? db
        .select({ id: classListItems.id, listId: classListItems.listId })
        .from(classListItems)
        .where(inArray(classListItems.listId, listIds))
    : Promise.resolve([]);

// ── saved lists ──────────────────────────────────────────────────────────────────────────────

export const savedListsOf = (db: Db, userId: string, listId?: number) =>
  db
    .select({ saved: savedClassLists, list: classLists })
    .from(savedClassLists)
    .innerJoin(classLists, eq(classLists.id, savedClassLists.listId))
    .where(
      and(eq(savedClassLists.userId, userId), listId === undefined ? undefined : eq(savedClassLists.listId, listId)),
    )
    .orderBy(asc(savedClassLists.createdAt));

export async function savedList(db: Db, userId: string, listId: number) {
  const [row] = await db
    .select()
    .from(savedClassLists)
    .where(and(eq(savedClassLists.userId, userId), eq(savedClassLists.listId, listId)));
  return row;
}

/** Serialises a member's saves (until the transaction ends), so two at once cannot both pass the cap. */
export async function lockMemberSaves(db: Db, userId: string) {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`saved_class_lists:${userId}`}))`);
}

export async function savedCountOf(db: Db, userId: string) {
  const [row] = await db.select({ n: count() }).from(savedClassLists).where(eq(savedClassLists.userId, userId));
  return row?.n ?? 0;
}

export async function saveList(db: Db, userId: string, listId: number, cityId: number | null, owned: number[]) {
  await db
    .insert(savedClassLists)
    .values({ userId, listId, cityId, ownedItemIds: owned })
    .onConflictDoUpdate({
      target: [savedClassLists.userId, savedClassLists.listId],
      set: { cityId, ownedItemIds: owned, updatedAt: new Date() },
    });
}

/** Whether it was saved. */
export async function unsaveList(db: Db, userId: string, listId: number) {
  const gone = await db
    .delete(savedClassLists)
    .where(and(eq(savedClassLists.userId, userId), eq(savedClassLists.listId, listId)))
    .returning({ id: savedClassLists.listId });
  return gone.length > 0;
}

/**
 * The saved lists of a school year's lists, with their level and the level's place in the
 * hierarchy (the back office's coverage): the latest saved first, at most `limit`.
 */
export const savedListsOfYear = (db: Db, schoolYear: string, limit: number) =>
  rowsOf<{
    user_id: string;
    list_id: number;
    city_id: number | null;
    owned_item_ids: number[];
    level_id: number;
    level_name: string | null;
    level_order: number | null;
  }>(
    db,
    sql`
    select s.user_id::text, s.list_id, s.city_id, s.owned_item_ids, l.level_id, lc.name as level_name,
           lc."order" as level_order
    from ${savedClassLists} s
    join ${classLists} l on l.id = s.list_id
    left join ${categoryRelation} lc on lc.id = l.level_id
    where l.school_year = ${schoolYear}
    order by s.updated_at desc, s.user_id, s.list_id
    limit ${limit}`,
  );

/** The books of these lists, by list, in each list's order. */
export async function itemsOfLists(db: Db, listIds: number[]) {
  const byList = new Map<number, Array<{ id: number; title: string; titleKey: string | null }>>();
  if (!listIds.length) return byList;
  const rows = await db
    .select({
      id: classListItems.id,
      listId: classListItems.listId,
      title: classListItems.title,
      titleKey: classListItems.titleKey,
    })
    .from(classListItems)
    .where(inArray(classListItems.listId, listIds))
    .orderBy(asc(classListItems.position), asc(classListItems.id));
  for (const r of rows) {
    const items = byList.get(r.listId) ?? [];
    items.push(r);
    byList.set(r.listId, items);
  }
  return byList;
}

// ── « Ma liste » ─────────────────────────────────────────────────────────────────────────────

export interface AvailabilityRow extends Record<string, unknown> {
  item_id: number;
  exact: boolean;
  count: number;
  city_count: number;
  province_count: number;
  cheapest: number | null;
  lots: number;
  gifts: number;
  exchanges: number;
  top: Array<{ id: number; match: ClassListMatchKind; prox: number }>;
}

/**
 * Every book of the list against the available listings, in one statement: per item the exact
 * matches (same ISBN; or same normalised title, or a title starting with the list's when it is
 * long enough; both read off indexes on the listed books), else the listings filed under the
 * item's subject and the list's level (the categories' GIN index); counted, the cheapest, and the
 * nearest `perItem` (town, province, elsewhere; cheapest first).
 */
export function availabilityQuery(
  listId: number,
  levelId: number,
  cityId: number | null,
  provinceId: number | null,
  perItem: number,
) {
  return sql`
    with it as (
      select i.id, i.title_key, i.isbn, i.subject_id,
             case when char_length(i.title_key) >= ${TITLE_PREFIX_MIN} then i.title_key || '{'
                  else i.title_key || chr(1) end as key_end
      from ${classListItems} i
      where i.list_id = ${listId} and i.title_key <> ''
    ),
    exact as (
      -- Two index scans per item (ISBN; title range), not one OR, which no index answers.
      select distinct on (it.id, x.id) it.id as item_id, x.id, x.match, x.price, x.is_exchange_possible,
             x.city_id, x.seller_away, x.in_lot
      from it
      cross join lateral (
        select b.id, 'isbn' as match, b.price, b.is_exchange_possible, b.city_id, b.seller_away, false as in_lot
        from ${listingFacts} b
        where it.isbn is not null and b.isbn is not null and cartable_isbn_key(b.isbn) = it.isbn
          and b.status <> 'vendu' and b.status = 'disponible' and b.hidden_at is null
        union all
        -- [key, key + chr(1)) is the key alone; [key, key + '{') every title starting with it
        select b.id, 'title' as match, b.price, b.is_exchange_possible, b.city_id, b.seller_away, false as in_lot
        from ${listingFacts} b
        where cartable_title_key(b.title) ~>=~ it.title_key and cartable_title_key(b.title) ~<~ it.key_end
          and b.status <> 'vendu' and b.status = 'disponible' and b.hidden_at is null
        union all
        -- The same two look-ups among the books of lots (their key indexes)
        select b.id, 'isbn' as match, b.price, b.is_exchange_possible, b.city_id, b.seller_away, true as in_lot
        from ${lotItemFacts} li join ${listingFacts} b on b.id = li.book_id
        where it.isbn is not null and li.isbn_key = it.isbn
          and b.status = 'disponible' and b.hidden_at is null
        union all
        select b.id, 'title' as match, b.price, b.is_exchange_possible, b.city_id, b.seller_away, true as in_lot
        from ${lotItemFacts} li join ${listingFacts} b on b.id = li.book_id
        where li.title_key ~>=~ it.title_key and li.title_key ~<~ it.key_end
          and b.status = 'disponible' and b.hidden_at is null
      ) x
      order by it.id, x.id, x.match
    ),
    fallback as (
      select it.id as item_id, b.id, 'subject' as match, b.price, b.is_exchange_possible, b.city_id, b.seller_away,
             b.in_lot
      from it
      cross join lateral (
        select b.id, b.price, b.is_exchange_possible, b.city_id, b.seller_away, b.is_lot as in_lot
        from ${listingFacts} b
        where b.category_ids @> array[${levelId}::int, it.subject_id]
          and b.status <> 'vendu' and b.status = 'disponible' and b.hidden_at is null
      ) b
      where it.subject_id is not null and not exists (select 1 from exact e where e.item_id = it.id)
    ),
    scored as (
      select c.item_id, c.match, c.id, c.price, c.is_exchange_possible, c.in_lot,
             case when c.city_id = ${cityId} then 0
                  when ci.province_id = ${provinceId} then 1
                  else 2 end as prox
      from (select * from exact union all select * from fallback) c
      left join ${townRelation} ci on ci.id = c.city_id
      -- A deactivated or deleted member's listings are out of the catalogue.
      where not c.seller_away
    ),
    ranked as (
      select s.*, row_number() over (partition by s.item_id order by s.prox, s.price, s.id desc) as rn
      from scored s
    )
    select item_id,
           bool_or(match <> 'subject') as exact,
           count(*)::int as count,
           (count(*) filter (where prox = 0))::int as city_count,
           (count(*) filter (where prox <= 1))::int as province_count,
           -- A lot's price is for all its books: not one book's price
           (min(price) filter (where not in_lot))::int as cheapest,
           (count(*) filter (where in_lot))::int as lots,
           (count(*) filter (where price = 0))::int as gifts,
           (count(*) filter (where is_exchange_possible))::int as exchanges,
           coalesce(
             json_agg(json_build_object('id', id, 'match', match, 'prox', prox) order by rn)
               filter (where rn <= ${perItem}),
             '[]'::json
           ) as top
    from ranked
    group by item_id
  `;
}

export const availabilityOf = (
  db: Db,
  args: { listId: number; levelId: number; cityId: number | null; provinceId: number | null; perItem: number },
) =>
  rowsOf<AvailabilityRow>(db, availabilityQuery(args.listId, args.levelId, args.cityId, args.provinceId, args.perItem));

export interface BasketCandidateRow extends Record<string, unknown> {
  item_id: number;
  /** The median price of the book's available listings sold alone, anywhere; null when none. */
  median: number | null;
  /** A listing holding the book in the town or its province (null: none). */
  id: number | null;
  price: number | null;
  in_lot: boolean | null;
  seller_id: string | null;
  city_id: number | null;
  prox: number | null;
  /** The seller would swap it (« échange possible »). */
  exchange: boolean | null;
}

/**
 * A listing on offer to this member: available, or held « Réservé » for them (its seller proposed
 * them a deal for a book of their list: domain/holds.ts).
 */
const offeredTo = (memberId: string) =>
  sql`(b.status = 'disponible' or exists (
    select 1 from ${classListHolds} h where h.book_id = b.id and h.user_id = ${memberId}::uuid))`;

/**
 * « Compléter ma liste »: for each missing book, the available listings holding it exactly (as
 * « Ma liste » matches them: ISBN or title, alone or in a lot) in the town or its province, of
 * sellers other than the member and not blocked either way; and the book's median price
 * sold alone on the whole site. One row per (book, listing); a book nobody offers nearby has one
 * row without a listing.
 */
export function basketCandidates(
  db: Db,
  args: { listId: number; itemIds: number[]; cityId: number; provinceId: number | null; memberId: string },
) {
  return rowsOf<BasketCandidateRow>(
    db,
    sql`
    with it as (
      select i.id, i.title_key, i.isbn,
             case when char_length(i.title_key) >= ${TITLE_PREFIX_MIN} then i.title_key || '{'
                  else i.title_key || chr(1) end as key_end
      from ${classListItems} i
      where i.list_id = ${args.listId} and i.title_key <> ''
        and i.id = any(${`{${args.itemIds.join(',')}}`}::int[])
    ),
    exact as (
      select distinct on (it.id, x.id) it.id as item_id, x.id, x.price, x.city_id, x.user_id, x.seller_away, x.in_lot,
             x.is_exchange_possible
      from it
      cross join lateral (
        select b.id, b.price, b.city_id, b.user_id, b.seller_away, false as in_lot, b.is_exchange_possible
        from ${listingFacts} b
        where it.isbn is not null and b.isbn is not null and cartable_isbn_key(b.isbn) = it.isbn
          and b.status <> 'vendu' and ${offeredTo(args.memberId)} and b.hidden_at is null
        union all
        select b.id, b.price, b.city_id, b.user_id, b.seller_away, false as in_lot, b.is_exchange_possible
        from ${listingFacts} b
        where cartable_title_key(b.title) ~>=~ it.title_key and cartable_title_key(b.title) ~<~ it.key_end
          and b.status <> 'vendu' and ${offeredTo(args.memberId)} and b.hidden_at is null
        union all
        select b.id, b.price, b.city_id, b.user_id, b.seller_away, true as in_lot, b.is_exchange_possible
        from ${lotItemFacts} li join ${listingFacts} b on b.id = li.book_id
        where it.isbn is not null and li.isbn_key = it.isbn
          and ${offeredTo(args.memberId)} and b.hidden_at is null
        union all
        select b.id, b.price, b.city_id, b.user_id, b.seller_away, true as in_lot, b.is_exchange_possible
        from ${lotItemFacts} li join ${listingFacts} b on b.id = li.book_id
        where li.title_key ~>=~ it.title_key and li.title_key ~<~ it.key_end
          and ${offeredTo(args.memberId)} and b.hidden_at is null
      ) x
      order by it.id, x.id
    ),
    med as (
      select item_id, percentile_disc(0.5) within group (order by price)::int as median
      from exact where not in_lot and not seller_away group by item_id
    ),
    -- Materialized: the planner expects one book and would otherwise run it once per book.
    near as materialized (
      select e.item_id, e.id, e.price, e.in_lot, e.user_id, e.city_id, e.is_exchange_possible,
             case when e.city_id = ${args.cityId} then 0 else 1 end as prox
      from exact e
      left join ${townRelation} ci on ci.id = e.city_id
      where not e.seller_away and e.user_id <> ${args.memberId}::uuid
        and (e.city_id = ${args.cityId} or ci.province_id = ${args.provinceId})
        and not ${blockedEitherWay(sql`e.user_id`, sql`${args.memberId}::uuid`)}
    )
    select it.id as item_id, m.median, n.id, n.price, n.in_lot, n.user_id::text as seller_id, n.city_id, n.prox,
           n.is_exchange_possible as exchange
    from it
    left join med m on m.item_id = it.id
    left join near n on n.item_id = it.id
  `,
  );
}

export interface CardRow {
  id: number;
  title: string;
  author: string;
  publisher: string | null;
  price: number;
  condition: string;
  is_negotiable: boolean;
  is_exchange_possible: boolean;
  city_id: number | null;
  city_name: string | null;
  province: string | null;
  lot_size: number;
  created_at: string | Date;
}

/** The small cards of « Ma liste » (the photos apart): the listings with their town and lot size. */
export async function cardRows(db: Db, ids: number[]) {
  if (!ids.length) return [];
  return rowsOf<CardRow>(
    db,
    sql`
    select b.id, b.title, b.author, b.publisher, b.price, b.condition, b.is_negotiable,
           b.is_exchange_possible, b.city_id, c.name as city_name, c.province_name as province,
           (select count(*)::int from ${lotItemFacts} li where li.book_id = b.id) as lot_size,
           b.created_at
    from ${listingFacts} b
    left join ${townRelation} c on c.id = b.city_id
    where b.id = any(${`{${ids.join(',')}}`}::int[])
  `,
  );
}

// ── the listing form's autofill ──────────────────────────────────────────────────────────────

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export interface ItemSuggestionRow {
  item_id: number;
  title: string;
  author: string;
  publisher: string | null;
  year: number | null;
  isbn: string | null;
  level_id: number;
  level_name: string | null;
  subject_id: number | null;
  subject_name: string | null;
}

/**
 * Books of the published lists: every word typed found in the title, author, publisher, level or
 * subject (accents and case ignored), or the ISBN, or a title close to the text (trigram word
 * similarity, for typos). Distinct by title and level; at most `limit`.
 */
export function searchItems(db: Db, q: string, levelId: number | undefined, limit: number) {
  const words = q
    .split(/\s+/)
    .map((w) => w.trim())
    .filter((w) => w.length > 0)
    .slice(0, 8);
  const isbn = q.replace(/[-\s]/g, '').toUpperCase();
  const haystack = sql`cartable_unaccent(lower(i.title || ' ' || i.author || ' ' || coalesce(i.publisher, '') || ' ' || coalesce(lc.name, '') || ' ' || coalesce(sc.name, '')))`;
  const everyWord = sql.join(
    words.map((w) => sql`${haystack} like ${`%${likeEscape(w.toLowerCase())}%`} escape '\\'`),
    sql` and `,
  );
  return rowsOf<ItemSuggestionRow>(
    db,
    sql`
    select item_id, title, author, publisher, year, isbn, level_id, level_name, subject_id, subject_name
    from (
      select distinct on (i.title_key, l.level_id)
             i.id as item_id, i.title, i.author, i.publisher, i.year, i.isbn, l.level_id, lc.name as level_name,
             i.subject_id, sc.name as subject_name,
             (cartable_unaccent(lower(i.title)) like cartable_unaccent(lower(${`${likeEscape(q)}%`})) escape '\\') as starts,
             word_similarity(cartable_unaccent(lower(${q})), cartable_unaccent(lower(i.title))) as sim,
             l.school_year
      from ${classListItems} i
      join ${classLists} l on l.id = i.list_id and l.status = 'published'
      left join ${categoryRelation} lc on lc.id = l.level_id
      left join ${categoryRelation} sc on sc.id = i.subject_id
      where (${everyWord}
             or (${/^(\d{9}[\dX]|\d{13})$/.test(isbn) ? isbn : null}::text is not null and i.isbn = ${isbn})
             or cartable_unaccent(lower(${q})) <% cartable_unaccent(lower(i.title)))
        ${levelId ? sql`and l.level_id = ${levelId}` : sql``}
      order by i.title_key, l.level_id, l.school_year desc, (i.isbn is null), i.id
    ) d
    order by starts desc, sim desc, title
    limit ${limit}
  `,
  );
}

// ── alerts ───────────────────────────────────────────────────────────────────────────────────

export interface AlertRow extends Record<string, unknown> {
  user_id: string;
  list_id: number;
  item_id: number;
  item_title: string;
  school_year: string;
  level_name: string | null;
  school_name: string | null;
  saved_city_id: number | null;
  saved_city_name: string | null;
  match: ClassListMatchKind;
  prox: number;
  book_title: string;
  book_price: number;
  book_exchange: boolean;
  book_city_name: string | null;
}

/**
 * The saved lists missing a book this listing matches exactly (ISBN, or title as « Ma liste »
 * reads it), whose member is not the seller and looks in the listing's town or province (or
 * anywhere, having chosen no town): one class_list_alerts row each, written once per (saved list,
 * item, listing); the rows written now are returned, with what their alert says.
 */
export function writeAlertsFor(db: Db, bookId: number) {
  return rowsOf<AlertRow>(
    db,
    sql`
    with b as (
      select b.id, b.user_id, b.title, b.price, b.is_exchange_possible, b.city_id, c.province_id,
             c.name as city_name, cartable_title_key(b.title) as key, cartable_isbn_key(b.isbn) as isbn
      from ${listingFacts} b left join ${townRelation} c on c.id = b.city_id
      where b.id = ${bookId} and b.status = 'disponible' and b.hidden_at is null
        and not b.seller_away
    ),
    -- The listing's title and ISBN, and those of each book of a lot
    k as (
      select b.key, b.isbn from b
      union
      select li.title_key, li.isbn_key from ${lotItemFacts} li where li.book_id = ${bookId}
    ),
    matched as (
      select distinct on (i.id) i.id as item_id, i.list_id, i.title as item_title,
             case when k.isbn is not null and i.isbn = k.isbn then 'isbn' else 'title' end as match
      from k
      join ${classListItems} i on (
        (k.isbn is not null and i.isbn = k.isbn)
        or i.title_key = k.key
        or i.title_key = any(array(
             select left(k.key, n) from generate_series(${TITLE_PREFIX_MIN}, char_length(k.key) - 1) as n
           ))
      )
      join ${classLists} l on l.id = i.list_id and l.status = 'published'
      order by i.id, (k.isbn is not null and i.isbn = k.isbn) desc
    ),
    targets as (
      select s.user_id, m.list_id, m.item_id, m.item_title, m.match, s.city_id as saved_city_id,
             sc.name as saved_city_name,
             case when s.city_id = b.city_id then 0 when sc.province_id = b.province_id then 1 else 2 end as prox
      from matched m
      join ${savedClassLists} s on s.list_id = m.list_id
      cross join b
      left join ${townRelation} sc on sc.id = s.city_id
      where s.user_id <> b.user_id
        and not (m.item_id = any(s.owned_item_ids))
        and (s.city_id is null or s.city_id = b.city_id or sc.province_id = b.province_id)
    ),
    inserted as (
      insert into ${classListAlerts} (user_id, list_id, item_id, book_id)
      select t.user_id, t.list_id, t.item_id, ${bookId} from targets t
      on conflict do nothing
      returning user_id, list_id, item_id
    )
    select t.*, l.school_year, lc.name as level_name, l.school_name,
           b.title as book_title, b.price as book_price, b.is_exchange_possible as book_exchange,
           b.city_name as book_city_name
    from inserted x
    join targets t on t.user_id = x.user_id and t.list_id = x.list_id and t.item_id = x.item_id
    join ${classLists} l on l.id = t.list_id
    left join ${categoryRelation} lc on lc.id = l.level_id
    cross join b
  `,
  );
}

// ── what the back office's figures ask ───────────────────────────────────────────────────────

/**
 * The latest official lists' books with what families want of them: the saved lists still
 * missing each (exchange wishes are the exchanges module's, added by the caller).
 */
export function latestOfficialDemand(db: Db) {
  return rowsOf<{
    item_id: number;
    title: string;
    title_key: string;
    isbn: string | null;
    level: string;
    school_year: string;
    saved_missing: number;
  }>(
    db,
    sql`
    with latest as (
      select max(school_year) as year from ${classLists} where status = 'published' and kind = 'official'
    )
    select i.id as item_id, i.title, i.title_key, i.isbn, coalesce(lc.name, '') as level, l.school_year,
           (select count(*)::int from ${savedClassLists} s
              where s.list_id = i.list_id and not (i.id = any(s.owned_item_ids))) as saved_missing
    from ${classListItems} i
    join ${classLists} l on l.id = i.list_id and l.status = 'published' and l.kind = 'official'
    join latest on l.school_year = latest.year
    left join ${categoryRelation} lc on lc.id = l.level_id
    where i.title_key <> ''`,
  );
}

/** Of these items (ISBN, title key), how many available listings match exactly (as « Ma liste » counts them). */
export async function availableExactly(db: Db, items: Array<{ id: number; isbn: string | null; titleKey: string }>) {
  if (!items.length) return new Map<number, number>();
  const rows = await rowsOf<{ item_id: number; available: number }>(
    db,
    sql`
    select it.id as item_id,
           -- Two index scans (ISBN; title key), as « Ma liste »: no index answers their OR.
           (select count(*)::int from (
              select b.id from ${listingFacts} b
              where it.isbn is not null and b.isbn is not null and cartable_isbn_key(b.isbn) = it.isbn
                and b.status <> 'vendu' and b.status = 'disponible' and b.hidden_at is null
              union
              select b.id from ${listingFacts} b
              where cartable_title_key(b.title) = it.title_key
                and b.status <> 'vendu' and b.status = 'disponible' and b.hidden_at is null) x) as available
    from unnest(${sql.param(items.map((i) => i.id))}::int[], ${sql.param(items.map((i) => i.isbn))}::text[], ${sql.param(items.map((i) => i.titleKey))}::text[])
      as it(id, isbn, title_key)`,
  );
  return new Map(rows.map((r) => [Number(r.item_id), r.available]));
}

// ── the listing form's ISBN look-up ──────────────────────────────────────────────────────────

/** The books of the published lists with one of these ISBNs (digits and X), newest school year first. */
export function publishedItemsOfIsbn(db: Db, isbns: string[], limit: number) {
  return db
    .select({
      title: classListItems.title,
      author: classListItems.author,
      publisher: classListItems.publisher,
      year: classListItems.year,
      levelId: classLists.levelId,
      subjectId: classListItems.subjectId,
    })
    .from(classListItems)
    .innerJoin(classLists, and(eq(classLists.id, classListItems.listId), eq(classLists.status, 'published')))
    .where(inArray(classListItems.isbn, isbns))
    .orderBy(desc(classLists.schoolYear), asc(classListItems.id))
    .limit(limit);
}
