import {
  conditionLabels,
  EXCHANGE_SUGGESTION_DAYS,
  EXCHANGE_WISHES_MAX,
  type ExchangeOverview,
  type ExchangeSuggestion,
  type ExchangeWish,
  exchangeSuggestionStatusLabels,
  type exchangeWishRequestSchema,
  exchangeMessages as m,
} from '@cartable/contracts';
import {
  conflict,
  type Db,
  isUniqueViolation,
  notFound,
  recordEvent,
  rowsOf,
  type Storage,
  unprocessable,
} from '@cartable/service-kit';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { z } from 'zod';
import {
  books,
  categories,
  cities,
  classListItems,
  classLists,
  exchangeSuggestions,
  exchangeWishes,
  provinces,
  sellers,
} from '../db/schema.ts';
import {
  findExchanges,
  type MatchedSuggestion,
  type MatcherMember,
  type MatcherOffer,
  type MatcherWish,
} from './exchange-matcher.ts';

/** A leg as stored: ids only; names and titles are read when shown. */
export interface StoredLeg {
  from: string;
  to: string;
  book_id: number;
  book_title: string;
  wish: string;
}

type SuggestionRow = typeof exchangeSuggestions.$inferSelect;
type WishRow = typeof exchangeWishes.$inferSelect;

// ── wishes ───────────────────────────────────────────────────────────────────────────────────

async function wishDtos(db: Db, rows: WishRow[]): Promise<ExchangeWish[]> {
  if (!rows.length) return [];
  const itemIds = rows.flatMap((r) => (r.classListItemId ? [r.classListItemId] : []));
  const categoryIds = rows.flatMap((r) => [r.levelId, r.subjectId].filter((id): id is number => id !== null));
  const [items, names] = await Promise.all([
    itemIds.length
      ? db
          .select({ id: classListItems.id, title: classListItems.title, levelId: classLists.levelId })
          .from(classListItems)
          .innerJoin(classLists, eq(classLists.id, classListItems.listId))
          .where(inArray(classListItems.id, itemIds))
      : [],
    categoryIds.length
      ? db
          .select({ id: categories.id, name: categories.name })
          .from(categories)
          .where(inArray(categories.id, categoryIds))
      : [],
  ]);
  const item = new Map(items.map((i) => [i.id, i]));
  const name = new Map(names.map((c) => [c.id, c.name]));
  const named = (id: number | null) => (id !== null && name.has(id) ? { id, name: name.get(id)! } : null);
  return rows.map((r) => {
    const level = named(r.levelId);
    const subject = named(r.subjectId);
    const listed = r.classListItemId ? item.get(r.classListItemId) : undefined;
    return {
      id: r.id,
      kind: r.classListItemId ? 'item' : 'subject',
      label: listed?.title ?? [level?.name, subject?.name].filter(Boolean).join(' · '),
      class_list_item_id: r.classListItemId,
      level,
      subject,
      created_at: r.createdAt.toISOString(),
    };
  });
}

