import {
  boostTransferRequestSchema,
  createSubscriptionRequestSchema,
  manualDeclarationRequestSchema,
  paymentChoiceSchema,
  paymentSchema,
  planListResponseSchema,
  SUBSCRIPTIONS_PER_PAGE,
  subscriptionBooksRequestSchema,
  subscriptionCheckoutResponseSchema,
  subscriptionDetailResponseSchema,
  subscriptionListQuerySchema,
  subscriptionMessages,
  subscriptionPageSchema,
} from '@cartable/contracts';
import { type Db, HttpError, hasPermission } from '@cartable/service-kit';
import { and, asc, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bookTransfers, boostedBooks, payments, subscriptionPlans, subscriptions } from '../db/schema.ts';
import type { CatalogDeps } from '../deps.ts';
import { forgetListings } from '../domain/books.ts';
import { createPayment, declarePayment, initiatePayment, markPaid, paymentOf } from '../domain/payments.ts';
import { noSubscriptionJobs } from '../domain/subscription-jobs.ts';
import {
  audit,
  boostableBook,
  endBoosts,
  paymentDto,
  planDto,
  type SubscriptionRow,
  startBoost,
  subscriptionChanged,
  subscriptionDetail,
  subscriptionOf,
  toSubscriptionDtos,
  userNames,
} from '../domain/subscriptions.ts';
import { createPaymentProviders, providerLabel } from '../payments/provider.ts';
import { renderReceiptPdf } from '../payments/receipt-pdf.ts';

const s = subscriptionMessages;
const tags = ['subscriptions'];
const security = [{ bearer: [] }];
const uuidParams = z.object({ id: z.string().uuid() });
const paymentResponseSchema = z.object({ message: z.string(), payment: paymentSchema });

