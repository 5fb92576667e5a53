import {
  CLASS_LIST_ITEMS_MAX,
  CLASS_LIST_SUGGESTIONS_MAX,
  type ClassList,
  type ClassListAvailability,
  type ClassListBookCard,
  type ClassListDetail,
  type ClassListItem,
  type ClassListItemAvailability,
  type ClassListItemRequest,
  type ClassListItemSuggestion,
  type ClassListMatchKind,
  classListItemRequestSchema,
  classListKindLabels,
  classListRequirementLabels,
  classListStatusLabels,
  conditionLabels,
  classListMessages as m,
  type Proximity,
  type SavedClassList,
} from '@cartable/contracts';
import { conflict, type Db, notFound, recordEvent, rowsOf, type Storage, unprocessable } from '@cartable/service-kit';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { categories, cities, classListItems, classLists, provinces, savedClassLists } from '../db/schema.ts';
import type { CategoryView } from '../modules/taxonomy/domain/category-store.ts';
import { kindOf } from './search.ts';

/**
 * Class book lists (issue 15): the lists, « Ma liste » (a list against the available listings),
 * the listing form's autofill, the lists members save, and the alert when a missing book of a
 * saved list is listed nearby. HTTP lives in routes/class-lists.ts.
 */

type ListRow = typeof classLists.$inferSelect;
type ItemRow = typeof classListItems.$inferSelect;

/** Titles at least this long also match a listing whose title starts with them (« … – très bon état »). */
export const TITLE_PREFIX_MIN = 12;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

// ── reading lists ────────────────────────────────────────────────────────────────────────────

async function namesOf(db: Db, ids: number[]) {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map<number, string>();
  const rows = await db
    .select({ id: categories.id, name: categories.name })
    .from(categories)
    .where(inArray(categories.id, unique));
  return new Map(rows.map((r) => [r.id, r.name]));
}

async function citiesOf(db: Db, ids: number[]) {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map<number, { id: number; name: string; province: string | null }>();
  const rows = await db
    .select({ id: cities.id, name: cities.name, province: provinces.name })
    .from(cities)
    .leftJoin(provinces, eq(provinces.id, cities.provinceId))
    .where(inArray(cities.id, unique));
  return new Map(rows.map((r) => [r.id, r]));
}

/** The answers' form of lists, with level and town names and item counts (three queries for any number). */
export async function toListDtos(db: Db, rows: ListRow[]): Promise<ClassList[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const [names, towns, counts] = await Promise.all([
    namesOf(
      db,
      rows.map((r) => r.levelId),
    ),
    citiesOf(
      db,
      rows.flatMap((r) => (r.cityId ? [r.cityId] : [])),
    ),
    db
      .select({
        listId: classListItems.listId,
        n: sql<number>`count(*)::int`,
        required: sql<number>`(count(*) filter (where ${classListItems.requirement} = 'required'))::int`,
      })
      .from(classListItems)
      .where(inArray(classListItems.listId, ids))
      .groupBy(classListItems.listId),
  ]);
  const countOf = new Map(counts.map((c) => [c.listId, c]));
  return rows.map((r) => ({
    id: r.id,
    school_year: r.schoolYear,
    level: { id: r.levelId, name: names.get(r.levelId) ?? 'Niveau supprimé' },
    kind: r.kind,
    kind_label: classListKindLabels[r.kind],
    school_name: r.schoolName,
    city: r.cityId ? (towns.get(r.cityId) ?? null) : null,
    status: r.status,
    status_label: classListStatusLabels[r.status],
    source_note: r.sourceNote,
    rejection_reason: r.rejectionReason,
    proposed_by: r.proposedBy,
    items_count: countOf.get(r.id)?.n ?? 0,
    required_count: countOf.get(r.id)?.required ?? 0,
    published_at: iso(r.publishedAt),
    created_at: iso(r.createdAt)!,
    updated_at: iso(r.updatedAt)!,
  }));
}

