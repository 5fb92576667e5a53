import {
  blockMessages,
  type Transaction as Deal,
  type DealBook,
  type DealMember,
  dealMessages,
  RATING_EDIT_DAYS,
  type Review,
  TRANSACTIONS_PER_PAGE,
  transactionKindLabels,
  transactionStatusLabels,
} from '@cartable/contracts';
import {
  conflict,
  type Db,
  forbidden,
  isUniqueViolation,
  notFound,
  type Storage,
  type Transaction,
  type UnitOfWork,
  unprocessable,
} from '@cartable/service-kit';
import {
  changeStatus,
  type ListingRow,
  listingById,
  listingSummaries,
  lockListing,
  lockListings,
} from '../../listings/index.ts';
import { blockBetween, memberCards } from '../../members/index.ts';
import * as queries from '../db/queries.ts';
import { dealChanged } from '../events.ts';
import { countedOnce } from './repeat-deals.ts';

const d = dealMessages;
export const RATING_EDIT_MS = RATING_EDIT_DAYS * 24 * 3600_000;

/** A listing a deal may be about: not sold, not hidden. */
const dealable = (book: ListingRow | undefined): book is ListingRow =>
  Boolean(book) && book!.status !== 'vendu' && book!.hiddenAt === null;

/** Members as the members projection knows them; « Membre » for one not heard of yet. */
export async function membersById(db: Db, ids: string[]): Promise<Map<string, DealMember>> {
  const unique = [...new Set(ids)];
  const found = await memberCards(db, unique);
  return new Map(
    unique.map((id) => {
      const m = found.get(id);
      return [
        id,
        m
          ? { id, name: m.name, username: m.username, profile_image: m.profileImage }
          : { id, name: 'Membre', username: 'membre', profile_image: null },
      ];
    }),
  );
}

/** The listings deals are about, as they are now (with their first thumbnail). */
async function booksById(db: Db, storage: Storage, ids: number[]) {
  const summaries = await listingSummaries(db, ids);
  return new Map(
    [...summaries].map(([id, b]) => [
      id,
      {
        id,
        title: b.title,
        price: b.price,
        status: b.status,
        thumbnail: b.thumbnailKey ? storage.url(b.thumbnailKey) : null,
      },
    ]),
  );
}
type KnownBooks = Awaited<ReturnType<typeof booksById>>;

const bookOf = (known: KnownBooks, id: number, title: string): DealBook => {
  const book = known.get(id);
  return book ? { ...book, exists: true } : { id, title, thumbnail: null, price: null, status: null, exists: false };
};

