import {
  type DealBook,
  type DealMember,
  dealMessages,
  RATING_EDIT_DAYS,
  type Review,
  type Transaction,
  transactionKindLabels,
  transactionStatusLabels,
} from '@cartable/contracts';
import { type Db, HttpError, recordEvent, type Storage } from '@cartable/service-kit';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { bookImages, books, reviews, sellers, transactions } from '../db/schema.ts';

const d = dealMessages;
export type TransactionRow = typeof transactions.$inferSelect;
export type ReviewRow = typeof reviews.$inferSelect;

export const RATING_EDIT_MS = RATING_EDIT_DAYS * 24 * 3600_000;

/** Members as catalog's projection of auth knows them; « Membre » for one not heard of yet. */
export async function membersById(db: Db, ids: string[]): Promise<Map<string, DealMember>> {
  const unique = [...new Set(ids)];
  const rows = unique.length
    ? await db
        .select({
          id: sellers.userId,
          name: sellers.name,
          username: sellers.username,
          profileImage: sellers.profileImage,
        })
        .from(sellers)
        .where(inArray(sellers.userId, unique))
    : [];
  const found = new Map(
    rows.map((r) => [r.id, { id: r.id, name: r.name, username: r.username, profile_image: r.profileImage }]),
  );
  return new Map(
    unique.map((id) => [id, found.get(id) ?? { id, name: 'Membre', username: 'membre', profile_image: null }]),
  );
}

/** The listings a page of deals is about, as they are now (with their first thumbnail). */
async function booksById(db: Db, storage: Storage, ids: number[]) {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map<number, Omit<DealBook, 'exists'>>();
  const [rows, images] = await Promise.all([
    db
      .select({ id: books.id, title: books.title, price: books.price, status: books.status })
      .from(books)
      .where(inArray(books.id, unique)),
    db.select().from(bookImages).where(inArray(bookImages.bookId, unique)).orderBy(asc(bookImages.slot)),
  ]);
  return new Map(
    rows.map((r) => {
      const first = images.find((i) => i.bookId === r.id);
      return [r.id, { ...r, thumbnail: first ? storage.url(first.thumbnailKey) : null }];
    }),
  );
}

const bookOf = (known: Map<number, Omit<DealBook, 'exists'>>, id: number, title: string): DealBook => {
  const book = known.get(id);
  return book ? { ...book, exists: true } : { id, title, thumbnail: null, price: null, status: null, exists: false };
};

/** Reviews with their author, the rated member, and the deal with its book. */
export async function toReviewDtos(db: Db, storage: Storage, rows: ReviewRow[]): Promise<Review[]> {
  if (!rows.length) return [];
  const deals = await db
    .select()
    .from(transactions)
    .where(inArray(transactions.id, [...new Set(rows.map((r) => r.transactionId))]));
  const dealById = new Map(deals.map((t) => [t.id, t]));
  const [members, known] = await Promise.all([
    membersById(
      db,
      rows.flatMap((r) => [r.fromUserId, r.toUserId]),
    ),
    booksById(
      db,
      storage,
      deals.map((t) => t.bookId),
    ),
  ]);
  return rows.map((r) => {
    const deal = dealById.get(r.transactionId)!;
    return reviewDto(r, deal, members, known);
  });
}

function reviewDto(
  r: ReviewRow,
  deal: TransactionRow,
  members: Map<string, DealMember>,
  known: Map<number, Omit<DealBook, 'exists'>>,
): Review {
  return {
    id: r.id,
    transaction_id: r.transactionId,
    from_user_id: r.fromUserId,
    to_user_id: r.toUserId,
    rating: r.rating,
    comment: r.comment,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
    editable_until: new Date(r.createdAt.getTime() + RATING_EDIT_MS).toISOString(),
    from_user: members.get(r.fromUserId)!,
    to_user: members.get(r.toUserId)!,
    transaction: { id: deal.id, kind: deal.kind, book: bookOf(known, deal.bookId, deal.bookTitle) },
  };
}