export async function itemsOf(db: Db, listId: number) {
  return db
    .select()
    .from(classListItems)
    .where(eq(classListItems.listId, listId))
    .orderBy(asc(classListItems.position), asc(classListItems.id));
}

export async function toItemDtos(db: Db, rows: ItemRow[]): Promise<ClassListItem[]> {
  const names = await namesOf(
    db,
    rows.flatMap((r) => (r.subjectId ? [r.subjectId] : [])),
  );
  return rows.map((r) => ({
    id: r.id,
    list_id: r.listId,
    title: r.title,
    author: r.author,
    publisher: r.publisher,
    edition: r.edition,
    year: r.year,
    isbn: r.isbn,
    subject: r.subjectId ? { id: r.subjectId, name: names.get(r.subjectId) ?? 'Matière supprimée' } : null,
    requirement: r.requirement,
    requirement_label: classListRequirementLabels[r.requirement],
    position: r.position,
  }));
}

export async function findList(db: Db, id: number) {
  const [row] = await db.select().from(classLists).where(eq(classLists.id, id));
  return row ?? null;
}

export async function listOrNotFound(db: Db, id: number) {
  const row = await findList(db, id);
  if (!row) throw notFound(m.notFound);
  return row;
}

export async function listDetail(db: Db, id: number): Promise<ClassListDetail> {
  const row = await listOrNotFound(db, id);
  const [[list], items] = await Promise.all([toListDtos(db, [row]), itemsOf(db, id)]);
  return { ...list!, items: await toItemDtos(db, items) };
}

// ── checking what is written ─────────────────────────────────────────────────────────────────

/** Level (a level or a series, not a subject), subjects and town exist; French field errors otherwise. */
export async function checkListReferences(
  db: Db,
  view: CategoryView,
  refs: { level_id?: number; city_id?: number | null; subject_ids?: Array<number | null | undefined> },
) {
  const errors: Record<string, string[]> = {};
  if (refs.level_id !== undefined) {
    if (!view.graph.nodes.has(refs.level_id) || kindOf(view.graph, refs.level_id) === 'subject')
      errors.level_id = [m.levelNotFound];
  }
  const subjects = [...new Set((refs.subject_ids ?? []).filter((id): id is number => typeof id === 'number'))];
  if (subjects.some((id) => !view.graph.nodes.has(id))) errors.subject_id = [m.subjectNotFound];
  if (refs.city_id) {
    const [city] = await db.select({ id: cities.id }).from(cities).where(eq(cities.id, refs.city_id));
    if (!city) errors.city_id = [m.cityNotFound];
  }
  if (Object.keys(errors).length) throw unprocessable(errors);
}

/** A unique violation on (year, level, kind, school) as a French 409. */
export const duplicateList = () => conflict(m.duplicateList, { school_year: [m.duplicateList] });

type ParsedItem = ReturnType<typeof classListItemRequestSchema.parse>;
export const itemValues = (listId: number, item: ParsedItem, position: number) => ({
  listId,
  title: item.title,
  author: item.author,
  publisher: item.publisher,
  edition: item.edition,
  year: item.year,
  isbn: item.isbn,
  subjectId: item.subject_id,
  requirement: item.requirement,
  position: item.position ?? position,
});

export async function insertItems(tx: Db, listId: number, items: ClassListItemRequest[]) {
  const parsed = items.map((i) => classListItemRequestSchema.parse(i));
  if (!parsed.length) return;
  const [{ n, last } = { n: 0, last: -1 }] = await tx
    .select({
      n: sql<number>`count(*)::int`,
      last: sql<number>`coalesce(max(${classListItems.position}), -1)::int`,
    })
    .from(classListItems)
    .where(eq(classListItems.listId, listId));
  if (n + parsed.length > CLASS_LIST_ITEMS_MAX) throw unprocessable({ items: [m.tooManyItems] });
  await tx.insert(classListItems).values(parsed.map((item, i) => itemValues(listId, item, last + 1 + i)));
}

