import type { ClassListChange, ClassListVersion } from '@cartable/contracts';
import { type Db, rowsOf } from '@cartable/service-kit';
import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { listingFacts, lotItemFacts } from '../../listings/index.ts';
import { categoryRelation } from '../../taxonomy/index.ts';
import { TITLE_PREFIX_MIN } from './queries.ts';
import { classListItems, classLists, classListVersions, classListWithdrawals, savedClassLists } from './schema.ts';

/**
 * A list's versions and the books it withdrew; and, by the rule « Ma liste » matches listings to
 * a list's books (same ISBN, same title once accents, case and punctuation are ignored, or a title
 * starting with a long enough one; alone or in a lot), the listings of a withdrawn book and the
 * lists that name (or dropped) a listing's book.
 */

export type VersionRow = typeof classListVersions.$inferSelect;

/** The number the next version takes (the list as first written is version 1). */
export async function nextVersionNumber(db: Db, listId: number) {
  const [row] = await db
    .select({ last: sql<number>`coalesce(max(${classListVersions.number}), 1)::int` })
    .from(classListVersions)
    .where(eq(classListVersions.listId, listId));
  return (row?.last ?? 1) + 1;
}

export async function insertVersion(
  db: Db,
  values: { listId: number; number: number; source: VersionRow['source']; changes: ClassListChange[] },
) {
  const [row] = await db.insert(classListVersions).values(values).returning();
  return row!;
}

export async function insertWithdrawals(
  db: Db,
  listId: number,
  version: number,
  items: Array<{ id: number; title: string; isbn: string | null }>,
) {
  if (!items.length) return;
  await db
    .insert(classListWithdrawals)
    .values(items.map((i) => ({ listId, itemId: i.id, version, title: i.title, isbn: i.isbn })))
    .onConflictDoNothing();
}

export const versionsOf = (db: Db, listId: number) =>
  db
    .select()
    .from(classListVersions)
    .where(eq(classListVersions.listId, listId))
    .orderBy(desc(classListVersions.number));

export async function latestVersion(db: Db, listId: number) {
  const [row] = await versionsOf(db, listId).limit(1);
  return row;
}

export const versionDto = (v: VersionRow): ClassListVersion => ({
  number: v.number,
  source: v.source,
  changes: v.changes,
  created_at: new Date(v.createdAt).toISOString(),
});

/** Of these item ids, those the list withdrew (with their title), for the books a family had. */
export async function withdrawnAmong(db: Db, listId: number, itemIds: number[]) {
  if (!itemIds.length) return [];
  return db
    .select({ id: classListWithdrawals.itemId, title: classListWithdrawals.title, isbn: classListWithdrawals.isbn })
    .from(classListWithdrawals)
    .where(and(eq(classListWithdrawals.listId, listId), inArray(classListWithdrawals.itemId, itemIds)));
}

/** The members who saved the list. */
export async function savedMembersOf(db: Db, listId: number) {
  const rows = await db
    .select({ userId: savedClassLists.userId })
    .from(savedClassLists)
    .where(eq(savedClassLists.listId, listId));
  return rows.map((r) => r.userId);
}

/** The list's level name, for what its events say. */
export async function levelNameOf(db: Db, levelId: number) {
  const [row] = await rowsOf<{ name: string }>(db, sql`select name from ${categoryRelation} c where c.id = ${levelId}`);
  return row?.name ?? '';
}

// A listing's keys: its own title and ISBN, and those of each book of its lot.
const keysOf = (bookId: SQL) => sql`(
  select cartable_title_key(b.title) as key, cartable_isbn_key(b.isbn) as isbn
  from ${listingFacts} b where b.id = ${bookId}
  union
  select li.title_key, li.isbn_key from ${lotItemFacts} li where li.book_id = ${bookId}
)`;

// A list's book `i` names a listing's key `k` (the same rule as « Ma liste », read from the listing).
const names = (i: string, k: string) =>
  sql.raw(`((${k}.isbn is not null and ${i}.isbn = ${k}.isbn)
    or ${i}.title_key = ${k}.key
    or (char_length(${i}.title_key) >= ${TITLE_PREFIX_MIN} and starts_with(${k}.key, ${i}.title_key)))`);

