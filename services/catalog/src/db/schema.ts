import {
  bannerColors,
  bookConditions,
  bookStatuses,
  boostEndReasons,
  classListKinds,
  classListRequirements,
  classListStatuses,
  exchangeSuggestionKinds,
  exchangeSuggestionStatuses,
  mobileMoneyOperators,
  paymentStatuses,
  planKinds,
  savedSearchFrequencies,
  subscriptionStatuses,
  transactionKinds,
  transactionStatuses,
} from '@cartable/contracts';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export { idempotencyKeys, outbox, processedEvents } from '@cartable/service-kit';

/** Countries keyed by their ISO 3166-1 numeric code (Gabon is 266, as SPEC.md section 9 says). */
export const countries = pgTable('countries', {
  id: integer('id').primaryKey(),
  alpha2: text('alpha2').notNull().unique(),
  alpha3: text('alpha3').notNull(),
  nomFrFr: text('nom_fr_fr').notNull(),
});

export const provinces = pgTable(
  'provinces',
  {
    id: serial('id').primaryKey(),
    countryId: integer('country_id')
      .notNull()
      .references(() => countries.id),
    name: text('name').notNull(),
  },
  (t) => [uniqueIndex('provinces_country_name_key').on(t.countryId, t.name)],
);

export const cities = pgTable(
  'cities',
  {
    id: serial('id').primaryKey(),
    countryId: integer('country_id')
      .notNull()
      .references(() => countries.id),
    provinceId: integer('province_id').references(() => provinces.id),
    name: text('name').notNull(),
    isMajor: boolean('is_major').notNull().default(false),
  },
  (t) => [
    uniqueIndex('cities_country_name_key').on(t.countryId, t.name),
    index('cities_province_idx').on(t.provinceId),
  ],
);

/** Projection of auth's users: the public face of sellers, fed by auth.user.* events. */
export const sellers = pgTable(
  'sellers',
  {
    userId: uuid('user_id').primaryKey(),
    name: text('name').notNull(),
    username: text('username').notNull(),
    profileImage: text('profile_image'),
    countryId: integer('country_id'),
    cityId: integer('city_id'),
    /** Null unless the member chose to show them (auth sends them only then). */
    email: text('email'),
    phone: text('phone'),
    ratingAverage: doublePrecision('rating_average').notNull().default(0),
    ratingCount: integer('rating_count').notNull().default(0),
    /** One more at each change of the rating aggregate (carried by catalog.seller.rated). */
    ratingVersion: integer('rating_version').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** auth's version of the member: only a higher one replaces the row. */
    version: integer('version').notNull().default(0),
    /** Kept, anonymised, after the account is deleted, so a late update cannot bring it back. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** Set while an administrator has deactivated the member: their books leave the public catalogue. */
    deactivatedAt: timestamp('deactivated_at', { withTimezone: true }),
    /**
     * auth's version at the last deactivation or reactivation: only a higher one changes the flag
     * (the profile's own `version` keeps guarding the profile fields).
     */
    deactivationVersion: integer('deactivation_version').notNull().default(0),
  },
  (t) => [
    // The few members out of the catalogue: the public listings' anti-join reads only these.
    index('sellers_inactive_idx').on(t.userId).where(sql`deactivated_at is not null or deleted_at is not null`),
  ],
);

