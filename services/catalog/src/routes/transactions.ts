import {
  createTransactionRequestSchema,
  dealMessages,
  pendingCountResponseSchema,
  TRANSACTIONS_PER_PAGE,
  transactionActionResponseSchema,
  transactionCandidatesQuerySchema,
  transactionCandidatesResponseSchema,
  transactionListQuerySchema,
  transactionListSchema,
  transactionParamsSchema,
  transactionResponseSchema,
} from '@cartable/contracts';
import { type Db, HttpError, isUniqueViolation, recordEvent } from '@cartable/service-kit';
import { and, asc, desc, eq, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bookContacts, books, sellers, transactions } from '../db/schema.ts';
import type { CatalogDeps } from '../deps.ts';
import { nextVersion, recordBookEvent } from '../domain/book-writes.ts';
import { forgetListings } from '../domain/books.ts';
import { dealOfParty, type TransactionRow, toTransactionDtos, transactionEvent } from '../domain/deals.ts';
import { markBoostsTransferable } from '../domain/subscriptions.ts';

const d = dealMessages;
const tags = ['transactions'];
const security = [{ bearer: [] }];

type BookRow = typeof books.$inferSelect;
const dealable = (book: BookRow | undefined): book is BookRow =>
  Boolean(book) && book!.status !== 'vendu' && book!.hiddenAt === null;

/**
 * Deals between the owner of a listing (seller) and a member who wrote to them about it (buyer):
 * services/catalog/API.md "Transactions". Only the two parties ever read a deal.
 */