export interface WithdrawnListingRow extends Record<string, unknown> {
  book_id: number;
  user_id: string;
  book_title: string;
  item_id: number;
  item_title: string;
}

/**
 * The available listings holding one of these withdrawn books, that no book the list still holds
 * names: one row per listing (its first withdrawn book).
 */
export function listingsOfWithdrawn(
  db: Db,
  listId: number,
  items: Array<{ id: number; title: string; isbn: string | null }>,
) {
  if (!items.length) return Promise.resolve([] as WithdrawnListingRow[]);
  return rowsOf<WithdrawnListingRow>(
    db,
    sql`
    with w as (
      select w.item_id, w.title, w.isbn, cartable_title_key(w.title) as title_key
      from unnest(${sql.param(items.map((i) => i.id))}::int[], ${sql.param(items.map((i) => i.title))}::text[],
                  ${sql.param(items.map((i) => i.isbn))}::text[]) as w(item_id, title, isbn)
    ),
    wk as (
      select w.*, case when char_length(w.title_key) >= ${TITLE_PREFIX_MIN} then w.title_key || '{'
                       else w.title_key || chr(1) end as key_end
      from w where w.title_key <> ''
    ),
    hit as (
      select distinct on (x.id) wk.item_id, wk.title as item_title, x.id as book_id, x.user_id, x.title as book_title
      from wk
      cross join lateral (
        select b.id, b.user_id, b.title from ${listingFacts} b
        where wk.isbn is not null and b.isbn is not null and cartable_isbn_key(b.isbn) = wk.isbn
          and b.status = 'disponible' and b.hidden_at is null
        union all
        select b.id, b.user_id, b.title from ${listingFacts} b
        where cartable_title_key(b.title) ~>=~ wk.title_key and cartable_title_key(b.title) ~<~ wk.key_end
          and b.status <> 'vendu' and b.status = 'disponible' and b.hidden_at is null
        union all
        select b.id, b.user_id, b.title from ${lotItemFacts} li join ${listingFacts} b on b.id = li.book_id
        where wk.isbn is not null and li.isbn_key = wk.isbn and b.status = 'disponible' and b.hidden_at is null
        union all
        select b.id, b.user_id, b.title from ${lotItemFacts} li join ${listingFacts} b on b.id = li.book_id
        where li.title_key ~>=~ wk.title_key and li.title_key ~<~ wk.key_end
          and b.status = 'disponible' and b.hidden_at is null
      ) x
      order by x.id, wk.item_id
    )
    select h.book_id, h.user_id::text as user_id, h.book_title, h.item_id, h.item_title
    from hit h
    where not exists (
      select 1 from ${classListItems} i cross join lateral ${keysOf(sql`h.book_id`)} k
      where i.list_id = ${listId} and ${names('i', 'k')}
    )
    order by h.book_id`,
  );
}

export interface BookListRow extends Record<string, unknown> {
  id: number;
  level_id: number;
  school_year: string;
  level_name: string | null;
  school_name: string | null;
  withdrawn_at: string | Date | null;
}

/**
 * The published lists whose books name this listing's book (withdrawn_at null), then those that
 * withdrew it and name it no more; the newest school year first.
 */
export function listsOfBook(db: Db, bookId: number) {
  return rowsOf<BookListRow>(
    db,
    sql`
    with k as ${keysOf(sql`${bookId}`)},
    named as (
      select distinct i.list_id from k
      join ${classListItems} i on (
        (k.isbn is not null and i.isbn = k.isbn)
        or i.title_key = k.key
        or i.title_key = any(array(
             select left(k.key, n) from generate_series(${TITLE_PREFIX_MIN}, char_length(k.key) - 1) as n))
      )
    ),
    dropped as (
      select w.list_id, max(w.withdrawn_at) as withdrawn_at from k
      join ${classListWithdrawals} w on (
        (k.isbn is not null and w.isbn = k.isbn)
        or w.title_key = k.key
        or w.title_key = any(array(
             select left(k.key, n) from generate_series(${TITLE_PREFIX_MIN}, char_length(k.key) - 1) as n))
      )
      where w.list_id not in (select list_id from named)
      group by w.list_id
    ),
    found as (
      select list_id, null::timestamptz as withdrawn_at from named
      union all
      select list_id, withdrawn_at from dropped
    )
    select l.id, l.level_id, l.school_year, lc.name as level_name, l.school_name, f.withdrawn_at
    from found f
    join ${classLists} l on l.id = f.list_id and l.status = 'published'
    left join ${categoryRelation} lc on lc.id = l.level_id
    order by l.school_year desc, lc.name, l.kind, l.school_name nulls first, l.id`,
  );
}