/** Cycles, Niveaux, Matières: a graph where a category may have several parents. */
export const categories = pgTable('categories', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  order: integer('order').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const categoryParents = pgTable(
  'category_parents',
  {
    categoryId: integer('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
    parentId: integer('parent_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.categoryId, t.parentId] }), index('category_parents_parent_idx').on(t.parentId)],
);

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export const books = pgTable(
  'books',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id').notNull(),
    title: text('title').notNull(),
    author: text('author').notNull(),
    isbn: text('isbn'),
    description: text('description'),
    publisher: text('publisher'),
    publicationYear: integer('publication_year'),
    condition: text('condition', { enum: bookConditions }).notNull(),
    /** Whole XOF/FCFA; 0 is a gift. */
    price: integer('price').notNull(),
    status: text('status', { enum: bookStatuses }).notNull().default('disponible'),
    cityId: integer('city_id').references(() => cities.id),
    isNegotiable: boolean('is_negotiable').notNull().default(false),
    isExchangePossible: boolean('is_exchange_possible').notNull().default(false),
    // Not indexed, so that counting a view is a HOT update (migration 0024); the sorts by
    // popularity read the listing index's copy.
    views: integer('views').notNull().default(0),
    /**
     * The book's categories, main one first. An array with a GIN index rather than a join table:
     * the catalogue filters on it with `&&` combined with the other indexes in one bitmap.
     */
    categoryIds: integer('category_ids').array().notNull().default(sql`'{}'::integer[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** One more at each change; carried by the book's events so projections never go back. */
    version: integer('version').notNull().default(1),
    /**
     * Set when a moderator hides the listing (SPEC.md section 2, admin « Gestion des livres »): it
     * leaves the public catalogue, its owner still sees it with the reason. Null: visible.
     */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    hiddenReason: text('hidden_reason'),
    /**
     * The seller is deactivated or their account deleted (sellers.deactivated_at, deleted_at):
     * the listing is out of the public catalogue. Kept by triggers of migration 0021 from the
     * sellers' rows, so a catalogue query checks a column of the listing's index entry instead
     * of planning an anti-join on sellers.
     */
    sellerAway: boolean('seller_away').notNull().default(false),
    /**
     * A lot (several books in one listing, issue 15 item 3): its books' titles and ISBNs, then
     * their authors, written with its book_lot_items rows so the search vector (a generated
     * column reads only its own row) finds the lot by each of its books. Null: a single book.
     */
    lotTitles: text('lot_titles'),
    lotAuthors: text('lot_authors'),
    /**
     * French full-text vector, accents removed; weights: title and a lot's titles A, author and a
     * lot's authors B, ISBN A, description C.
     */
    search: tsvector('search').generatedAlwaysAs(
      sql`setweight(to_tsvector('french', cartable_unaccent(coalesce(title, ''))), 'A') ||
          setweight(to_tsvector('french', cartable_unaccent(coalesce(author, ''))), 'B') ||
          setweight(to_tsvector('simple', coalesce(isbn, '')), 'A') ||
          setweight(to_tsvector('french', cartable_unaccent(coalesce(description, ''))), 'C') ||
          setweight(to_tsvector('french', cartable_unaccent(coalesce(lot_titles, ''))), 'A') ||
          setweight(to_tsvector('french', cartable_unaccent(coalesce(lot_authors, ''))), 'B')`,
    ),
  },
  (t) => [
    index('books_search_idx').using('gin', t.search),
    index('books_title_trgm_idx').using('gin', sql`cartable_unaccent(lower(${t.title})) gin_trgm_ops`),
    index('books_author_trgm_idx').using('gin', sql`cartable_unaccent(lower(${t.author})) gin_trgm_ops`),
    index('books_categories_idx').using('gin', t.categoryIds),
    // The catalogue lists unsold books in one of four orders: one partial index each, so the
    // first page is read straight off an index (ascending: scanned backwards for desc, which
    // then also matches ORDER BY … DESC's NULLS FIRST). Migration 0019 gives the created and
    // price ones the filtered columns (INCLUDE, which drizzle cannot declare): index-only pages.
    index('books_listed_created_idx').on(t.createdAt, t.id).where(sql`status <> 'vendu'`),
    index('books_listed_price_idx').on(t.price, t.id).where(sql`status <> 'vendu'`),
    // The same two orders within one town (the commonest filter: Libreville is four listings in
    // ten): the scan starts at the town instead of skipping every other town's entries
    // (migration 0020, which adds the same INCLUDE columns). Migration 0021 adds seller_away to
    // the four, so the sellers' check is made on the index entry too.
    index('books_listed_city_created_idx').on(t.cityId, t.createdAt, t.id).where(sql`status <> 'vendu'`),
    index('books_listed_city_price_idx').on(t.cityId, t.price, t.id).where(sql`status <> 'vendu'`),
    index('books_listed_title_idx').on(sql`lower(${t.title})`, t.id).where(sql`status <> 'vendu'`),
    index('books_city_idx').on(t.cityId),
    index('books_user_idx').on(t.userId),
    index('books_condition_idx').on(t.condition),
    // The back office lists every book (sold and hidden ones too), newest first by default.
    index('books_created_idx').on(t.createdAt, t.id),
    index('books_price_idx').on(t.price, t.id),
    index('books_title_idx').on(sql`lower(${t.title})`, t.id),
    index('books_hidden_idx').on(t.hiddenAt).where(sql`hidden_at is not null`),
    // « Ma liste »: a class list's books by normalised title (equal, or the list's title first)
    // and by ISBN, among the listed ones (migration 0015 defines both functions).
    index('books_listed_title_key_idx')
      .on(sql`cartable_title_key(${t.title}) text_pattern_ops`)
      .where(sql`status <> 'vendu'`),
    index('books_listed_isbn_key_idx')
      .on(sql`cartable_isbn_key(${t.isbn})`)
      .where(sql`status <> 'vendu' and isbn is not null`),
  ],
);

/**
 * The books of a lot, copied from the class list they were picked in (a later edit of the list
 * does not change what was sold). Keys as « Ma liste » reads them, for its matching and alerts.
 */
export const bookLotItems = pgTable(
  'book_lot_items',
  {
    bookId: integer('book_id')
      .notNull()
      .references(() => books.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    classListItemId: integer('class_list_item_id'),
    title: text('title').notNull(),
    author: text('author').notNull().default(''),
    publisher: text('publisher'),
    year: integer('year'),
    isbn: text('isbn'),
    subjectId: integer('subject_id'),
    titleKey: text('title_key').generatedAlwaysAs(sql`cartable_title_key(title)`),
    isbnKey: text('isbn_key').generatedAlwaysAs(sql`cartable_isbn_key(isbn)`),
  },
  (t) => [
    primaryKey({ columns: [t.bookId, t.position] }),
    index('book_lot_items_title_key_idx').on(sql`${t.titleKey} text_pattern_ops`),
    index('book_lot_items_isbn_key_idx').on(t.isbnKey).where(sql`isbn_key is not null`),
  ],
);

/** Up to three photos a book, each stored as a display size and a thumbnail. */
export const bookImages = pgTable(
  'book_images',
  {
    bookId: integer('book_id')
      .notNull()
      .references(() => books.id, { onDelete: 'cascade' }),
    slot: integer('slot').notNull(),
    displayKey: text('display_key').notNull(),
    thumbnailKey: text('thumbnail_key').notNull(),
  },
  (t) => [primaryKey({ columns: [t.bookId, t.slot] })],
);

export const banners = pgTable('banners', {
  id: serial('id').primaryKey(),
  title: text('title').notNull(),
  subtitle: text('subtitle'),
  imageKey: text('image_key'),
  buttonText: text('button_text'),
  buttonLink: text('button_link'),
  color: text('color', { enum: bannerColors }).notNull().default('dark'),
  order: integer('order').notNull().default(0),
  isActive: boolean('is_active').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * What visitors searched for and did not find, one row a day per search text and category: the
 * Rapports screen sets it against what is listed (what parents look for and nobody sells).
 * Kept 180 days (housekeeping).
 */
export const searchMisses = pgTable(
  'search_misses',
  {
    day: date('day').notNull(),
    /** Lower-cased, accents kept, spaces collapsed, at most 100 characters. */
    query: text('query').notNull(),
    /** First category filtered on, 0 for none. */
    categoryId: integer('category_id').notNull().default(0),
    searches: integer('searches').notNull().default(1),
    lastSeen: timestamp('last_seen', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.day, t.query, t.categoryId] })],
);

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

/**
 * Blocks from messaging's events: a member blocked by a seller no longer sees the seller's phone
 * and e-mail. One row per pair with the time of its last change, so a late event never undoes a
 * newer one.
 */
export const memberBlocks = pgTable(
  'member_blocks',
  {
    blockerId: uuid('blocker_id').notNull(),
    blockedId: uuid('blocked_id').notNull(),
    blocked: boolean('blocked').notNull(),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.blockerId, t.blockedId] })],
);

// ── subscriptions and payments (issue 13; API.md « Subscriptions and payments ») ──────────────

/** What a member can buy: a seller subscription (member) or a listing boost (boost). */
export const subscriptionPlans = pgTable('subscription_plans', {
  id: serial('id').primaryKey(),
  kind: text('kind', { enum: planKinds }).notNull(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  /** Whole FCFA. */
  price: integer('price').notNull(),
  durationDays: integer('duration_days').notNull(),
  boostSlots: integer('boost_slots').notNull().default(1),
  sellerBadge: boolean('seller_badge').notNull().default(false),
  listingsLimit: integer('listings_limit'),
  active: boolean('active').notNull().default(true),
  position: integer('position').notNull().default(0),
  /** Plans the seed wrote carry a key, so a restart never adds them twice. */
  seedKey: text('seed_key').unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A plan bought by a member; the plan is copied so a later edit of the plan changes nothing here. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull(),
    planId: integer('plan_id')
      .notNull()
      .references(() => subscriptionPlans.id),
    planKind: text('plan_kind', { enum: planKinds }).notNull(),
    planName: text('plan_name').notNull(),
    planPrice: integer('plan_price').notNull(),
    planDurationDays: integer('plan_duration_days').notNull(),
    planBoostSlots: integer('plan_boost_slots').notNull(),
    planSellerBadge: boolean('plan_seller_badge').notNull(),
    planListingsLimit: integer('plan_listings_limit'),
    /** A boost: the listing chosen at purchase, boosted once paid. */
    bookId: integer('book_id'),
    status: text('status', { enum: subscriptionStatuses }).notNull().default('pending_payment'),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    reminderSentAt: timestamp('reminder_sent_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelReason: text('cancel_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('subscriptions_user_idx').on(t.userId, t.createdAt),
    index('subscriptions_plan_idx').on(t.planId),
    // The sweep reads the active ones by end date.
    index('subscriptions_active_ends_idx').on(t.endsAt).where(sql`status = 'active'`),
  ],
);

/** A listing a subscription puts « À la une » (a book subscription). */
export const boostedBooks = pgTable(
  'boosted_books',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id),
    /** No foreign key: the history outlives a deleted listing (the title is kept). */
    bookId: integer('book_id').notNull(),
    bookTitle: text('book_title').notNull(),
    userId: uuid('user_id').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    endReason: text('end_reason', { enum: boostEndReasons }),
    transferable: boolean('transferable').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One live boost per listing; the catalogue reads the few live ones through this index.
    uniqueIndex('boosted_books_live_key').on(t.bookId).where(sql`ended_at is null`),
    index('boosted_books_subscription_idx').on(t.subscriptionId),
    index('boosted_books_user_idx').on(t.userId),
  ],
);

/** One attempt to pay a subscription (the first one or a renewal). */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id),
    userId: uuid('user_id').notNull(),
    purpose: text('purpose', { enum: ['subscription', 'renewal'] }).notNull(),
    provider: text('provider').notNull(),
    operator: text('operator', { enum: mobileMoneyOperators }).notNull(),
    payerPhone: text('payer_phone'),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: paymentStatuses }).notNull().default('pending'),
    /** Ours, CRT-…, shown to the member and sent to the provider. */
    reference: text('reference').notNull().unique(),
    providerReference: text('provider_reference'),
    refundedAmount: integer('refunded_amount').notNull().default(0),
    failureReason: text('failure_reason'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // An operator's transaction id pays once.
    uniqueIndex('payments_provider_reference_key')
      .on(t.provider, t.providerReference)
      .where(sql`provider_reference is not null`),
    index('payments_subscription_idx').on(t.subscriptionId),
    index('payments_user_idx').on(t.userId, t.createdAt),
    index('payments_created_idx').on(t.createdAt),
    index('payments_open_expires_idx').on(t.expiresAt).where(sql`status in ('pending', 'submitted')`),
  ],
);

/** What a provider (or an operator) said about a payment, kept as received. */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id),
    provider: text('provider').notNull(),
    /** The provider's id of a notification: a retried delivery repeats it and is handled once. */
    eventId: text('event_id'),
    type: text('type').notNull(),
    status: text('status', { enum: paymentStatuses }),
    detail: jsonb('detail').notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payment_events_provider_event_key').on(t.provider, t.eventId).where(sql`event_id is not null`),
    index('payment_events_payment_idx').on(t.paymentId, t.createdAt),
  ],
);

/** A payment is refunded at most once, in full or in part. */
export const refunds = pgTable('refunds', {
  id: uuid('id').primaryKey().defaultRandom(),
  paymentId: uuid('payment_id')
    .notNull()
    .unique()
    .references(() => payments.id),
  amount: integer('amount').notNull(),
  reason: text('reason').notNull(),
  createdBy: uuid('created_by').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A boost moved from a listing sold through a deal to another listing of the seller. */
export const bookTransfers = pgTable(
  'book_transfers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    boostedBookId: uuid('boosted_book_id')
      .notNull()
      .unique()
      .references(() => boostedBooks.id),
    newBoostedBookId: uuid('new_boosted_book_id')
      .notNull()
      .references(() => boostedBooks.id),
    fromBookId: integer('from_book_id').notNull(),
    toBookId: integer('to_book_id').notNull(),
    userId: uuid('user_id').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('book_transfers_user_idx').on(t.userId)],
);

/** Every change of a subscription, its payments and boosts, with who made it (null: the system). */
export const subscriptionAuditLog = pgTable(
  'subscription_audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id),
    paymentId: uuid('payment_id'),
    action: text('action').notNull(),
    actorId: uuid('actor_id'),
    detail: jsonb('detail').notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('subscription_audit_subscription_idx').on(t.subscriptionId, t.createdAt)],
);

// ── class book lists (issue 15; libs/contracts/src/class-lists.ts) ─────────────────────────────

/**
 * The books a level needs for a school year: the official (IPN) list or a school's own. Level and
 * subjects are category ids without a foreign key (like books.category_ids): a category deleted
 * later leaves the list readable.
 */
export const classLists = pgTable(
  'class_lists',
  {
    id: serial('id').primaryKey(),
    schoolYear: text('school_year').notNull(),
    levelId: integer('level_id').notNull(),
    kind: text('kind', { enum: classListKinds }).notNull().default('official'),
    schoolName: text('school_name'),
    cityId: integer('city_id').references(() => cities.id, { onDelete: 'set null' }),
    status: text('status', { enum: classListStatuses }).notNull().default('draft'),
    sourceNote: text('source_note'),
    rejectionReason: text('rejection_reason'),
    proposedBy: uuid('proposed_by'),
    reviewedBy: uuid('reviewed_by'),
    /** Lists the seed wrote carry a key, so a restart (or a second replica) never adds them twice. */
    seedKey: text('seed_key').unique(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One draft or published list per year, level and school (proposals may repeat until reviewed).
    uniqueIndex('class_lists_year_level_school_key')
      .on(t.schoolYear, t.levelId, t.kind, sql`lower(coalesce(${t.schoolName}, ''))`)
      .where(sql`status in ('draft', 'published')`),
    index('class_lists_level_idx').on(t.levelId, t.schoolYear),
    index('class_lists_status_idx').on(t.status, t.createdAt),
  ],
);

/** A book of a list. `title_key` is the title without accents, case, spaces or punctuation. */
export const classListItems = pgTable(
  'class_list_items',
  {
    id: serial('id').primaryKey(),
    listId: integer('list_id')
      .notNull()
      .references(() => classLists.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    author: text('author').notNull().default(''),
    publisher: text('publisher'),
    edition: text('edition'),
    year: integer('year'),
    /** Digits (and X) only. */
    isbn: text('isbn'),
    subjectId: integer('subject_id'),
    requirement: text('requirement', { enum: classListRequirements }).notNull().default('required'),
    position: integer('position').notNull().default(0),
    titleKey: text('title_key').generatedAlwaysAs(sql`cartable_title_key(title)`),
  },
  (t) => [
    index('class_list_items_list_idx').on(t.listId, t.position),
    index('class_list_items_title_key_idx').on(t.titleKey),
    index('class_list_items_isbn_idx').on(t.isbn).where(sql`isbn is not null`),
    index('class_list_items_title_trgm_idx').using('gin', sql`cartable_unaccent(lower(${t.title})) gin_trgm_ops`),
  ],
);

/** A list a member saved, with the town they look in and the books they already have. */
export const savedClassLists = pgTable(
  'saved_class_lists',
  {
    userId: uuid('user_id').notNull(),
    listId: integer('list_id')
      .notNull()
      .references(() => classLists.id, { onDelete: 'cascade' }),
    cityId: integer('city_id').references(() => cities.id, { onDelete: 'set null' }),
    ownedItemIds: integer('owned_item_ids').array().notNull().default(sql`'{}'::integer[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.listId] }), index('saved_class_lists_list_idx').on(t.listId)],
);

/** Alerts already sent: one per (saved list, book of the list, listing). */
export const classListAlerts = pgTable(
  'class_list_alerts',
  {
    userId: uuid('user_id').notNull(),
    listId: integer('list_id').notNull(),
    itemId: integer('item_id').notNull(),
    bookId: integer('book_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.listId, t.itemId, t.bookId] })],
);

const tsquery = customType<{ data: string }>({ dataType: () => 'tsquery' });

/**
 * Saved searches with alerts (issue 15 item 5; API.md « Saved searches »): the filters as the
 * member saved them (`filters`, answered back), and the same filters resolved at save time into
 * columns one query can match a listing against (domain/saved-searches.ts `matchSavedSearches`):
 * - `category_groups`: the category condition as the catalogue reads it, any of the groups, each
 *   group all of its sets, each set any of its categories (levels and subjects read in the text
 *   included, each category with those below it); null for none;
 * - `category_any`: a category every match has (the smallest set of each group, together), for
 *   the GIN index; `{0}` when there is no category condition (every listing is a candidate);
 * - `text_query`: the remaining words as /books searches them (french, unaccent); `isbn` when the
 *   text is an ISBN.
 * `unsubscribe_token` is the secret of the one-click unsubscribe link of its e-mails.
 */
export const savedSearches = pgTable(
  'saved_searches',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id').notNull(),
    name: text('name').notNull(),
    frequency: text('frequency', { enum: savedSearchFrequencies }).notNull(),
    filters: jsonb('filters').notNull(),
    summary: text('summary').notNull(),
    active: boolean('active').notNull().default(true),
    unsubscribeToken: text('unsubscribe_token').notNull(),
    categoryAny: integer('category_any').array().notNull(),
    categoryGroups: jsonb('category_groups'),
    textQuery: tsquery('text_query'),
    isbn: text('isbn'),
    minPrice: integer('min_price'),
    maxPrice: integer('max_price'),
    cityId: integer('city_id'),
    condition: text('condition', { enum: bookConditions }),
    isNegotiable: boolean('is_negotiable'),
    isExchangePossible: boolean('is_exchange_possible'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('saved_searches_user_idx').on(t.userId, t.createdAt),
    uniqueIndex('saved_searches_user_name_idx').on(t.userId, sql`lower(${t.name})`),
    index('saved_searches_category_any_idx').using('gin', t.categoryAny).where(sql`${t.active}`),
  ],
);

/** Listings a saved search alerted about: once per (saved search, listing), whatever happens to the listing. */
export const savedSearchMatches = pgTable(
  'saved_search_matches',
  {
    savedSearchId: integer('saved_search_id')
      .notNull()
      .references(() => savedSearches.id, { onDelete: 'cascade' }),
    bookId: integer('book_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.savedSearchId, t.bookId] })],
);

// ── exchange matching (issue 15 item 6; API.md « Exchange matching ») ───────────────────────

/** What a member looks for: a book of a class list, or a level and a subject. */
export const exchangeWishes = pgTable(
  'exchange_wishes',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id').notNull(),
    classListItemId: integer('class_list_item_id').references(() => classListItems.id, { onDelete: 'cascade' }),
    levelId: integer('level_id').references(() => categories.id, { onDelete: 'cascade' }),
    subjectId: integer('subject_id').references(() => categories.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('exchange_wishes_user_idx').on(t.userId),
    uniqueIndex('exchange_wishes_item_key').on(t.userId, t.classListItemId).where(sql`class_list_item_id is not null`),
    uniqueIndex('exchange_wishes_subject_key')
      .on(t.userId, t.levelId, t.subjectId)
      .where(sql`class_list_item_id is null`),
    check(
      'exchange_wishes_what',
      sql`class_list_item_id is not null or (level_id is not null and subject_id is not null)`,
    ),
  ],
);

/**
 * A pair or a cycle the matcher suggested: its legs (who gives which listing to whom), who
 * accepted. The signature (the legs in a canonical order) is unique: a declined suggestion is
 * never made again.
 */
export const exchangeSuggestions = pgTable(
  'exchange_suggestions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind', { enum: exchangeSuggestionKinds }).notNull(),
    status: text('status', { enum: exchangeSuggestionStatuses }).notNull().default('open'),
    signature: text('signature').notNull().unique(),
    memberIds: uuid('member_ids').array().notNull(),
    bookIds: integer('book_ids').array().notNull(),
    legs: jsonb('legs')
      .$type<Array<{ from: string; to: string; book_id: number; book_title: string; wish: string }>>()
      .notNull(),
    /** The town, or the province when the members are in several towns of it. */
    area: text('area').notNull(),
    acceptedBy: uuid('accepted_by').array().notNull().default(sql`'{}'::uuid[]`),
    declinedBy: uuid('declined_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('exchange_suggestions_members_idx').using('gin', t.memberIds),
    index('exchange_suggestions_open_idx').on(t.createdAt).where(sql`status = 'open'`),
  ],
);
