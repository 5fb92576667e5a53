import { bookConditions, transactionKinds, transactionStatuses } from '@cartable/contracts';
import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { books } from '../../listings/db/schema.ts';

/**
 * Who wrote to whom about which book, projected from messaging.message.sent: one row per book and
 * ordered pair of members (both directions), so « the members who wrote to the owner about this
 * book » is one index read. Idempotent (a redelivery changes nothing) and order-independent (first
 * and last message times only widen).
 */
export const bookContacts = pgTable(
  'book_contacts',
  {
    bookId: integer('book_id').notNull(),
    memberId: uuid('member_id').notNull(),
    otherId: uuid('other_id').notNull(),
    firstMessageAt: timestamp('first_message_at', { withTimezone: true }).notNull(),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.bookId, t.memberId, t.otherId] })],
);

/**
 * A deal recorded by the owner of a listing (the seller) with a member who wrote to them about it
 * (the buyer): a sale at an agreed price, an exchange (maybe against one of the buyer's listings)
 * or a gift. The buyer confirms or declines; either cancels before that. The titles are kept so a
 * deleted listing still reads in the history.
 */
export const transactions = pgTable(
  'transactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bookId: integer('book_id').notNull(),
    bookTitle: text('book_title').notNull(),
    /**
     * The listing's ISBN and condition when the deal was proposed, and the keys the price guide
     * finds the same book by (cartable_isbn_key, cartable_title_key: case, accents and
     * punctuation out): what a book sold for stays known when its listing changes or goes.
     */
    bookIsbn: text('book_isbn'),
    bookCondition: text('book_condition', { enum: bookConditions }),
    bookIsbnKey: text('book_isbn_key').generatedAlwaysAs(sql`cartable_isbn_key(book_isbn)`),
    bookTitleKey: text('book_title_key').generatedAlwaysAs(sql`cartable_title_key(book_title)`),
    sellerId: uuid('seller_id').notNull(),
    buyerId: uuid('buyer_id').notNull(),
    kind: text('kind', { enum: transactionKinds }).notNull(),
    /** Whole FCFA for a sale; null otherwise. */
    price: integer('price'),
    exchangeBookId: integer('exchange_book_id'),
    exchangeBookTitle: text('exchange_book_title'),
    status: text('status', { enum: transactionStatuses }).notNull().default('proposed'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    declinedAt: timestamp('declined_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /** Who cancelled; null when catalog did (the book went in another deal). */
    cancelledBy: uuid('cancelled_by'),
  },
  (t) => [
    // One open proposal per book and buyer.
    uniqueIndex('transactions_open_key').on(t.bookId, t.buyerId).where(sql`status = 'proposed'`),
    index('transactions_seller_idx').on(t.sellerId, t.createdAt),
    index('transactions_buyer_idx').on(t.buyerId, t.createdAt),
    index('transactions_book_idx').on(t.bookId),
    index('transactions_exchange_book_idx').on(t.exchangeBookId).where(sql`exchange_book_id is not null`),
    // The price guide: confirmed sales of a book, by ISBN or by title, and condition.
    index('transactions_sold_isbn_idx')
      .on(t.bookIsbnKey, t.bookCondition)
      .where(sql`status = 'confirmed' and kind = 'sale'`),
    index('transactions_sold_title_idx')
      .on(t.bookTitleKey, t.bookCondition)
      .where(sql`status = 'confirmed' and kind = 'sale'`),
    // A deal is between two members: never one with themselves (a rating would follow).
    check('transactions_two_members', sql`${t.sellerId} <> ${t.buyerId}`),
  ],
);

/** A party's rating of the other after a confirmed deal: one per deal and author. */
export const reviews = pgTable(
  'reviews',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    transactionId: uuid('transaction_id')
      .notNull()
      .references(() => transactions.id, { onDelete: 'cascade' }),
    fromUserId: uuid('from_user_id').notNull(),
    toUserId: uuid('to_user_id').notNull(),
    rating: smallint('rating').notNull(),
    comment: text('comment').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('reviews_transaction_author_key').on(t.transactionId, t.fromUserId),
    index('reviews_to_user_idx').on(t.toUserId, t.createdAt),
    index('reviews_from_user_idx').on(t.fromUserId, t.createdAt),
    // A member never rates themselves.
    check('reviews_two_members', sql`${t.fromUserId} <> ${t.toUserId}`),
  ],
);

/**
 * A member's favourite listings (SPEC.md section 4 « Favourites »), kept server-side so they follow
 * the account from one browser to another; the browser's `favourites` key stays as the offline copy
 * and is merged at login. The row goes with the book (a removed listing drops out).
 */
export const favourites = pgTable(
  'favourites',
  {
    userId: uuid('user_id').notNull(),
    bookId: integer('book_id')
      .notNull()
      .references(() => books.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.bookId] }),
    index('favourites_user_created_idx').on(t.userId, t.createdAt),
    index('favourites_book_idx').on(t.bookId),
  ],
);
