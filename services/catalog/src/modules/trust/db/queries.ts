import type { TransactionStatus } from '@cartable/contracts';
import { type Db, rowsOf } from '@cartable/service-kit';
import { and, desc, eq, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import { bookContacts, favourites, reviews, transactions } from './schema.ts';

export type TransactionRow = typeof transactions.$inferSelect;
export type ReviewRow = typeof reviews.$inferSelect;
const count = sql<number>`count(*)::int`;

// ── who wrote to whom about a listing ────────────────────────────────────────────────────────

export async function contactExists(db: Db, bookId: number, memberId: string, otherId: string) {
  const [contact] = await db
    .select({ bookId: bookContacts.bookId })
    .from(bookContacts)
    .where(
      and(eq(bookContacts.bookId, bookId), eq(bookContacts.memberId, memberId), eq(bookContacts.otherId, otherId)),
    );
  return Boolean(contact);
}

/** The members who wrote to `memberId` about the listing, the latest first. */
export const contactsAbout = (db: Db, bookId: number, memberId: string) =>
  db
    .select({ id: bookContacts.otherId, at: bookContacts.lastMessageAt })
    .from(bookContacts)
    .where(and(eq(bookContacts.bookId, bookId), eq(bookContacts.memberId, memberId)))
    .orderBy(desc(bookContacts.lastMessageAt));

// ── deals ────────────────────────────────────────────────────────────────────────────────────

/** A deal one of whose parties is `userId`; locked until the transaction ends when asked. */
export async function dealOfParty(db: Db, id: string, userId: string, lock = false) {
  const query = db
    .select()
    .from(transactions)
    .where(
      and(eq(transactions.id, id), sql`(${transactions.sellerId} = ${userId} or ${transactions.buyerId} = ${userId})`),
    );
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function dealById(db: Db, id: string) {
  const [row] = await db.select().from(transactions).where(eq(transactions.id, id));
  return row;
}

export const dealsByIds = (db: Db, ids: string[]) =>
  ids.length ? db.select().from(transactions).where(inArray(transactions.id, ids)) : Promise.resolve([]);

export async function openProposal(db: Db, bookId: number, buyerId: string) {
  const [open] = await db
    .select({ id: transactions.id })
    .from(transactions)
    .where(
      and(eq(transactions.bookId, bookId), eq(transactions.buyerId, buyerId), eq(transactions.status, 'proposed')),
    );
  return Boolean(open);
}

export async function insertDeal(db: Db, values: typeof transactions.$inferInsert) {
  const [row] = await db.insert(transactions).values(values).returning();
  return row!;
}

export async function updateDeal(db: Db, id: string, values: Partial<typeof transactions.$inferInsert>) {
  const [row] = await db.update(transactions).set(values).where(eq(transactions.id, id)).returning();
  return row!;
}

/** Other open proposals on these listings are cancelled (they can no longer be confirmed). */
export const cancelOtherProposals = (db: Db, keptId: string, bookIds: number[], now: Date) =>
  db
    .update(transactions)
    .set({ status: 'cancelled', cancelledAt: now, cancelledBy: null, updatedAt: now })
    .where(
      and(
        eq(transactions.status, 'proposed'),
        ne(transactions.id, keptId),
        or(inArray(transactions.bookId, bookIds), inArray(transactions.exchangeBookId, bookIds)),
      ),
    )
    .returning();

export async function dealPage(
  db: Db,
  filter: { userId: string; role?: 'seller' | 'buyer' | undefined; status?: TransactionStatus | undefined },
  page: { limit: number; offset: number },
) {
  const conditions: SQL[] = [
    filter.role === 'seller'
      ? eq(transactions.sellerId, filter.userId)
      : filter.role === 'buyer'
        ? eq(transactions.buyerId, filter.userId)
        : or(eq(transactions.sellerId, filter.userId), eq(transactions.buyerId, filter.userId))!,
  ];
  if (filter.status) conditions.push(eq(transactions.status, filter.status));
  const where = and(...conditions);
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(transactions)
      .where(where)
      .orderBy(desc(transactions.createdAt), desc(transactions.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count }).from(transactions).where(where),
  ]);
  return { rows, total: counted?.total ?? 0 };
}

/** Proposals waiting for this buyer's answer. */
export async function pendingFor(db: Db, buyerId: string) {
  const [row] = await db
    .select({ count })
    .from(transactions)
    .where(and(eq(transactions.buyerId, buyerId), eq(transactions.status, 'proposed')));
  return row?.count ?? 0;
}