/** Writes the list's `updated_at` (its items changed). */
export const touchList = (tx: Db, listId: number) =>
  tx.update(classLists).set({ updatedAt: new Date() }).where(eq(classLists.id, listId));

// ── « Ma liste » ─────────────────────────────────────────────────────────────────────────────

interface AvailabilityRow extends Record<string, unknown> {
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

const proximityOf = ['city', 'province', 'elsewhere'] as const satisfies readonly Proximity[];

/** The query of « Ma liste » (exported for EXPLAIN in tests and benchmarks). */
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
      from class_list_items i
      where i.list_id = ${listId} and i.title_key <> ''
    ),
    exact as (
      -- Two index scans per item (ISBN; title range), not one OR, which no index answers.
      select distinct on (it.id, x.id) it.id as item_id, x.id, x.match, x.price, x.is_exchange_possible,
             x.city_id, x.user_id, x.in_lot
      from it
      cross join lateral (
        select b.id, 'isbn' as match, b.price, b.is_exchange_possible, b.city_id, b.user_id, false as in_lot
        from books b
        where it.isbn is not null and b.isbn is not null and cartable_isbn_key(b.isbn) = it.isbn
          and b.status <> 'vendu' and b.status = 'disponible' and b.hidden_at is null
        union all
        -- [key, key + chr(1)) is the key alone; [key, key + '{') every title starting with it
        select b.id, 'title' as match, b.price, b.is_exchange_possible, b.city_id, b.user_id, false as in_lot
        from books b
        where cartable_title_key(b.title) ~>=~ it.title_key and cartable_title_key(b.title) ~<~ it.key_end
          and b.status <> 'vendu' and b.status = 'disponible' and b.hidden_at is null
        union all
        -- The same two look-ups among the books of lots (book_lot_items' key indexes)
        select b.id, 'isbn' as match, b.price, b.is_exchange_possible, b.city_id, b.user_id, true as in_lot
        from book_lot_items li join books b on b.id = li.book_id
        where it.isbn is not null and li.isbn_key = it.isbn
          and b.status = 'disponible' and b.hidden_at is null
        union all
        select b.id, 'title' as match, b.price, b.is_exchange_possible, b.city_id, b.user_id, true as in_lot
        from book_lot_items li join books b on b.id = li.book_id
        where li.title_key ~>=~ it.title_key and li.title_key ~<~ it.key_end
          and b.status = 'disponible' and b.hidden_at is null
      ) x
      order by it.id, x.id, x.match
    ),
    fallback as (
      select it.id as item_id, b.id, 'subject' as match, b.price, b.is_exchange_possible, b.city_id, b.user_id,
             b.in_lot
      from it
      cross join lateral (
        select b.id, b.price, b.is_exchange_possible, b.city_id, b.user_id, b.lot_titles is not null as in_lot
        from books b
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
      left join cities ci on ci.id = c.city_id
      where not exists (
        select 1 from sellers s
        where s.user_id = c.user_id and (s.deactivated_at is not null or s.deleted_at is not null)
      )
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

/**
 * Every book of the list against the available listings, in one query: per item the exact
 * matches (same ISBN; or same normalised title, or a title starting with the list's when it is
 * long enough; both read off indexes on the listed books), else the listings filed under the
 * item's subject and the list's level (the categories' GIN index); counted, the cheapest, and the
 * nearest `perItem` (town, province, elsewhere; cheapest first). A second query reads the cards.
 */
export async function availability(
  db: Db,
  storage: Storage,
  list: ClassList,
  items: ClassListItem[],
  opts: { cityId: number | null; owned: number[]; perItem: number; saved: boolean },
): Promise<ClassListAvailability> {
  const towns = await citiesOf(db, opts.cityId ? [opts.cityId] : []);
  const city = opts.cityId ? (towns.get(opts.cityId) ?? null) : null;
  const [provinceRow] = opts.cityId
    ? await db.select({ provinceId: cities.provinceId }).from(cities).where(eq(cities.id, opts.cityId))
    : [];
  const provinceId = provinceRow?.provinceId ?? null;

  const result = await rowsOf<AvailabilityRow>(
    db,
    availabilityQuery(list.id, list.level.id, opts.cityId, provinceId, opts.perItem),
  );
  const byItem = new Map(result.map((r) => [Number(r.item_id), r]));
  const cards = await bookCards(
    db,
    storage,
    result.flatMap((r) => r.top.map((t) => t.id)),
  );

  const owned = new Set(opts.owned);
  const lines: ClassListItemAvailability[] = items.map((item) => {
    const row = byItem.get(item.id);
    return {
      item,
      owned: owned.has(item.id),
      match: !row ? 'none' : row.exact ? 'exact' : 'fallback',
      count: row?.count ?? 0,
      city_count: opts.cityId ? (row?.city_count ?? 0) : 0,
      province_count: provinceId ? (row?.province_count ?? 0) : 0,
      cheapest_price: row?.cheapest ?? null,
      lot_count: row?.lots ?? 0,
      gift_count: row?.gifts ?? 0,
      exchange_count: row?.exchanges ?? 0,
      books: (row?.top ?? []).flatMap((t) => {
        const card = cards.get(t.id);
        return card ? [{ ...card, match: t.match, proximity: proximityOf[t.prox] ?? 'elsewhere' }] : [];
      }),
    };
  });
  const missing = lines.filter((l) => !l.owned);
  const cost = (ls: ClassListItemAvailability[]) =>
    ls.reduce((sum, l) => sum + (l.match === 'exact' ? (l.cheapest_price ?? 0) : 0), 0);
  return {
    list,
    city,
    items: lines,
    totals: {
      items: lines.length,
      owned: lines.length - missing.length,
      missing: missing.length,
      found: missing.filter((l) => l.match === 'exact').length,
      fallback_only: missing.filter((l) => l.match === 'fallback').length,
      not_found: missing.filter((l) => l.match === 'none').length,
      cost: cost(missing),
      required_cost: cost(missing.filter((l) => l.item.requirement === 'required')),
    },
    saved: opts.saved,
  };
}

type Card = Omit<ClassListBookCard, 'match' | 'proximity'>;

/** The small cards of « Ma liste »: one query for the books with their town and first thumbnail. */
async function bookCards(db: Db, storage: Storage, ids: number[]) {
  const unique = [...new Set(ids)];
  const cards = new Map<number, Card>();
  if (!unique.length) return cards;
  const rows = await rowsOf<{
    id: number;
    title: string;
    author: string;
    publisher: string | null;
    price: number;
    condition: ClassListBookCard['condition'];
    is_negotiable: boolean;
    is_exchange_possible: boolean;
    city_id: number | null;
    city_name: string | null;
    province: string | null;
    thumbnail_key: string | null;
    lot_size: number;
    created_at: string | Date;
  }>(
    db,
    sql`
    select b.id, b.title, b.author, b.publisher, b.price, b.condition, b.is_negotiable,
           b.is_exchange_possible, b.city_id, c.name as city_name, p.name as province,
           (select bi.thumbnail_key from book_images bi where bi.book_id = b.id order by bi.slot limit 1) as thumbnail_key,
           (select count(*)::int from book_lot_items li where li.book_id = b.id) as lot_size,
           b.created_at
    from books b
    left join cities c on c.id = b.city_id
    left join provinces p on p.id = c.province_id
    where b.id = any(${`{${unique.join(',')}}`}::int[])
  `,
  );
  for (const r of rows) {
    cards.set(Number(r.id), {
      id: Number(r.id),
      title: r.title,
      author: r.author,
      publisher: r.publisher,
      price: r.price,
      condition: r.condition,
      condition_label: conditionLabels[r.condition] ?? r.condition,
      is_negociable: r.is_negotiable,
      is_exchange_possible: r.is_exchange_possible,
      city: r.city_id ? { id: r.city_id, name: r.city_name ?? '', province: r.province } : null,
      thumbnail: r.thumbnail_key ? storage.url(r.thumbnail_key) : null,
      lot_size: Number(r.lot_size) || null,
      created_at: new Date(r.created_at).toISOString(),
    });
  }
  return cards;
}

// ── listing-form autofill ────────────────────────────────────────────────────────────────────

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Books of the published lists for the listing form: every word typed found in the title,
 * author, publisher, level or subject (accents and case ignored), or the ISBN, or a title close
 * to the text (trigram word similarity, for typos). Distinct by title and level; at most 10.
 */
export async function searchItems(db: Db, q: string, levelId?: number): Promise<ClassListItemSuggestion[]> {
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
  const result = await rowsOf<{
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
  }>(
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
      from class_list_items i
      join class_lists l on l.id = i.list_id and l.status = 'published'
      left join categories lc on lc.id = l.level_id
      left join categories sc on sc.id = i.subject_id
      where (${everyWord}
             or (${/^(\d{9}[\dX]|\d{13})$/.test(isbn) ? isbn : null}::text is not null and i.isbn = ${isbn})
             or cartable_unaccent(lower(${q})) <% cartable_unaccent(lower(i.title)))
        ${levelId ? sql`and l.level_id = ${levelId}` : sql``}
      order by i.title_key, l.level_id, l.school_year desc, (i.isbn is null), i.id
    ) d
    order by starts desc, sim desc, title
    limit ${CLASS_LIST_SUGGESTIONS_MAX}
  `,
  );
  return result.map((r) => ({
    item_id: Number(r.item_id),
    title: r.title,
    author: r.author,
    publisher: r.publisher,
    year: r.year,
    isbn: r.isbn,
    level: { id: r.level_id, name: r.level_name ?? '' },
    subject: r.subject_id ? { id: r.subject_id, name: r.subject_name ?? '' } : null,
    category_ids: [r.level_id, ...(r.subject_id ? [r.subject_id] : [])],
  }));
}

// ── saved lists ──────────────────────────────────────────────────────────────────────────────

export async function savedListsOf(db: Db, userId: string, listId?: number): Promise<SavedClassList[]> {
  const rows = await db
    .select({ saved: savedClassLists, list: classLists })
    .from(savedClassLists)
    .innerJoin(classLists, eq(classLists.id, savedClassLists.listId))
    .where(
      and(eq(savedClassLists.userId, userId), listId === undefined ? undefined : eq(savedClassLists.listId, listId)),
    )
    .orderBy(asc(savedClassLists.createdAt));
  const [lists, towns] = await Promise.all([
    toListDtos(
      db,
      rows.map((r) => r.list),
    ),
    citiesOf(
      db,
      rows.flatMap((r) => (r.saved.cityId ? [r.saved.cityId] : [])),
    ),
  ]);
  const itemIds = rows.length
    ? await db
        .select({ id: classListItems.id, listId: classListItems.listId })
        .from(classListItems)
        .where(
          inArray(
            classListItems.listId,
            rows.map((r) => r.list.id),
          ),
        )
    : [];
  return rows.map((r, i) => {
    const ids = new Set(itemIds.filter((x) => x.listId === r.list.id).map((x) => x.id));
    const owned = r.saved.ownedItemIds.filter((id) => ids.has(id));
    return {
      list: lists[i]!,
      city: r.saved.cityId ? (towns.get(r.saved.cityId) ?? null) : null,
      owned_item_ids: owned,
      missing_count: ids.size - owned.length,
      created_at: iso(r.saved.createdAt)!,
      updated_at: iso(r.saved.updatedAt)!,
    };
  });
}

// ── alerts ───────────────────────────────────────────────────────────────────────────────────

interface AlertRow extends Record<string, unknown> {
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
 * A listing was created (book-writes.ts `recordBookEvent`, in its transaction): every saved list
 * missing a book it matches exactly (ISBN, or title as « Ma liste » reads it), whose member is
 * not the seller and looks in the listing's town or province (or anywhere, having chosen no
 * town), gets catalog.class_list.match_found, once per (saved list, item, listing): the
 * class_list_alerts row is written first and the event only when it was new.
 */
export async function onBookListed(tx: Db, bookId: number) {
  const result = await rowsOf<AlertRow>(
    tx,
    sql`
    with b as (
      select b.id, b.user_id, b.title, b.price, b.is_exchange_possible, b.city_id, c.province_id,
             c.name as city_name, cartable_title_key(b.title) as key, cartable_isbn_key(b.isbn) as isbn
      from books b left join cities c on c.id = b.city_id
      where b.id = ${bookId} and b.status = 'disponible' and b.hidden_at is null
        and not b.seller_away
    ),
    -- The listing's title and ISBN, and those of each book of a lot
    k as (
      select b.key, b.isbn from b
      union
      select li.title_key, li.isbn_key from book_lot_items li where li.book_id = ${bookId}
    ),
    matched as (
      select distinct on (i.id) i.id as item_id, i.list_id, i.title as item_title,
             case when k.isbn is not null and i.isbn = k.isbn then 'isbn' else 'title' end as match
      from k
      join class_list_items i on (
        (k.isbn is not null and i.isbn = k.isbn)
        or i.title_key = k.key
        or i.title_key = any(array(
             select left(k.key, n) from generate_series(${TITLE_PREFIX_MIN}, char_length(k.key) - 1) as n
           ))
      )
      join class_lists l on l.id = i.list_id and l.status = 'published'
      order by i.id, (k.isbn is not null and i.isbn = k.isbn) desc
    ),
    targets as (
      select s.user_id, m.list_id, m.item_id, m.item_title, m.match, s.city_id as saved_city_id,
             sc.name as saved_city_name,
             case when s.city_id = b.city_id then 0 when sc.province_id = b.province_id then 1 else 2 end as prox
      from matched m
      join saved_class_lists s on s.list_id = m.list_id
      cross join b
      left join cities sc on sc.id = s.city_id
      where s.user_id <> b.user_id
        and not (m.item_id = any(s.owned_item_ids))
        and (s.city_id is null or s.city_id = b.city_id or sc.province_id = b.province_id)
    ),
    inserted as (
      insert into class_list_alerts (user_id, list_id, item_id, book_id)
      select t.user_id, t.list_id, t.item_id, ${bookId} from targets t
      on conflict do nothing
      returning user_id, list_id, item_id
    )
    select t.*, l.school_year, lc.name as level_name, l.school_name,
           b.title as book_title, b.price as book_price, b.is_exchange_possible as book_exchange,
           b.city_name as book_city_name
    from inserted x
    join targets t on t.user_id = x.user_id and t.list_id = x.list_id and t.item_id = x.item_id
    join class_lists l on l.id = t.list_id
    left join categories lc on lc.id = l.level_id
    cross join b
  `,
  );
  const at = new Date().toISOString();
  for (const r of result) {
    await recordEvent(tx, 'catalog.class_list.match_found', {
      user_id: r.user_id,
      list: {
        id: Number(r.list_id),
        school_year: r.school_year,
        level_name: r.level_name ?? '',
        school_name: r.school_name,
      },
      item: { id: Number(r.item_id), title: r.item_title },
      book: {
        id: bookId,
        title: r.book_title,
        price: Number(r.book_price),
        is_exchange_possible: r.book_exchange,
        city_name: r.book_city_name,
      },
      city: r.saved_city_id ? { id: Number(r.saved_city_id), name: r.saved_city_name ?? '' } : null,
      proximity: proximityOf[Number(r.prox)] ?? 'elsewhere',
      match: r.match,
      at,
    });
  }
  return result.length;
}

/** A proposal's outcome, for its author (notifications). */
export async function recordReviewed(tx: Db, list: ClassList, type: 'published' | 'rejected', reason: string | null) {
  await recordEvent(tx, `catalog.class_list.${type}`, {
    list_id: list.id,
    school_year: list.school_year,
    level_name: list.level.name,
    school_name: list.school_name,
    proposed_by: list.proposed_by,
    reason,
    at: new Date().toISOString(),
  });
}