export const transactionRoutes: FastifyPluginAsyncZod<CatalogDeps> = async (app, deps) => {
  const { db, storage, guards, relay, categoryStore } = deps;

  const one = async (row: TransactionRow, viewerId: string) =>
    (await toTransactionDtos(db, storage, [row], viewerId))[0]!;

  /** After a change of books' status: the relay, the listing caches and the categories' counts. */
  async function booksChanged() {
    relay.kick();
    forgetListings();
    categoryStore.clear();
  }

  app.post(
    '/transactions',
    {
      preHandler: guards.requireVerified,
      schema: {
        tags,
        security,
        body: createTransactionRequestSchema,
        response: { 201: transactionActionResponseSchema },
      },
    },
    async (request, reply) => {
      const me = request.claims!.sub;
      const body = request.body;
      if (body.buyer_id === me) throw new HttpError(422, d.selfDeal, { buyer_id: [d.selfDeal] });
      let created: TransactionRow;
      try {
        created = await db.transaction(async (tx) => {
          const [book] = await tx.select().from(books).where(eq(books.id, body.book_id)).for('update');
          if (!book) throw new HttpError(404, d.bookNotFound);
          if (book.userId !== me) throw new HttpError(403, d.notOwner);
          if (!dealable(book)) throw new HttpError(409, d.bookUnavailable);
          const [contact] = await tx
            .select()
            .from(bookContacts)
            .where(
              and(
                eq(bookContacts.bookId, book.id),
                eq(bookContacts.memberId, me),
                eq(bookContacts.otherId, body.buyer_id),
              ),
            );
          if (!contact) throw new HttpError(422, d.noConversation, { buyer_id: [d.noConversation] });
          let exchange: BookRow | undefined;
          if (body.kind === 'exchange' && body.exchange_book_id) {
            [exchange] = await tx.select().from(books).where(eq(books.id, body.exchange_book_id));
            if (!exchange || exchange.userId !== body.buyer_id)
              throw new HttpError(422, d.exchangeBookNotTheirs, { exchange_book_id: [d.exchangeBookNotTheirs] });
            if (!dealable(exchange))
              throw new HttpError(422, d.exchangeBookUnavailable, { exchange_book_id: [d.exchangeBookUnavailable] });
          }
          const [open] = await tx
            .select({ id: transactions.id })
            .from(transactions)
            .where(
              and(
                eq(transactions.bookId, book.id),
                eq(transactions.buyerId, body.buyer_id),
                eq(transactions.status, 'proposed'),
              ),
            );
          if (open) throw new HttpError(409, d.alreadyOpen);
          const [row] = await tx
            .insert(transactions)
            .values({
              bookId: book.id,
              bookTitle: book.title,
              sellerId: me,
              buyerId: body.buyer_id,
              kind: body.kind,
              price: body.kind === 'sale' ? (body.price ?? 0) : body.kind === 'gift' ? 0 : null,
              exchangeBookId: exchange?.id ?? null,
              exchangeBookTitle: exchange?.title ?? null,
            })
            .returning();
          await recordEvent(tx, 'catalog.transaction.proposed', transactionEvent(row!));
          return row!;
        });
      } catch (err) {
        // Two proposals at the same moment: the unique index keeps one.
        if (isUniqueViolation(err)) throw new HttpError(409, d.alreadyOpen);
        throw err;
      }
      relay.kick();
      return reply.status(201).send({ message: d.proposed, transaction: await one(created, me) });
    },
  );

  app.get(
    '/transactions',
    {
      preHandler: guards.requireUser,
      schema: { tags, security, querystring: transactionListQuerySchema, response: { 200: transactionListSchema } },
    },
    async (request) => {
      const me = request.claims!.sub;
      const { role, status, page } = request.query;
      const conditions: SQL[] = [
        role === 'seller'
          ? eq(transactions.sellerId, me)
          : role === 'buyer'
            ? eq(transactions.buyerId, me)
            : or(eq(transactions.sellerId, me), eq(transactions.buyerId, me))!,
      ];
      if (status) conditions.push(eq(transactions.status, status));
      const where = and(...conditions);
      const [rows, [{ total } = { total: 0 }]] = await Promise.all([
        db
          .select()
          .from(transactions)
          .where(where)
          .orderBy(desc(transactions.createdAt), desc(transactions.id))
          .limit(TRANSACTIONS_PER_PAGE)
          .offset((page - 1) * TRANSACTIONS_PER_PAGE),
        db.select({ total: sql<number>`count(*)::int` }).from(transactions).where(where),
      ]);
      return {
        data: await toTransactionDtos(db, storage, rows, me),
        meta: {
          current_page: page,
          last_page: Math.max(1, Math.ceil(total / TRANSACTIONS_PER_PAGE)),
          total,
          per_page: TRANSACTIONS_PER_PAGE,
        },
      };
    },
  );

  app.get(
    '/transactions/pending-count',
    { preHandler: guards.requireUser, schema: { tags, security, response: { 200: pendingCountResponseSchema } } },
    async (request) => {
      const [row] = await db
        .select({ count: sql<number>`count(*)::int` })
        .from(transactions)
        .where(and(eq(transactions.buyerId, request.claims!.sub), eq(transactions.status, 'proposed')));
      return { count: row?.count ?? 0 };
    },
  );

  app.get(
    '/transactions/candidates',
    {
      preHandler: guards.requireUser,
      schema: {
        tags,
        security,
        querystring: transactionCandidatesQuerySchema,
        response: { 200: transactionCandidatesResponseSchema },
      },
    },
    async (request) => {
      const me = request.claims!.sub;
      const [book] = await db.select({ userId: books.userId }).from(books).where(eq(books.id, request.query.book_id));
      if (!book) throw new HttpError(404, d.bookNotFound);
      if (book.userId !== me) throw new HttpError(403, d.notOwner);
      const rows = await db
        .select({
          id: bookContacts.otherId,
          at: bookContacts.lastMessageAt,
          name: sellers.name,
          username: sellers.username,
          profileImage: sellers.profileImage,
        })
        .from(bookContacts)
        .leftJoin(sellers, eq(sellers.userId, bookContacts.otherId))
        .where(and(eq(bookContacts.bookId, request.query.book_id), eq(bookContacts.memberId, me)))
        .orderBy(desc(bookContacts.lastMessageAt));
      return {
        data: rows.map((r) => ({
          id: r.id,
          name: r.name ?? 'Membre',
          username: r.username ?? 'membre',
          profile_image: r.profileImage ?? null,
          last_message_at: r.at.toISOString(),
        })),
      };
    },
  );

  app.get(
    '/transactions/:id',
    {
      preHandler: guards.requireUser,
      schema: { tags, security, params: transactionParamsSchema, response: { 200: transactionResponseSchema } },
    },
    async (request) => {
      const me = request.claims!.sub;
      return { transaction: await one(await dealOfParty(db, request.params.id, me), me) };
    },
  );

  /** A change of a proposed deal by one of its parties, under the deal's row lock. */
  async function answer(
    id: string,
    me: string,
    action: 'confirm' | 'decline' | 'cancel',
  ): Promise<{ row: TransactionRow; soldBooks: boolean }> {
    return db.transaction(async (tx) => {
      if (action === 'confirm') {
        // The books' locks first, in id order, then the deal's: a confirmation cancels the other
        // proposals on its books, so taking the deal's lock first would deadlock two of them.
        const seen = await dealOfParty(tx, id, me);
        await lockBooks(tx, seen);
      }
      const deal = await dealOfParty(tx, id, me, true);
      if (action !== 'cancel' && deal.buyerId !== me) throw new HttpError(403, d.onlyBuyerConfirms);
      if (deal.status !== 'proposed') throw new HttpError(409, d.notProposed);
      const now = new Date();
      if (action === 'decline' || action === 'cancel') {
        const [row] = await tx
          .update(transactions)
          .set(
            action === 'decline'
              ? { status: 'declined', declinedAt: now, updatedAt: now }
              : { status: 'cancelled', cancelledAt: now, cancelledBy: me, updatedAt: now },
          )
          .where(eq(transactions.id, deal.id))
          .returning();
        await recordEvent(
          tx,
          action === 'decline' ? 'catalog.transaction.declined' : 'catalog.transaction.cancelled',
          transactionEvent(row!),
        );
        return { row: row!, soldBooks: false };
      }
      const sold = await sellBooks(tx, deal);
      const [row] = await tx
        .update(transactions)
        .set({ status: 'confirmed', confirmedAt: now, updatedAt: now })
        .where(eq(transactions.id, deal.id))
        .returning();
      await recordEvent(tx, 'catalog.transaction.confirmed', transactionEvent(row!));
      await cancelOthers(tx, deal.id, sold, now);
      return { row: row!, soldBooks: true };
    });
  }

  /**
   * Marks the deal's listings vendu (both for an exchange), each under its row lock, through the
   * book-writes path (its status_changed event). A listing sold, hidden or deleted meanwhile
   * refuses the confirmation: a book is never sold twice.
   */
  const bookIdsOf = (deal: TransactionRow) => [deal.bookId, ...(deal.exchangeBookId ? [deal.exchangeBookId] : [])];
  const lockBooks = (tx: Db, deal: TransactionRow) =>
    tx
      .select()
      .from(books)
      .where(inArray(books.id, bookIdsOf(deal)))
      .orderBy(asc(books.id))
      .for('update');

  async function sellBooks(tx: Db, deal: TransactionRow) {
    const ids = bookIdsOf(deal);
    const rows = await lockBooks(tx, deal);
    for (const id of ids) {
      const book = rows.find((b) => b.id === id);
      if (!dealable(book)) throw new HttpError(409, id === deal.bookId ? d.bookUnavailable : d.exchangeBookUnavailable);
    }
    for (const book of rows) {
      await tx
        .update(books)
        .set({ status: 'vendu', ...nextVersion })
        .where(eq(books.id, book.id));
      await recordBookEvent(tx, storage, 'catalog.book.status_changed', book.id, { previous_status: book.status });
    }
    // A boosted listing that changed hands keeps its boost for another of the seller's listings.
    await markBoostsTransferable(tx, ids);
    return ids;
  }

  /** Other open proposals on the books just sold can no longer be confirmed: catalog cancels them. */
  async function cancelOthers(tx: Db, keptId: string, bookIds: number[], now: Date) {
    const others = await tx
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
    for (const row of others) await recordEvent(tx, 'catalog.transaction.cancelled', transactionEvent(row));
  }

  const actions = [
    ['confirm', d.confirmed],
    ['decline', d.declined],
    ['cancel', d.cancelled],
  ] as const;
  for (const [action, message] of actions) {
    app.post(
      `/transactions/:id/${action}`,
      {
        preHandler: guards.requireVerified,
        schema: {
          tags,
          security,
          params: transactionParamsSchema,
          response: { 200: transactionActionResponseSchema },
        },
      },
      async (request) => {
        const me = request.claims!.sub;
        const { row, soldBooks } = await answer(request.params.id, me, action);
        if (soldBooks) await booksChanged();
        else relay.kick();
        return { message, transaction: await one(row, me) };
      },
    );
  }
};