/** Whether a confirmed deal sold this listing (as its book, or as the book given in exchange). */
export async function soldInConfirmedDeal(db: Db, bookId: number) {
  const [row] = await db
    .select({ id: transactions.id })
    .from(transactions)
    .where(
      and(
        eq(transactions.status, 'confirmed'),
        or(eq(transactions.bookId, bookId), eq(transactions.exchangeBookId, bookId)),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/**
 * What the same book (by ISBN, else by title) in this condition sold for in confirmed sales over
 * the last `months`: one sale per pair of members, the latest (two members dealing again and
 * again would set the price alone), its median and quartiles; prices a member paid, never
 * averaged. Gifts and sales at 0 FCFA are left out.
 */
export async function soldPrices(
  db: Db,
  book: { isbn?: string | null | undefined; title?: string | null | undefined; condition: string },
  months: number,
) {
  const [row] = await rowsOf<{ deals: number; median: number | null; low: number | null; high: number | null }>(
    db,
    sql`with sales as (
        select distinct on (seller_id, buyer_id) price from ${transactions}
        where status = 'confirmed' and kind = 'sale' and price > 0 and book_condition = ${book.condition}
          and confirmed_at > now() - make_interval(months => ${months}::int)
          and (book_isbn_key = cartable_isbn_key(${book.isbn ?? null}::text)
            or (char_length(cartable_title_key(${book.title ?? ''}::text)) >= 2
              and book_title_key = cartable_title_key(${book.title ?? ''}::text)))
        order by seller_id, buyer_id, confirmed_at desc
      )
      select count(*)::int as deals,
        percentile_disc(0.5) within group (order by price) as median,
        percentile_disc(0.25) within group (order by price) as low,
        percentile_disc(0.75) within group (order by price) as high
      from sales`,
  );
  return {
    deals: row?.deals ?? 0,
    median: row?.median ?? null,
    low: row?.low ?? null,
    high: row?.high ?? null,
  };
}

/** The member's confirmed deals, as seller or buyer: the other party and when it was confirmed. */
export const confirmedDealsOf = (db: Db, userId: string) =>
  db
    .select({
      otherId: sql<string>`case when ${transactions.sellerId} = ${userId} then ${transactions.buyerId} else ${transactions.sellerId} end`,
      at: sql<Date>`coalesce(${transactions.confirmedAt}, ${transactions.updatedAt})`.mapWith(transactions.confirmedAt),
    })
    .from(transactions)
    .where(
      and(
        eq(transactions.status, 'confirmed'),
        or(eq(transactions.sellerId, userId), eq(transactions.buyerId, userId)),
      ),
    );

// ── ratings ──────────────────────────────────────────────────────────────────────────────────

export const reviewsOfDeals = (db: Db, dealIds: string[]) =>
  dealIds.length ? db.select().from(reviews).where(inArray(reviews.transactionId, dealIds)) : Promise.resolve([]);

export async function reviewById(db: Db, id: string) {
  const [row] = await db.select().from(reviews).where(eq(reviews.id, id));
  return row;
}

export async function reviewExists(db: Db, dealId: string, fromUserId: string) {
  const [row] = await db
    .select({ id: reviews.id })
    .from(reviews)
    .where(and(eq(reviews.transactionId, dealId), eq(reviews.fromUserId, fromUserId)));
  return Boolean(row);
}

export async function insertReview(db: Db, values: typeof reviews.$inferInsert) {
  const [row] = await db.insert(reviews).values(values).returning();
  return row!;
}

export async function updateReview(db: Db, id: string, values: { rating: number; comment: string }) {
  const [row] = await db
    .update(reviews)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(reviews.id, id))
    .returning();
  return row!;
}

/** The ratings the member received: who gave each, and when the deal it is about was confirmed. */
export const ratingsReceived = (db: Db, userId: string) =>
  db
    .select({
      otherId: reviews.fromUserId,
      rating: reviews.rating,
      at: sql<Date>`coalesce(${transactions.confirmedAt}, ${reviews.createdAt})`.mapWith(transactions.confirmedAt),
    })
    .from(reviews)
    .innerJoin(transactions, eq(transactions.id, reviews.transactionId))
    .where(eq(reviews.toUserId, userId));

/** Reviews given or received, newest first, with their total and average. */
export async function reviewPage(
  db: Db,
  filter: { fromUserId?: string; toUserId?: string },
  page: { limit: number; offset: number },
) {
  const where = filter.fromUserId ? eq(reviews.fromUserId, filter.fromUserId) : eq(reviews.toUserId, filter.toUserId!);
  const [rows, [agg]] = await Promise.all([
    db
      .select()
      .from(reviews)
      .where(where)
      .orderBy(desc(reviews.createdAt), desc(reviews.id))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: count, average: sql<number>`coalesce(round(avg(${reviews.rating})::numeric, 2), 0)::float8` })
      .from(reviews)
      .where(where),
  ]);
  return { rows, total: agg?.total ?? 0, average: agg?.average ?? 0 };
}

// ── favourites ───────────────────────────────────────────────────────────────────────────────

/** A member's favourites, newest first (whatever their listings' state). */
export async function favouriteIdsOf(db: Db, userId: string) {
  const rows = await db
    .select({ id: favourites.bookId })
    .from(favourites)
    .where(eq(favourites.userId, userId))
    .orderBy(desc(favourites.createdAt), desc(favourites.bookId));
  return rows.map((r) => r.id);
}

/** Adds these favourites; returns the listings actually added (those already there are not). */
export async function addFavourites(db: Db, userId: string, bookIds: number[]) {
  if (!bookIds.length) return [];
  const rows = await db
    .insert(favourites)
    .values(bookIds.map((bookId) => ({ userId, bookId })))
    .onConflictDoNothing()
    .returning({ bookId: favourites.bookId });
  return rows.map((r) => r.bookId);
}

/** Whether it was there. */
export async function removeFavourite(db: Db, userId: string, bookId: number) {
  const rows = await db
    .delete(favourites)
    .where(and(eq(favourites.userId, userId), eq(favourites.bookId, bookId)))
    .returning({ bookId: favourites.bookId });
  return rows.length > 0;
}

/** A message about a listing between two members, both directions; the first time only goes down, the last only up. */
export async function keepContact(db: Db, bookId: number, senderId: string, receiverId: string, at: Date) {
  const pair = (memberId: string, otherId: string) => ({
    bookId,
    memberId,
    otherId,
    firstMessageAt: at,
    lastMessageAt: at,
  });
  await db
    .insert(bookContacts)
    .values([pair(senderId, receiverId), pair(receiverId, senderId)])
    .onConflictDoUpdate({
      target: [bookContacts.bookId, bookContacts.memberId, bookContacts.otherId],
      set: {
        firstMessageAt: sql`least(${bookContacts.firstMessageAt}, excluded.first_message_at)`,
        lastMessageAt: sql`greatest(${bookContacts.lastMessageAt}, excluded.last_message_at)`,
      },
    });
}
