import {
  type AdminPayment,
  type AdminPaymentDetail,
  adminPaymentDetailResponseSchema,
  adminPaymentListQuerySchema,
  adminPaymentPageSchema,
  adminSubscriptionListQuerySchema,
  boostedBookListQuerySchema,
  boostedBookPageSchema,
  messageResponseSchema,
  paymentActionResponseSchema,
  paymentRejectRequestSchema,
  planListResponseSchema,
  planRequestSchema,
  planWriteResponseSchema,
  refundRequestSchema,
  SUBSCRIPTIONS_PER_PAGE,
  subscriptionCancelRequestSchema,
  subscriptionDetailResponseSchema,
  subscriptionExtendRequestSchema,
  subscriptionMessages,
  subscriptionPageSchema,
  subscriptionStatsSchema,
} from '@cartable/contracts';
import { type Db, HttpError } from '@cartable/service-kit';
import { and, asc, desc, eq, gt, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  boostedBooks,
  paymentEvents,
  payments,
  refunds,
  sellers,
  subscriptionPlans,
  subscriptions,
} from '../db/schema.ts';
import type { CatalogDeps } from '../deps.ts';
import { forgetListings } from '../domain/books.ts';
import { paymentOf, refundPayment, rejectPayment, validatePayment } from '../domain/payments.ts';
import { noSubscriptionJobs } from '../domain/subscription-jobs.ts';
import {
  endSubscription,
  extendSubscription,
  type PaymentRow,
  paymentDto,
  planDto,
  refundDto,
  subscriptionDetail,
  subscriptionOf,
  toBoostDtos,
  toSubscriptionDtos,
  userNames,
} from '../domain/subscriptions.ts';
import { createPaymentProviders, providerLabel } from '../payments/provider.ts';

const s = subscriptionMessages;
const tags = ['subscriptions'];
const security = [{ bearer: [] }];
const uuidParams = z.object({ id: z.string().uuid() });
const planParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
// A constant in the SQL text (not a parameter): GROUP BY must see the same expression as SELECT.
const TZ = sql.raw(`'Africa/Libreville'`);
const PER_PAGE = SUBSCRIPTIONS_PER_PAGE;

const like = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const meta = (page: number, total: number) => ({
  current_page: page,
  last_page: Math.max(1, Math.ceil(total / PER_PAGE)),
  total,
});

/** A payment as the back office lists it: with its member's name and its plan. */
async function adminPayments(db: Db, rows: PaymentRow[]): Promise<AdminPayment[]> {
  if (!rows.length) return [];
  const subIds = [...new Set(rows.map((r) => r.subscriptionId))];
  const [names, plans] = await Promise.all([
    userNames(
      db,
      rows.map((r) => r.userId),
    ),
    db
      .select({ id: subscriptions.id, name: subscriptions.planName })
      .from(subscriptions)
      .where(sql`${subscriptions.id} = any(${`{${subIds.join(',')}}`}::uuid[])`),
  ]);
  const planOf = new Map(plans.map((p) => [p.id, p.name]));
  return rows.map((r) => ({
    ...paymentDto(r),
    user_name: names.get(r.userId) ?? null,
    plan_name: planOf.get(r.subscriptionId) ?? '',
  }));
}

async function paymentDetail(db: Db, row: PaymentRow): Promise<AdminPaymentDetail> {
  const [[base], events, refundRows, [sub]] = await Promise.all([
    adminPayments(db, [row]),
    db.select().from(paymentEvents).where(eq(paymentEvents.paymentId, row.id)).orderBy(asc(paymentEvents.createdAt)),
    db.select().from(refunds).where(eq(refunds.paymentId, row.id)),
    db.select().from(subscriptions).where(eq(subscriptions.id, row.subscriptionId)),
  ]);
  const [subscription] = await toSubscriptionDtos(db, [sub!]);
  return {
    ...base!,
    events: events.map((e) => ({
      id: e.id,
      type: e.type,
      status: e.status,
      detail: e.detail as Record<string, unknown>,
      created_at: e.createdAt.toISOString(),
    })),
    refunds: refundRows.map(refundDto),
    subscription: subscription!,
  };
}

/** Revenue per month (Libreville time) of the paid payments matching `where`. */
async function monthlyTotals(db: Db, where: SQL | undefined) {
  const month = sql<string>`to_char(${payments.paidAt} at time zone ${TZ}, 'YYYY-MM')`;
  const rows = await db
    .select({
      month,
      paid: sql<number>`coalesce(sum(${payments.amount}), 0)::int`,
      refunded: sql<number>`coalesce(sum(${payments.refundedAmount}), 0)::int`,
      count: sql<number>`count(*)::int`,
    })
    .from(payments)
    .leftJoin(sellers, eq(sellers.userId, payments.userId))
    .where(and(where, eq(payments.status, 'paid'), isNotNull(payments.paidAt)))
    .groupBy(month)
    .orderBy(desc(month));
  return rows;
}