/** Plans, a member's subscriptions and payments (services/catalog/API.md « Subscriptions and payments »). */
export const subscriptionRoutes: FastifyPluginAsyncZod<CatalogDeps> = async (app, deps) => {
  const { db, guards, relay, config } = deps;
  const providers = deps.payments ?? createPaymentProviders(config);
  const jobs = deps.subscriptionJobs ?? noSubscriptionJobs;

  const checkout = async (sub: SubscriptionRow, payment: typeof payments.$inferSelect, message: string) => {
    if (payment.status === 'paid') {
      // A free plan: paid on the spot (settle), nothing to ask any provider.
      relay.kick();
      forgetListings();
      const [fresh] = await db.select().from(subscriptions).where(eq(subscriptions.id, sub.id));
      await jobs.schedule(fresh!);
      const [dto] = await toSubscriptionDtos(db, [fresh!]);
      return {
        message,
        subscription: dto!,
        payment: paymentDto(payment),
        instructions: {
          provider: payment.provider,
          operator: payment.operator,
          amount: 0,
          reference: payment.reference,
          merchant_number: null,
          merchant_name: null,
          steps: ['Rien à payer : votre abonnement est actif.'],
        },
      };
    }
    const provider = providers.get(payment.provider)!;
    const initiated = await initiatePayment(db, provider, payment, `Cartable : ${sub.planName}`);
    relay.kick();
    const [dto] = await toSubscriptionDtos(db, [sub]);
    return {
      message,
      subscription: dto!,
      payment: paymentDto(initiated.payment),
      instructions: initiated.instructions,
    };
  };

  /** Nothing to pay (a free plan): paid at once, the subscription active in the same transaction. */
  const settleIfFree = async (tx: Db, payment: typeof payments.$inferSelect) =>
    payment.amount === 0 ? ((await markPaid(tx, payment.id, null, { free: true }))?.payment ?? payment) : payment;

  const chooseProvider = (name: string) => {
    const provider = providers.get(name);
    if (!provider) throw new HttpError(422, s.providerInvalid, { provider: [s.providerInvalid] });
    return provider;
  };

  app.get(
    '/subscription-plans',
    { schema: { tags, response: { 200: planListResponseSchema } } },
    async (_request, reply) => {
      const rows = await db
        .select()
        .from(subscriptionPlans)
        .where(eq(subscriptionPlans.active, true))
        .orderBy(asc(subscriptionPlans.position), asc(subscriptionPlans.id));
      reply.header('cache-control', 'public, max-age=60');
      return {
        data: rows.map(planDto),
        providers: providers.list().map((p) => ({ name: p.name, label: providerLabel(p.name) })),
      };
    },
  );

  app.post(
    '/subscriptions',
    {
      preHandler: guards.requireVerified,
      schema: {
        tags,
        security,
        body: createSubscriptionRequestSchema,
        response: { 201: subscriptionCheckoutResponseSchema },
      },
    },
    async (request, reply) => {
      const me = request.claims!.sub;
      const body = request.body;
      chooseProvider(body.provider);
      const { sub, payment } = await db.transaction(async (tx) => {
        const [plan] = await tx.select().from(subscriptionPlans).where(eq(subscriptionPlans.id, body.plan_id));
        if (!plan) throw new HttpError(404, s.planNotFound);
        if (!plan.active) throw new HttpError(409, s.planInactive);
        let bookId: number | null = null;
        if (plan.kind === 'boost') {
          if (!body.book_id) throw new HttpError(422, s.bookRequired, { book_id: [s.bookRequired] });
          const book = await boostableBook(tx, body.book_id, me);
          const [live] = await tx
            .select({ id: boostedBooks.id })
            .from(boostedBooks)
            .where(and(eq(boostedBooks.bookId, book.id), isNull(boostedBooks.endedAt)));
          if (live) throw new HttpError(409, s.bookAlreadyBoosted);
          bookId = book.id;
        } else if (body.book_id) {
          throw new HttpError(422, s.bookNotForMemberPlan, { book_id: [s.bookNotForMemberPlan] });
        }
        // The same plan (and listing) still waiting with no payment under way (the last one failed
        // or expired): paid again rather than bought twice.
        const [waiting] = await tx
          .select()
          .from(subscriptions)
          .where(
            and(
              eq(subscriptions.userId, me),
              eq(subscriptions.planId, plan.id),
              eq(subscriptions.status, 'pending_payment'),
              bookId === null ? isNull(subscriptions.bookId) : eq(subscriptions.bookId, bookId),
              sql`not exists (select 1 from ${payments} where ${payments.subscriptionId} = ${subscriptions.id} and ${payments.status} in ('pending', 'submitted'))`,
            ),
          )
          .limit(1)
          .for('update');
        if (waiting) {
          const payment = await createPayment(
            tx,
            waiting,
            body,
            'subscription',
            config.CURRENCY,
            config.PAYMENT_PENDING_HOURS,
          );
          return { sub: waiting, payment: await settleIfFree(tx, payment) };
        }
        const [sub] = await tx
          .insert(subscriptions)
          .values({
            userId: me,
            planId: plan.id,
            planKind: plan.kind,
            planName: plan.name,
            planPrice: plan.price,
            planDurationDays: plan.durationDays,
            planBoostSlots: plan.boostSlots,
            planSellerBadge: plan.sellerBadge,
            planListingsLimit: plan.listingsLimit,
            bookId,
          })
          .returning();
        await audit(tx, sub!.id, 'created', me, { plan_id: plan.id, book_id: bookId });
        const payment = await createPayment(
          tx,
          sub!,
          body,
          'subscription',
          config.CURRENCY,
          config.PAYMENT_PENDING_HOURS,
        );
        return { sub: sub!, payment: await settleIfFree(tx, payment) };
      });
      return reply.status(201).send(await checkout(sub, payment, s.created));
    },
  );

  app.get(
    '/subscriptions',
    {
      preHandler: guards.requireUser,
      schema: { tags, security, querystring: subscriptionListQuerySchema, response: { 200: subscriptionPageSchema } },
    },
    async (request) => {
      const me = request.claims!.sub;
      const { status, page } = request.query;
      const where = and(eq(subscriptions.userId, me), status ? eq(subscriptions.status, status) : undefined);
      const [rows, [{ total } = { total: 0 }]] = await Promise.all([
        db
          .select()
          .from(subscriptions)
          .where(where)
          .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id))
          .limit(SUBSCRIPTIONS_PER_PAGE)
          .offset((page - 1) * SUBSCRIPTIONS_PER_PAGE),
        db.select({ total: sql<number>`count(*)::int` }).from(subscriptions).where(where),
      ]);
      return {
        data: await toSubscriptionDtos(db, rows),
        meta: { current_page: page, last_page: Math.max(1, Math.ceil(total / SUBSCRIPTIONS_PER_PAGE)), total },
      };
    },
  );

  app.get(
    '/subscriptions/:id',
    {
      preHandler: guards.requireUser,
      schema: { tags, security, params: uuidParams, response: { 200: subscriptionDetailResponseSchema } },
    },
    async (request) => {
      const sub = await subscriptionOf(db, request.params.id, request.claims!.sub);
      return { subscription: await subscriptionDetail(db, sub) };
    },
  );

  app.post(
    '/subscriptions/:id/renew',
    {
      preHandler: guards.requireVerified,
      schema: {
        tags,
        security,
        params: uuidParams,
        body: paymentChoiceSchema,
        response: { 201: subscriptionCheckoutResponseSchema },
      },
    },
    async (request, reply) => {
      const me = request.claims!.sub;
      chooseProvider(request.body.provider);
      const { sub, payment } = await db.transaction(async (tx) => {
        const sub = await subscriptionOf(tx, request.params.id, me, true);
        // A subscription whose first payment failed or expired is paid again the same way.
        if (sub.status === 'cancelled' || sub.status === 'refunded') throw new HttpError(409, s.notRenewable);
        const purpose = sub.status === 'pending_payment' ? 'subscription' : 'renewal';
        const payment = await createPayment(
          tx,
          sub,
          request.body,
          purpose,
          config.CURRENCY,
          config.PAYMENT_PENDING_HOURS,
        );
        return { sub, payment: await settleIfFree(tx, payment) };
      });
      return reply.status(201).send(await checkout(sub, payment, s.initiated));
    },
  );

  app.put(
    '/subscriptions/:id/books',
    {
      preHandler: guards.requireUser,
      schema: {
        tags,
        security,
        params: uuidParams,
        body: subscriptionBooksRequestSchema,
        response: { 200: subscriptionDetailResponseSchema.extend({ message: z.string() }) },
      },
    },
    async (request) => {
      const me = request.claims!.sub;
      const wanted = [...new Set(request.body.book_ids)];
      const sub = await db.transaction(async (tx) => {
        const sub = await subscriptionOf(tx, request.params.id, me, true);
        if (sub.status !== 'active' || !sub.endsAt || sub.endsAt <= new Date()) throw new HttpError(409, s.notActive);
        if (wanted.length > sub.planBoostSlots) {
          const message = s.tooManyBooks.replace('{slots}', String(sub.planBoostSlots));
          throw new HttpError(422, message, { book_ids: [message] });
        }
        const found = [];
        for (const id of wanted) found.push(await boostableBook(tx, id, me));
        if (wanted.length) {
          const [taken] = await tx
            .select({ id: boostedBooks.id })
            .from(boostedBooks)
            .where(
              and(
                inArray(boostedBooks.bookId, wanted),
                isNull(boostedBooks.endedAt),
                ne(boostedBooks.subscriptionId, sub.id),
              ),
            );
          if (taken) throw new HttpError(409, s.bookAlreadyBoosted);
        }
        const replaced = await endBoosts(
          tx,
          and(
            eq(boostedBooks.subscriptionId, sub.id),
            wanted.length ? sql`${boostedBooks.bookId} <> all(${`{${wanted.join(',')}}`}::integer[])` : undefined,
          ),
          'replaced',
        );
        const live = await tx
          .select({ bookId: boostedBooks.bookId })
          .from(boostedBooks)
          .where(and(eq(boostedBooks.subscriptionId, sub.id), isNull(boostedBooks.endedAt)));
        const kept = new Set(live.map((b) => b.bookId));
        let started = 0;
        for (const book of found) {
          if (kept.has(book.id)) continue;
          // Taken by another subscription in the meantime (the unique index decided).
          if (!(await startBoost(tx, sub, book))) throw new HttpError(409, s.bookAlreadyBoosted);
          started++;
        }
        if (replaced.length || started)
          await subscriptionChanged(tx, 'catalog.subscription.books_changed', sub, {
            actorId: me,
            detail: { replaced: replaced.map((b) => b.bookId) },
          });
        return sub;
      });
      relay.kick();
      forgetListings();
      return { message: s.booksUpdated, subscription: await subscriptionDetail(db, sub) };
    },
  );

  app.post(
    '/boosted-books/:id/transfer',
    {
      preHandler: guards.requireUser,
      schema: {
        tags,
        security,
        params: uuidParams,
        body: boostTransferRequestSchema,
        response: { 200: subscriptionDetailResponseSchema.extend({ message: z.string() }) },
      },
    },
    async (request) => {
      const me = request.claims!.sub;
      const sub = await db.transaction(async (tx) => {
        const [boost] = await tx
          .select()
          .from(boostedBooks)
          .where(and(eq(boostedBooks.id, request.params.id), eq(boostedBooks.userId, me)))
          .for('update');
        if (!boost) throw new HttpError(404, s.notFound);
        const sub = await subscriptionOf(tx, boost.subscriptionId, me, true);
        if (!boost.transferable || sub.status !== 'active') throw new HttpError(409, s.notTransferable);
        const invalid = () => new HttpError(422, s.transferBookInvalid, { book_id: [s.transferBookInvalid] });
        if (request.body.book_id === boost.bookId) throw invalid();
        const book = await boostableBook(tx, request.body.book_id, me).catch(() => {
          throw invalid();
        });
        const started = await startBoost(tx, sub, book);
        if (!started) throw new HttpError(409, s.bookAlreadyBoosted);
        await tx
          .update(boostedBooks)
          .set({ transferable: false, endReason: 'transferred' })
          .where(eq(boostedBooks.id, boost.id));
        await tx.insert(bookTransfers).values({
          boostedBookId: boost.id,
          newBoostedBookId: started.id,
          fromBookId: boost.bookId,
          toBookId: book.id,
          userId: me,
        });
        await subscriptionChanged(tx, 'catalog.subscription.books_changed', sub, {
          actorId: me,
          detail: { transferred_from: boost.bookId, transferred_to: book.id },
        });
        return sub;
      });
      relay.kick();
      forgetListings();
      return { message: s.transferred, subscription: await subscriptionDetail(db, sub) };
    },
  );

  app.post(
    '/payments/:id/declaration',
    {
      preHandler: guards.requireUser,
      schema: {
        tags,
        security,
        params: uuidParams,
        body: manualDeclarationRequestSchema,
        response: { 200: paymentResponseSchema },
      },
    },
    async (request) => {
      const row = await declarePayment(
        db,
        request.params.id,
        request.claims!.sub,
        request.body,
        (name) => providers.get(name)?.manual ?? false,
      );
      relay.kick();
      return { message: s.submitted, payment: paymentDto(row) };
    },
  );

  app.get(
    '/payments/:id/receipt',
    {
      preHandler: guards.requireUser,
      schema: {
        tags,
        security,
        params: uuidParams,
        response: {
          200: {
            description: 'Le reçu du paiement, une page A4.',
            content: { 'application/pdf': { schema: z.string().describe('PDF (renderReceiptPdf)') } },
          },
        },
      },
    },
    async (request, reply) => {
      const claims = request.claims!;
      const payment = await paymentOf(
        db,
        request.params.id,
        hasPermission(claims, 'payments.manage') ? null : claims.sub,
        false,
      );
      if (payment.status !== 'paid') throw new HttpError(409, s.notPaid);
      const [sub] = await db.select().from(subscriptions).where(eq(subscriptions.id, payment.subscriptionId));
      const [dto] = await toSubscriptionDtos(db, [sub!]);
      const names = await userNames(db, [payment.userId]);
      const pdf = await renderReceiptPdf({
        payment: paymentDto(payment),
        subscription: dto!,
        member_name: names.get(payment.userId) ?? null,
        issued_at: new Date(),
      });
      return (
        reply
          .header('content-type', 'application/pdf')
          .header('content-disposition', `attachment; filename="recu-${payment.reference}.pdf"`)
          .header('cache-control', 'private, no-store')
          // Bytes, not serialised (the schema above only documents them).
          .send(pdf as unknown as string)
      );
    },
  );
};