export interface WithdrawnBookListRow extends BookListRow {
  book_id: number;
}

/**
 * Of a page of listings, the published lists that withdrew each one's book and name it no more, in
 * one statement: every grid of cards asks it, and a statement per card took a page's dozen
 * connections at once.
 */
export function withdrawnListsOfBooks(db: Db, bookIds: number[]) {
  return rowsOf<WithdrawnBookListRow>(
    db,
    sql`
    with ids as (select unnest(${`{${bookIds.join(',')}}`}::int[]) as book_id),
    k as (select ids.book_id, x.key, x.isbn from ids cross join lateral ${keysOf(sql`ids.book_id`)} x),
    prefixes as (
      select k.book_id, k.key, k.isbn, array(
        select left(k.key, n) from generate_series(${TITLE_PREFIX_MIN}, char_length(k.key) - 1) as n) as starts
      from k
    ),
    named as (
      select distinct p.book_id, i.list_id from prefixes p
      join ${classListItems} i on (
        (p.isbn is not null and i.isbn = p.isbn) or i.title_key = p.key or i.title_key = any(p.starts))
    ),
    dropped as (
      select p.book_id, w.list_id, max(w.withdrawn_at) as withdrawn_at from prefixes p
      join ${classListWithdrawals} w on (
        (p.isbn is not null and w.isbn = p.isbn) or w.title_key = p.key or w.title_key = any(p.starts))
      where not exists (select 1 from named n where n.book_id = p.book_id and n.list_id = w.list_id)
      group by p.book_id, w.list_id
    )
    select d.book_id, l.id, l.level_id, l.school_year, lc.name as level_name, l.school_name, d.withdrawn_at
    from dropped d
    join ${classLists} l on l.id = d.list_id and l.status = 'published'
    left join ${categoryRelation} lc on lc.id = l.level_id
    order by d.book_id, l.school_year desc, lc.name, l.kind, l.school_name nulls first, l.id`,
  );
}

/**
 * Marks owned, in every list this member saved, the books a listing's book stands for (the rule of
 * « Ma liste », a lot's books included): the lists the member saved; the items newly owned.
 */
export function markOwnedByListing(db: Db, userId: string, bookId: number) {
  return rowsOf<{ list_id: number; owned_item_ids: number[] }>(
    db,
    sql`
    with k as ${keysOf(sql`${bookId}`)},
    received as (
      select s.list_id, array_agg(distinct i.id) as ids
      from ${savedClassLists} s
      join ${classListItems} i on i.list_id = s.list_id
      join k on ${names('i', 'k')}
      where s.user_id = ${userId}::uuid and not i.id = any(s.owned_item_ids)
      group by s.list_id
    )
    update ${savedClassLists} s
    set owned_item_ids = array(select distinct x from unnest(s.owned_item_ids || r.ids) as x order by x),
        updated_at = now()
    from received r
    where s.user_id = ${userId}::uuid and s.list_id = r.list_id
    returning s.list_id, r.ids as owned_item_ids`,
  );
}

/** Whether a list this member saved still misses a book the listing's book stands for. */
export async function savedListMisses(db: Db, userId: string, bookId: number) {
  const [row] = await rowsOf<{ misses: boolean }>(
    db,
    sql`
    with k as ${keysOf(sql`${bookId}`)}
    select exists (
      select 1 from ${savedClassLists} s
      join ${classListItems} i on i.list_id = s.list_id
      join k on ${names('i', 'k')}
      where s.user_id = ${userId}::uuid and not i.id = any(s.owned_item_ids)
    ) as misses`,
  );
  return row?.misses ?? false;
}