export async function addWish(
  db: Db,
  userId: string,
  request: z.infer<typeof exchangeWishRequestSchema>,
): Promise<ExchangeWish> {
  const [{ n } = { n: 0 }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(exchangeWishes)
    .where(eq(exchangeWishes.userId, userId));
  if (n >= EXCHANGE_WISHES_MAX) throw unprocessable({ wish: [m.tooManyWishes] }, m.tooManyWishes);
  let values: typeof exchangeWishes.$inferInsert;
  if ('class_list_item_id' in request) {
    const [item] = await db
      .select({ id: classListItems.id })
      .from(classListItems)
      .innerJoin(classLists, eq(classLists.id, classListItems.listId))
      .where(and(eq(classListItems.id, request.class_list_item_id), eq(classLists.status, 'published')));
    if (!item) throw unprocessable({ class_list_item_id: [m.itemNotFound] }, m.itemNotFound);
    values = { userId, classListItemId: item.id };
  } else {
    const found = await db
      .select({ id: categories.id })
      .from(categories)
      .where(inArray(categories.id, [request.level_id, request.subject_id]));
    const ids = new Set(found.map((c) => c.id));
    if (!ids.has(request.level_id)) throw unprocessable({ level_id: [m.levelNotFound] }, m.levelNotFound);
    if (!ids.has(request.subject_id)) throw unprocessable({ subject_id: [m.subjectNotFound] }, m.subjectNotFound);
    values = { userId, levelId: request.level_id, subjectId: request.subject_id };
  }
  try {
    const [row] = await db.insert(exchangeWishes).values(values).returning();
    return (await wishDtos(db, [row!]))[0]!;
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(m.wishDuplicate);
    throw err;
  }
}

export async function removeWish(db: Db, userId: string, id: number) {
  const [row] = await db
    .delete(exchangeWishes)
    .where(and(eq(exchangeWishes.id, id), eq(exchangeWishes.userId, userId)))
    .returning({ id: exchangeWishes.id });
  if (!row) throw notFound(m.wishNotFound);
}

// ── the matcher's run ────────────────────────────────────────────────────────────────────────

/** Two replicas never run the matcher at once (a transaction-scoped advisory lock). */
const MATCHER_LOCK = 7_815_001;

/**
 * Reads the wishes, the listings open to exchange of the members who wish for something, and
 * where everyone is; finds pairs and cycles; stores the new suggestions with their
 * catalog.exchange.suggested events. Open suggestions whose listings are no longer available,
 * or that nobody finished answering in EXCHANGE_SUGGESTION_DAYS, lapse first. Returns how many
 * suggestions were made, or null when another run (another replica) holds the lock.
 */
export async function runExchangeMatcher(db: Db, now = new Date()): Promise<number | null> {
  return db.transaction(async (tx) => {
    const [{ locked } = { locked: false }] = await rowsOf<{ locked: boolean }>(
      tx,
      sql`select pg_try_advisory_xact_lock(${MATCHER_LOCK}) as locked`,
    );
    if (!locked) return null;
    await lapseSuggestions(tx, now);

    const wishRows = await rowsOf<{
      id: number;
      user_id: string;
      label: string;
      title_key: string | null;
      isbn: string | null;
      level_id: number | null;
      subject_id: number | null;
    }>(
      tx,
      sql`
      select w.id, w.user_id, coalesce(i.title, lv.name || ' · ' || sj.name) as label,
             i.title_key, i.isbn, w.level_id, w.subject_id
      from exchange_wishes w
      left join class_list_items i on i.id = w.class_list_item_id
      left join categories lv on lv.id = w.level_id
      left join categories sj on sj.id = w.subject_id
      join sellers s on s.user_id = w.user_id and s.deactivated_at is null and s.deleted_at is null`,
    );
    if (!wishRows.length) return 0;
    const offerRows = await rowsOf<{
      id: number;
      user_id: string;
      title_key: string;
      isbn_key: string | null;
      category_ids: number[];
      city_id: number | null;
      province_id: number | null;
    }>(
      tx,
      sql`
      select b.id, b.user_id, cartable_title_key(b.title) as title_key, cartable_isbn_key(b.isbn) as isbn_key,
             b.category_ids, b.city_id, c.province_id
      from books b
      left join cities c on c.id = b.city_id
      where b.is_exchange_possible and b.status = 'disponible' and b.hidden_at is null
        and b.user_id in (select distinct user_id from exchange_wishes)
      union all
      -- A lot offers each of its books (the same listing)
      select b.id, b.user_id, li.title_key, li.isbn_key, b.category_ids, b.city_id, c.province_id
      from book_lot_items li
      join books b on b.id = li.book_id
      left join cities c on c.id = b.city_id
      where b.is_exchange_possible and b.status = 'disponible' and b.hidden_at is null
        and b.user_id in (select distinct user_id from exchange_wishes)`,
    );
    const memberRows = await rowsOf<{ id: string; city_id: number | null; province_id: number | null }>(
      tx,
      sql`
      select s.user_id as id, s.city_id, c.province_id
      from sellers s left join cities c on c.id = s.city_id
      where s.user_id in (select distinct user_id from exchange_wishes)`,
    );
    // A member who gave no town is placed where their listings are.
    const listedAt = new Map<string, { cityId: number | null; provinceId: number | null }>();
    for (const o of offerRows)
      if (!listedAt.has(o.user_id)) listedAt.set(o.user_id, { cityId: o.city_id, provinceId: o.province_id });
    const members: MatcherMember[] = memberRows.map((r) => ({
      id: r.id,
      cityId: r.city_id ?? listedAt.get(r.id)?.cityId ?? null,
      provinceId: r.province_id ?? listedAt.get(r.id)?.provinceId ?? null,
    }));
    const offers: MatcherOffer[] = offerRows.map((o) => ({
      bookId: o.id,
      userId: o.user_id,
      titleKey: o.title_key,
      isbnKey: o.isbn_key,
      categoryIds: o.category_ids,
      cityId: o.city_id,
      provinceId: o.province_id,
    }));
    const wishes: MatcherWish[] = wishRows.map((w) => ({
      id: w.id,
      userId: w.user_id,
      label: w.label ?? 'Manuel',
      titleKey: w.title_key,
      isbnKey: w.isbn,
      levelId: w.level_id,
      subjectId: w.subject_id,
    }));

    const existing = await tx
      .select({
        signature: exchangeSuggestions.signature,
        status: exchangeSuggestions.status,
        bookIds: exchangeSuggestions.bookIds,
      })
      .from(exchangeSuggestions)
      .where(inArray(exchangeSuggestions.status, ['open', 'declined']));
    const refused = new Set(existing.map((e) => e.signature));
    const taken = new Set(existing.filter((e) => e.status === 'open').flatMap((e) => e.bookIds));
    const found = findExchanges(members, offers, wishes, { taken, refused });
    if (!found.length) return 0;
    await storeSuggestions(tx, found);
    return found.length;
  });
}

async function storeSuggestions(tx: Db, found: MatchedSuggestion[]) {
  const bookIds = [...new Set(found.flatMap((s) => s.legs.map((l) => l.bookId)))];
  const titles = new Map(
    (await tx.select({ id: books.id, title: books.title }).from(books).where(inArray(books.id, bookIds))).map((b) => [
      b.id,
      b.title,
    ]),
  );
  const cityIds = [...new Set(found.flatMap((s) => (s.cityId ? [s.cityId] : [])))];
  const provinceIds = [...new Set(found.flatMap((s) => (s.provinceId ? [s.provinceId] : [])))];
  const [cityNames, provinceNames] = await Promise.all([
    cityIds.length
      ? tx.select({ id: cities.id, name: cities.name }).from(cities).where(inArray(cities.id, cityIds))
      : [],
    provinceIds.length
      ? tx.select({ id: provinces.id, name: provinces.name }).from(provinces).where(inArray(provinces.id, provinceIds))
      : [],
  ]);
  const city = new Map(cityNames.map((c) => [c.id, c.name]));
  const province = new Map(provinceNames.map((p) => [p.id, p.name]));
  for (const s of found) {
    const legs: StoredLeg[] = s.legs.map((l) => ({
      from: l.from,
      to: l.to,
      book_id: l.bookId,
      book_title: titles.get(l.bookId) ?? 'Manuel',
      wish: l.wishLabel,
    }));
    const area =
      (s.cityId ? city.get(s.cityId) : undefined) ?? (s.provinceId ? province.get(s.provinceId) : undefined) ?? 'Gabon';
    const [row] = await tx
      .insert(exchangeSuggestions)
      .values({
        kind: s.kind,
        signature: s.signature,
        memberIds: [...new Set(s.legs.flatMap((l) => [l.from, l.to]))],
        bookIds: s.legs.map((l) => l.bookId),
        legs,
        area,
      })
      .onConflictDoNothing()
      .returning();
    if (row) await recordEvent(tx, 'catalog.exchange.suggested', suggestionEvent(row));
  }
}

const suggestionEvent = (row: SuggestionRow) => ({
  suggestion_id: row.id,
  kind: row.kind,
  area: row.area,
  legs: row.legs.map((l) => ({ from_user_id: l.from, to_user_id: l.to, book_id: l.book_id, book_title: l.book_title })),
  at: new Date().toISOString(),
});

/** Open suggestions whose listings went (sold, reserved, hidden, no longer for exchange), or too old. */
async function lapseSuggestions(tx: Db, now: Date) {
  await tx.execute(sql`
    update exchange_suggestions s set status = 'lapsed', updated_at = ${now.toISOString()}::timestamptz
    where s.status = 'open' and (
      s.created_at < ${now.toISOString()}::timestamptz - make_interval(days => ${EXCHANGE_SUGGESTION_DAYS})
      or exists (
        select 1 from unnest(s.book_ids) as bid
        left join books b on b.id = bid
        where b.id is null or b.status <> 'disponible' or b.hidden_at is not null or not b.is_exchange_possible
      )
    )`);
}

// ── answers ──────────────────────────────────────────────────────────────────────────────────

async function suggestionFor(tx: Db, id: string, userId: string, lock = false) {
  const query = tx
    .select()
    .from(exchangeSuggestions)
    .where(and(eq(exchangeSuggestions.id, id), sql`${userId}::uuid = any(${exchangeSuggestions.memberIds})`));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound(m.suggestionNotFound);
  return row;
}

/** Accepts; the last acceptance opens the conversations (catalog.exchange.accepted). */
export async function acceptSuggestion(db: Db, id: string, userId: string) {
  return db.transaction(async (tx) => {
    await lapseSuggestions(tx, new Date());
    const row = await suggestionFor(tx, id, userId, true);
    if (row.status !== 'open') throw conflict(m.notOpen);
    if (row.acceptedBy.includes(userId)) throw conflict(m.alreadyAnswered);
    const acceptedBy = [...row.acceptedBy, userId];
    const everyone = row.memberIds.every((member) => acceptedBy.includes(member));
    const [updated] = await tx
      .update(exchangeSuggestions)
      .set({ acceptedBy, status: everyone ? 'accepted' : 'open', updatedAt: new Date() })
      .where(eq(exchangeSuggestions.id, row.id))
      .returning();
    if (everyone) await recordEvent(tx, 'catalog.exchange.accepted', suggestionEvent(updated!));
    return { row: updated!, everyone };
  });
}

/** Declines for everyone: the same legs are never suggested again. */
export async function declineSuggestion(db: Db, id: string, userId: string) {
  return db.transaction(async (tx) => {
    const row = await suggestionFor(tx, id, userId, true);
    if (row.status !== 'open') throw conflict(m.notOpen);
    const [updated] = await tx
      .update(exchangeSuggestions)
      .set({ status: 'declined', declinedBy: userId, updatedAt: new Date() })
      .where(eq(exchangeSuggestions.id, row.id))
      .returning();
    return updated!;
  });
}

// ── what a member sees ───────────────────────────────────────────────────────────────────────

export async function suggestionDtos(
  db: Db,
  storage: Storage,
  rows: SuggestionRow[],
  viewer: string,
): Promise<ExchangeSuggestion[]> {
  if (!rows.length) return [];
  const memberIds = [...new Set(rows.flatMap((r) => r.memberIds))];
  const bookIds = [...new Set(rows.flatMap((r) => r.bookIds))];
  const [people, listed] = await Promise.all([
    db
      .select({ id: sellers.userId, name: sellers.name, city: cities.name })
      .from(sellers)
      .leftJoin(cities, eq(cities.id, sellers.cityId))
      .where(inArray(sellers.userId, memberIds)),
    rowsOf<{
      id: number;
      title: string;
      price: number;
      condition: keyof typeof conditionLabels;
      thumbnail_key: string | null;
    }>(
      db,
      sql`select b.id, b.title, b.price, b.condition,
                 (select bi.thumbnail_key from book_images bi where bi.book_id = b.id order by bi.slot limit 1) as thumbnail_key
          from books b where b.id = any(${`{${bookIds.join(',')}}`}::int[])`,
    ),
  ]);
  const person = new Map(people.map((p) => [p.id, p]));
  const book = new Map(listed.map((b) => [b.id, b]));
  const who = (id: string) => ({ id, name: person.get(id)?.name ?? 'Membre', city: person.get(id)?.city ?? null });
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    status: r.status,
    status_label: exchangeSuggestionStatusLabels[r.status],
    area: r.area,
    legs: r.legs.map((l) => {
      const b = book.get(l.book_id);
      const other = l.from === viewer ? l.to : l.to === viewer ? l.from : null;
      return {
        from: who(l.from),
        to: who(l.to),
        book: {
          id: l.book_id,
          title: b?.title ?? l.book_title,
          price: b?.price ?? 0,
          condition_label: b ? conditionLabels[b.condition] : '',
          thumbnail: b?.thumbnail_key ? storage.url(b.thumbnail_key) : null,
        },
        wish: l.wish,
        // The talk about this listing, between its giver and its receiver, once all accepted.
        conversation_url: r.status === 'accepted' && other ? `/messages/${l.book_id}/${other}` : null,
      };
    }),
    accepted_by: r.acceptedBy,
    my_answer: r.acceptedBy.includes(viewer) ? 'accepted' : r.declinedBy === viewer ? 'declined' : null,
    created_at: r.createdAt.toISOString(),
  }));
}