/**
 * The back office of subscriptions: plans (administrators), subscriptions and boosted listings
 * (user_subscriptions.manage), payments and refunds (payments.manage), figures (reports.view).
 */
export const adminSubscriptionRoutes: FastifyPluginAsyncZod<CatalogDeps> = async (app, deps) => {
  const { db, guards, relay, config } = deps;
  const providers = deps.payments ?? createPaymentProviders(config);
  const jobs = deps.subscriptionJobs ?? noSubscriptionJobs;
  const admin = { preHandler: guards.requireAdmin };
  const subscriptionsManage = { preHandler: guards.requirePermission('user_subscriptions.manage') };
  const paymentsManage = { preHandler: guards.requirePermission('payments.manage') };

  // ── plans ──
  app.get(
    '/admin/subscription-plans',
    { ...admin, schema: { tags, security, response: { 200: planListResponseSchema } } },
    async () => {
      const rows = await db
        .select()
        .from(subscriptionPlans)
        .orderBy(asc(subscriptionPlans.position), asc(subscriptionPlans.id));
      return {
        data: rows.map(planDto),
        providers: providers.list().map((p) => ({ name: p.name, label: providerLabel(p.name) })),
      };
    },
  );

  const planValues = (body: z.infer<typeof planRequestSchema>) => ({
    kind: body.kind,
    name: body.name,
    description: body.description,
    price: body.price,
    durationDays: body.duration_days,
    // A listing boost puts one listing forward.
    boostSlots: body.kind === 'boost' ? 1 : body.boost_slots,
    sellerBadge: body.seller_badge,
    listingsLimit: body.listings_limit,
    active: body.active,
    position: body.position,
  });

  app.post(
    '/admin/subscription-plans',
    { ...admin, schema: { tags, security, body: planRequestSchema, response: { 201: planWriteResponseSchema } } },
    async (request, reply) => {
      const [row] = await db.insert(subscriptionPlans).values(planValues(request.body)).returning();
      return reply.status(201).send({ message: s.planCreated, plan: planDto(row!) });
    },
  );

  app.put(
    '/admin/subscription-plans/:id',
    {
      ...admin,
      schema: {
        tags,
        security,
        params: planParams,
        body: planRequestSchema,
        response: { 200: planWriteResponseSchema },
      },
    },
    async (request) => {
      const [row] = await db
        .update(subscriptionPlans)
        .set({ ...planValues(request.body), updatedAt: new Date() })
        .where(eq(subscriptionPlans.id, request.params.id))
        .returning();
      if (!row) throw new HttpError(404, s.planNotFound);
      return { message: s.planUpdated, plan: planDto(row) };
    },
  );

  app.delete(
    '/admin/subscription-plans/:id',
    { ...admin, schema: { tags, security, params: planParams, response: { 200: messageResponseSchema } } },
    async (request) => {
      const [plan] = await db.select().from(subscriptionPlans).where(eq(subscriptionPlans.id, request.params.id));
      if (!plan) throw new HttpError(404, s.planNotFound);
      const [used] = await db
        .select({ id: subscriptions.id })
        .from(subscriptions)
        .where(eq(subscriptions.planId, plan.id))
        .limit(1);
      if (used) throw new HttpError(409, s.planInUse);
      await db.delete(subscriptionPlans).where(eq(subscriptionPlans.id, plan.id));
      return { message: s.planDeleted };
    },
  );

  // ── subscriptions ──
  app.get(
    '/admin/subscriptions',
    {
      ...subscriptionsManage,
      schema: {
        tags,
        security,
        querystring: adminSubscriptionListQuerySchema,
        response: { 200: subscriptionPageSchema },
      },
    },
    async (request) => {
      const { status, kind, plan_id, user_id, q, page } = request.query;
      const conditions: SQL[] = [];
      if (status) conditions.push(eq(subscriptions.status, status));
      if (kind) conditions.push(eq(subscriptions.planKind, kind));
      if (plan_id) conditions.push(eq(subscriptions.planId, plan_id));
      if (user_id) conditions.push(eq(subscriptions.userId, user_id));
      if (q)
        conditions.push(
          sql`exists (select 1 from ${sellers} where ${sellers.userId} = ${subscriptions.userId} and (${sellers.name} ilike ${like(q)} or ${sellers.username} ilike ${like(q)}))`,
        );
      const where = conditions.length ? and(...conditions) : undefined;
      const [rows, [{ total } = { total: 0 }]] = await Promise.all([
        db
          .select()
          .from(subscriptions)
          .where(where)
          .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id))
          .limit(PER_PAGE)
          .offset((page - 1) * PER_PAGE),
        db.select({ total: sql<number>`count(*)::int` }).from(subscriptions).where(where),
      ]);
      return { data: await toSubscriptionDtos(db, rows), meta: meta(page, total) };
    },
  );

  app.get(
    '/admin/subscriptions/:id',
    {
      ...subscriptionsManage,
      schema: { tags, security, params: uuidParams, response: { 200: subscriptionDetailResponseSchema } },
    },
    async (request) => ({
      subscription: await subscriptionDetail(db, await subscriptionOf(db, request.params.id, null)),
    }),
  );

  const actionResponse = subscriptionDetailResponseSchema.extend({ message: z.string() });

  app.post(
    '/admin/subscriptions/:id/cancel',
    {
      ...subscriptionsManage,
      schema: {
        tags,
        security,
        params: uuidParams,
        body: subscriptionCancelRequestSchema,
        response: { 200: actionResponse },
      },
    },
    async (request) => {
      const row = await db.transaction(async (tx) => {
        const sub = await subscriptionOf(tx, request.params.id, null, true);
        return endSubscription(tx, sub, 'cancelled', request.body.reason, request.claims!.sub);
      });
      relay.kick();
      forgetListings();
      return { message: s.cancelled, subscription: await subscriptionDetail(db, row) };
    },
  );

  app.post(
    '/admin/subscriptions/:id/extend',
    {
      ...subscriptionsManage,
      schema: {
        tags,
        security,
        params: uuidParams,
        body: subscriptionExtendRequestSchema,
        response: { 200: actionResponse },
      },
    },
    async (request) => {
      const row = await db.transaction(async (tx) => {
        const sub = await subscriptionOf(tx, request.params.id, null, true);
        return extendSubscription(tx, sub, request.body.days, request.body.reason, request.claims!.sub);
      });
      relay.kick();
      forgetListings();
      await jobs.schedule(row);
      return { message: s.extended, subscription: await subscriptionDetail(db, row) };
    },
  );

  app.get(
    '/admin/boosted-books',
    {
      ...subscriptionsManage,
      schema: { tags, security, querystring: boostedBookListQuerySchema, response: { 200: boostedBookPageSchema } },
    },
    async (request) => {
      const { current, page } = request.query;
      const where =
        current === 'true'
          ? and(isNull(boostedBooks.endedAt), gt(boostedBooks.endsAt, sql`now()`))
          : or(isNotNull(boostedBooks.endedAt), sql`${boostedBooks.endsAt} <= now()`);
      const [rows, [{ total } = { total: 0 }]] = await Promise.all([
        db
          .select()
          .from(boostedBooks)
          .where(where)
          .orderBy(desc(boostedBooks.startsAt), desc(boostedBooks.id))
          .limit(PER_PAGE)
          .offset((page - 1) * PER_PAGE),
        db.select({ total: sql<number>`count(*)::int` }).from(boostedBooks).where(where),
      ]);
      return { data: await toBoostDtos(db, rows), meta: meta(page, total) };
    },
  );

  // ── payments ──
  app.get(
    '/admin/payments',
    {
      ...paymentsManage,
      schema: { tags, security, querystring: adminPaymentListQuerySchema, response: { 200: adminPaymentPageSchema } },
    },
    async (request) => {
      const { status, provider, operator, refunded, from, to, q, page } = request.query;
      const conditions: SQL[] = [];
      if (status) conditions.push(eq(payments.status, status));
      if (provider) conditions.push(eq(payments.provider, provider));
      if (operator) conditions.push(eq(payments.operator, operator));
      if (refunded === 'true') conditions.push(gt(payments.refundedAmount, 0));
      if (refunded === 'false') conditions.push(eq(payments.refundedAmount, 0));
      // Days of Libreville: from its midnight to the next one after `to`.
      if (from) conditions.push(sql`${payments.createdAt} >= (${from}::date::timestamp at time zone ${TZ})`);
      if (to) conditions.push(sql`${payments.createdAt} < ((${to}::date + 1)::timestamp at time zone ${TZ})`);
      if (q)
        conditions.push(
          sql`(${payments.reference} ilike ${like(q)} or ${payments.providerReference} ilike ${like(q)} or ${sellers.name} ilike ${like(q)})`,
        );
      const where = conditions.length ? and(...conditions) : undefined;
      const [rows, [{ total } = { total: 0 }], totals] = await Promise.all([
        db
          .select({ payment: payments })
          .from(payments)
          .leftJoin(sellers, eq(sellers.userId, payments.userId))
          .where(where)
          .orderBy(desc(payments.createdAt), desc(payments.id))
          .limit(PER_PAGE)
          .offset((page - 1) * PER_PAGE),
        db
          .select({ total: sql<number>`count(*)::int` })
          .from(payments)
          .leftJoin(sellers, eq(sellers.userId, payments.userId))
          .where(where),
        monthlyTotals(db, where),
      ]);
      return {
        data: await adminPayments(
          db,
          rows.map((r) => r.payment),
        ),
        meta: meta(page, total),
        totals,
      };
    },
  );

  app.get(
    '/admin/payments/:id',
    {
      ...paymentsManage,
      schema: { tags, security, params: uuidParams, response: { 200: adminPaymentDetailResponseSchema } },
    },
    async (request) => ({ payment: await paymentDetail(db, await paymentOf(db, request.params.id, null, false)) }),
  );

  app.post(
    '/admin/payments/:id/validate',
    {
      ...paymentsManage,
      schema: { tags, security, params: uuidParams, response: { 200: paymentActionResponseSchema } },
    },
    async (request) => {
      const done = await validatePayment(db, request.params.id, request.claims!.sub);
      relay.kick();
      forgetListings();
      if (done.subscription) await jobs.schedule(done.subscription);
      return { message: s.validated, payment: await paymentDetail(db, done.payment) };
    },
  );

  app.post(
    '/admin/payments/:id/reject',
    {
      ...paymentsManage,
      schema: {
        tags,
        security,
        params: uuidParams,
        body: paymentRejectRequestSchema,
        response: { 200: paymentActionResponseSchema },
      },
    },
    async (request) => {
      const row = await rejectPayment(db, request.params.id, request.body.reason, request.claims!.sub);
      relay.kick();
      return { message: s.rejected, payment: await paymentDetail(db, row) };
    },
  );

  app.post(
    '/admin/payments/:id/refunds',
    {
      ...paymentsManage,
      schema: {
        tags,
        security,
        params: uuidParams,
        body: refundRequestSchema,
        response: { 201: paymentActionResponseSchema },
      },
    },
    async (request, reply) => {
      const { payment } = await refundPayment(
        db,
        request.params.id,
        request.body.amount,
        request.body.reason,
        request.claims!.sub,
      );
      relay.kick();
      forgetListings();
      return reply.status(201).send({ message: s.refunded, payment: await paymentDetail(db, payment) });
    },
  );

  // ── figures ──
  app.get(
    '/admin/stats/subscriptions',
    {
      preHandler: guards.requirePermission('reports.view'),
      schema: { tags: ['statistics'], security, response: { 200: subscriptionStatsSchema } },
    },
    async () => {
      const [active, [boosted], [toValidate], revenue] = await Promise.all([
        db
          .select({ kind: subscriptions.planKind, n: sql<number>`count(*)::int` })
          .from(subscriptions)
          .where(and(eq(subscriptions.status, 'active'), gt(subscriptions.endsAt, sql`now()`)))
          .groupBy(subscriptions.planKind),
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(boostedBooks)
          .where(and(isNull(boostedBooks.endedAt), gt(boostedBooks.endsAt, sql`now()`))),
        db.select({ n: sql<number>`count(*)::int` }).from(payments).where(eq(payments.status, 'submitted')),
        db.execute(sql`
          with months as (
            select to_char(m, 'YYYY-MM') as month
            from generate_series(
              date_trunc('month', now() at time zone ${TZ}) - interval '11 months',
              date_trunc('month', now() at time zone ${TZ}),
              interval '1 month'
            ) m
          )
          select months.month,
                 coalesce(sum(p.amount), 0)::int as paid,
                 coalesce(sum(p.refunded_amount), 0)::int as refunded,
                 count(p.id)::int as count
          from months
          left join ${payments} p
            on p.status = 'paid' and to_char(p.paid_at at time zone ${TZ}, 'YYYY-MM') = months.month
          group by months.month
          order by months.month`),
      ]);
      const count = (kind: string) => active.find((a) => a.kind === kind)?.n ?? 0;
      const rows = (
        revenue as unknown as { rows: Array<{ month: string; paid: number; refunded: number; count: number }> }
      ).rows;
      return {
        active: { member: count('member'), boost: count('boost') },
        boosted_books: boosted?.n ?? 0,
        payments_to_validate: toValidate?.n ?? 0,
        revenue: rows.map((r) => ({
          month: r.month,
          paid: Number(r.paid),
          refunded: Number(r.refunded),
          count: Number(r.count),
        })),
      };
    },
  );
};