/** Deals as their parties read them (`viewerId` is one of them). */
export async function toTransactionDtos(
  db: Db,
  storage: Storage,
  rows: TransactionRow[],
  viewerId: string,
): Promise<Transaction[]> {
  if (!rows.length) return [];
  const ids = rows.map((t) => t.id);
  const reviewRows = await db.select().from(reviews).where(inArray(reviews.transactionId, ids));
  const [members, known] = await Promise.all([
    membersById(
      db,
      rows.flatMap((t) => [t.sellerId, t.buyerId]),
    ),
    booksById(
      db,
      storage,
      rows.flatMap((t) => [t.bookId, ...(t.exchangeBookId ? [t.exchangeBookId] : [])]),
    ),
  ]);
  return rows.map((t) => {
    const role = t.sellerId === viewerId ? 'seller' : 'buyer';
    const other = role === 'seller' ? t.buyerId : t.sellerId;
    const forThis = reviewRows.filter((r) => r.transactionId === t.id);
    const mine = forThis.find((r) => r.fromUserId === viewerId);
    const theirs = forThis.find((r) => r.fromUserId === other);
    return {
      id: t.id,
      kind: t.kind,
      kind_label: transactionKindLabels[t.kind],
      status: t.status,
      status_label: transactionStatusLabels[t.status],
      price: t.price,
      book: bookOf(known, t.bookId, t.bookTitle),
      exchange_book: t.exchangeBookId ? bookOf(known, t.exchangeBookId, t.exchangeBookTitle ?? 'Manuel') : null,
      seller: members.get(t.sellerId)!,
      buyer: members.get(t.buyerId)!,
      role,
      created_at: t.createdAt.toISOString(),
      updated_at: t.updatedAt.toISOString(),
      confirmed_at: t.confirmedAt?.toISOString() ?? null,
      declined_at: t.declinedAt?.toISOString() ?? null,
      cancelled_at: t.cancelledAt?.toISOString() ?? null,
      cancelled_by: t.cancelledBy,
      conversation_url: `/messages/${t.bookId}/${other}`,
      rating: {
        can_rate: t.status === 'confirmed' && !mine,
        mine: mine ? reviewDto(mine, t, members, known) : null,
        theirs: theirs ? reviewDto(theirs, t, members, known) : null,
      },
    };
  });
}

/** The payload of every catalog.transaction.* event. */
export const transactionEvent = (t: TransactionRow) => ({
  transaction_id: t.id,
  book_id: t.bookId,
  book_title: t.bookTitle,
  kind: t.kind,
  price: t.price,
  exchange_book_id: t.exchangeBookId,
  exchange_book_title: t.exchangeBookTitle,
  seller_id: t.sellerId,
  buyer_id: t.buyerId,
  status: t.status,
  cancelled_by: t.cancelledBy,
  at: t.updatedAt.toISOString(),
});

/**
 * The member's rating aggregate, computed again from their reviews under the lock of their
 * sellers row (taken first, so two reviews of one member written at once count both), then
 * announced with the next version (catalog.seller.rated).
 */
export async function lockRatedMember(tx: Db, userId: string) {
  // A member catalog has not heard of yet gets a placeholder row, filled by auth's events later.
  await tx
    .insert(sellers)
    .values({ userId, name: 'Membre', username: 'membre', createdAt: new Date(), version: 0 })
    .onConflictDoNothing();
  await tx.execute(sql`select 1 from ${sellers} where ${sellers.userId} = ${userId} for update`);
}

export async function refreshRating(tx: Db, userId: string) {
  const [agg] = await tx
    .select({
      average: sql<number>`coalesce(round(avg(${reviews.rating})::numeric, 2), 0)::float8`,
      count: sql<number>`count(*)::int`,
    })
    .from(reviews)
    .where(eq(reviews.toUserId, userId));
  const [updated] = await tx
    .update(sellers)
    .set({
      ratingAverage: agg!.average,
      ratingCount: agg!.count,
      ratingVersion: sql`${sellers.ratingVersion} + 1`,
    })
    .where(eq(sellers.userId, userId))
    .returning({ version: sellers.ratingVersion });
  await recordEvent(tx, 'catalog.seller.rated', {
    user_id: userId,
    average: agg!.average,
    count: agg!.count,
    version: updated!.version,
  });
}

/** A deal one of whose parties is `userId`, else 404 (a third person does not learn it exists). */
export async function dealOfParty(db: Db, id: string, userId: string, lock = false) {
  const query = db
    .select()
    .from(transactions)
    .where(
      and(eq(transactions.id, id), sql`(${transactions.sellerId} = ${userId} or ${transactions.buyerId} = ${userId})`),
    );
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new HttpError(404, d.notFound);
  return row;
}