/** GET /exchanges: what the member offers, looks for, and the suggestions made to them. */
export async function exchangeOverview(db: Db, storage: Storage, userId: string): Promise<ExchangeOverview> {
  const [offers, wishes, suggestions] = await Promise.all([
    db
      .select({ id: books.id, title: books.title, price: books.price })
      .from(books)
      .where(
        and(
          eq(books.userId, userId),
          eq(books.isExchangePossible, true),
          eq(books.status, 'disponible'),
          sql`${books.hiddenAt} is null`,
        ),
      )
      .orderBy(desc(books.createdAt))
      .limit(100),
    db.select().from(exchangeWishes).where(eq(exchangeWishes.userId, userId)).orderBy(asc(exchangeWishes.createdAt)),
    db
      .select()
      .from(exchangeSuggestions)
      .where(
        and(
          sql`${userId}::uuid = any(${exchangeSuggestions.memberIds})`,
          // Declined and lapsed ones stay visible a month, then only the matcher remembers them.
          sql`(${exchangeSuggestions.status} in ('open', 'accepted') or ${exchangeSuggestions.updatedAt} > now() - interval '30 days')`,
        ),
      )
      .orderBy(desc(exchangeSuggestions.createdAt))
      .limit(50),
  ]);
  return {
    offers,
    wishes: await wishDtos(db, wishes),
    suggestions: await suggestionDtos(db, storage, suggestions, userId),
  };
}

/** Runs the matcher every `intervalMs` (listings change all day; a new wish also runs it at once). */
export function startExchangeMatcher(db: Db, log: Logger, intervalMs: number, onChange: () => void) {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    runExchangeMatcher(db)
      .then((made) => {
        if (made) {
          log.info({ made }, 'exchange suggestions');
          onChange();
        }
      })
      .catch((err) => log.warn({ err }, 'exchange matcher failed'))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