function reviewDto(
  r: queries.ReviewRow,
  deal: queries.TransactionRow,
  members: Map<string, DealMember>,
  known: KnownBooks,
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

/** Reviews with their author, the rated member, and the deal with its book. */
export async function reviewDtos(db: Db, storage: Storage, rows: queries.ReviewRow[]): Promise<Review[]> {
  if (!rows.length) return [];
  const deals = await queries.dealsByIds(db, [...new Set(rows.map((r) => r.transactionId))]);
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
  return rows.map((r) => reviewDto(r, dealById.get(r.transactionId)!, members, known));
}

/** Deals as their parties read them (`viewerId` is one of them). */
export async function dealDtos(
  db: Db,
  storage: Storage,
  rows: queries.TransactionRow[],
  viewerId: string,
): Promise<Deal[]> {
  if (!rows.length) return [];
  const [reviewRows, members, known] = await Promise.all([
    queries.reviewsOfDeals(
      db,
      rows.map((t) => t.id),
    ),
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

/** A deal one of whose parties is `userId`, else 404 (a third person does not learn it exists). */
export async function dealOfParty(db: Db, id: string, userId: string, lock = false) {
  const row = await queries.dealOfParty(db, id, userId, lock);
  if (!row) throw notFound(d.notFound);
  return row;
}

const bookIdsOf = (deal: queries.TransactionRow) => [
  deal.bookId,
  ...(deal.exchangeBookId ? [deal.exchangeBookId] : []),
];

/**
 * Deals between the owner of a listing (seller) and a member who wrote to them about it (buyer):
 * services/catalog/API.md « Transactions ». Only the two parties ever read a deal.
 */
export function dealService(uow: UnitOfWork, storage: Storage) {
  const db = uow.db;
  const one = async (row: queries.TransactionRow, viewerId: string) =>
    (await dealDtos(db, storage, [row], viewerId))[0]!;

  /**
   * Marks the deal's listings vendu (both for an exchange), each under its row lock, through
   * listings' status change (its status_changed event: a boost on it ends, the caches hear). A
   * listing sold, hidden or deleted meanwhile refuses the confirmation: a book is never sold twice.
   */
  async function sellBooks(t: Transaction, deal: queries.TransactionRow) {
    const ids = bookIdsOf(deal);
    const rows = await lockListings(t.db, ids);
    for (const id of ids) {
      if (!dealable(rows.find((b) => b.id === id)))
        throw conflict(id === deal.bookId ? d.bookUnavailable : d.exchangeBookUnavailable);
    }
    for (const book of rows) await changeStatus(t, storage, book, 'vendu');
    return ids;
  }

  /** A change of a proposed deal by one of its parties, under the deal's row lock. */
  function answer(id: string, me: string, action: 'confirm' | 'decline' | 'cancel') {
    return uow.run(async (t) => {
      if (action === 'confirm') {
        // The books' locks first, in id order, then the deal's: a confirmation cancels the other
        // proposals on its books, so taking the deal's lock first would deadlock two of them.
        await lockListings(t.db, bookIdsOf(await dealOfParty(t.db, id, me)));
      }
      const deal = await dealOfParty(t.db, id, me, true);
      if (action !== 'cancel' && deal.buyerId !== me) throw forbidden(d.onlyBuyerConfirms);
      if (deal.status !== 'proposed') throw conflict(d.notProposed);
      // A block since the proposal: it may still be declined or cancelled, never confirmed.
      if (action === 'confirm' && (await blockBetween(t.db, deal.sellerId, deal.buyerId)))
        throw forbidden(blockMessages.deal);
      const now = new Date();
      if (action === 'decline' || action === 'cancel') {
        const row = await queries.updateDeal(
          t.db,
          deal.id,
          action === 'decline'
            ? { status: 'declined', declinedAt: now, updatedAt: now }
            : { status: 'cancelled', cancelledAt: now, cancelledBy: me, updatedAt: now },
        );
        await dealChanged(
          t,
          action === 'decline' ? 'catalog.transaction.declined' : 'catalog.transaction.cancelled',
          row,
        );
        return row;
      }
      const sold = await sellBooks(t, deal);
      const row = await queries.updateDeal(t.db, deal.id, { status: 'confirmed', confirmedAt: now, updatedAt: now });
      await dealChanged(t, 'catalog.transaction.confirmed', row);
      // Other open proposals on the books just sold can no longer be confirmed: catalog cancels them.
      for (const other of await queries.cancelOtherProposals(t.db, deal.id, sold, now))
        await dealChanged(t, 'catalog.transaction.cancelled', other);
      return row;
    });
  }

  return {
    one,
    /** A deal as one of its parties reads it, else 404. */
    get: async (id: string, me: string) => one(await dealOfParty(db, id, me), me),

    /** The seller proposes a deal to a member who wrote to them about the listing. */
    async propose(
      me: string,
      body: {
        book_id: number;
        buyer_id: string;
        kind: queries.TransactionRow['kind'];
        price?: number | null | undefined;
        exchange_book_id?: number | null | undefined;
      },
    ) {
      if (body.buyer_id === me) throw unprocessable({ buyer_id: [d.selfDeal] }, d.selfDeal);
      try {
        return await uow.run(async (t) => {
          const book = await lockListing(t.db, body.book_id);
          if (!book) throw notFound(d.bookNotFound);
          if (book.userId !== me) throw forbidden(d.notOwner);
          if (await blockBetween(t.db, me, body.buyer_id)) throw forbidden(blockMessages.deal);
          if (!dealable(book)) throw conflict(d.bookUnavailable);
          if (!(await queries.contactExists(t.db, book.id, me, body.buyer_id)))
            throw unprocessable({ buyer_id: [d.noConversation] }, d.noConversation);
          let exchange: ListingRow | undefined;
          if (body.kind === 'exchange' && body.exchange_book_id) {
            exchange = await listingById(t.db, body.exchange_book_id);
            if (!exchange || exchange.userId !== body.buyer_id)
              throw unprocessable({ exchange_book_id: [d.exchangeBookNotTheirs] }, d.exchangeBookNotTheirs);
            if (!dealable(exchange))
              throw unprocessable({ exchange_book_id: [d.exchangeBookUnavailable] }, d.exchangeBookUnavailable);
          }
          if (await queries.openProposal(t.db, book.id, body.buyer_id)) throw conflict(d.alreadyOpen);
          const row = await queries.insertDeal(t.db, {
            bookId: book.id,
            bookTitle: book.title,
            bookIsbn: book.isbn,
            bookCondition: book.condition,
            sellerId: me,
            buyerId: body.buyer_id,
            kind: body.kind,
            price: body.kind === 'sale' ? (body.price ?? 0) : body.kind === 'gift' ? 0 : null,
            exchangeBookId: exchange?.id ?? null,
            exchangeBookTitle: exchange?.title ?? null,
          });
          await dealChanged(t, 'catalog.transaction.proposed', row);
          return row;
        });
      } catch (err) {
        // Two proposals at the same moment: the unique index keeps one.
        if (isUniqueViolation(err)) throw conflict(d.alreadyOpen);
        throw err;
      }
    },

    answer,

    async list(
      me: string,
      role: 'seller' | 'buyer' | undefined,
      status: queries.TransactionRow['status'] | undefined,
      page: number,
    ) {
      const { rows, total } = await queries.dealPage(
        db,
        { userId: me, role, status },
        { limit: TRANSACTIONS_PER_PAGE, offset: (page - 1) * TRANSACTIONS_PER_PAGE },
      );
      return {
        data: await dealDtos(db, storage, rows, me),
        meta: {
          current_page: page,
          last_page: Math.max(1, Math.ceil(total / TRANSACTIONS_PER_PAGE)),
          total,
          per_page: TRANSACTIONS_PER_PAGE,
        },
      };
    },

    pendingCount: (me: string) => queries.pendingFor(db, me),

    /**
     * The members the seller may propose a deal to: those who wrote to them about the listing,
     * but for a member on the other side of a block (a proposal to them is refused).
     */
    async candidates(me: string, bookId: number) {
      const book = await listingById(db, bookId);
      if (!book) throw notFound(d.bookNotFound);
      if (book.userId !== me) throw forbidden(d.notOwner);
      const wrote = await queries.contactsAbout(db, bookId, me);
      const blocked = await Promise.all(wrote.map((c) => blockBetween(db, me, c.id)));
      const contacts = wrote.filter((_, i) => !blocked[i]);
      const members = await memberCards(
        db,
        contacts.map((c) => c.id),
      );
      return contacts.map((c) => {
        const m = members.get(c.id);
        return {
          id: c.id,
          name: m?.name ?? 'Membre',
          username: m?.username ?? 'membre',
          profile_image: m?.profileImage ?? null,
          last_message_at: c.at.toISOString(),
        };
      });
    },

    /** « Transactions conclues »: repeated deals with the same member count once per window (repeat-deals.ts). */
    completed: async (userId: string) => countedOnce(await queries.confirmedDealsOf(db, userId)).length,
  };
}
export type DealService = ReturnType<typeof dealService>;
