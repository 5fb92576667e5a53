import {
  operatorLabels,
  paymentProviderLabels,
  type planRequestSchema,
  SUBSCRIPTIONS_PER_PAGE,
  subscriptionMessages,
} from '@cartable/contracts';
import { conflict, notFound, type UnitOfWork, writeCsv } from '@cartable/service-kit';
import type { z } from 'zod';
import * as queries from '../db/queries.ts';
import { type PaymentProviders, providerLabel } from '../providers/provider.ts';
import { adminPayments, boostDtos, paymentDetail, planDto, subscriptionDetail, subscriptionDtos } from './dto.ts';
import type { SubscriptionJobs } from './jobs.ts';
import { endSubscription, extendSubscription, subscriptionOf } from './lifecycle.ts';
import { paymentOf, refundPayment, rejectPayment, validatePayment } from './payments.ts';

const s = subscriptionMessages;
const PER_PAGE = SUBSCRIPTIONS_PER_PAGE;
const meta = (page: number, total: number) => ({
  current_page: page,
  last_page: Math.max(1, Math.ceil(total / PER_PAGE)),
  total,
});
const pageOf = (page: number) => ({ limit: PER_PAGE, offset: (page - 1) * PER_PAGE });

const planValues = (body: z.infer<typeof planRequestSchema>): queries.PlanValues => ({
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

/**
 * The back office of monetisation: plans (administrators), subscriptions and boosted listings
 * (user_subscriptions.manage), payments and refunds (payments.manage), figures (reports.view).
 */
export function monetisationBackOffice(options: {
  uow: UnitOfWork;
  providers: PaymentProviders;
  jobs: SubscriptionJobs;
}) {
  const { uow, providers, jobs } = options;
  const db = uow.db;
  return {
    async plans() {
      return {
        data: (await queries.listPlans(db, false)).map(planDto),
        providers: providers.list().map((p) => ({ name: p.name, label: providerLabel(p.name) })),
      };
    },
    createPlan: async (body: z.infer<typeof planRequestSchema>) =>
      planDto(await queries.insertPlan(db, planValues(body))),
    async updatePlan(id: number, body: z.infer<typeof planRequestSchema>) {
      const row = await queries.updatePlan(db, id, planValues(body));
      if (!row) throw notFound(s.planNotFound);
      return planDto(row);
    },
    /** Refused once a subscription was bought with it (its terms are kept on the subscription, but its history is). */
    async deletePlan(id: number) {
      const plan = await queries.planById(db, id);
      if (!plan) throw notFound(s.planNotFound);
      if (await queries.planInUse(db, plan.id)) throw conflict(s.planInUse);
      await queries.deletePlan(db, plan.id);
    },

    async subscriptions(filter: queries.SubscriptionFilter, page: number) {
      const { rows, total } = await queries.subscriptionPage(db, filter, pageOf(page));
      return { data: await subscriptionDtos(db, rows), meta: meta(page, total) };
    },
    subscription: async (id: string) => subscriptionDetail(db, await subscriptionOf(db, id, null)),
    async cancel(id: string, reason: string, actorId: string) {
      const row = await uow.run(async (t) =>
        endSubscription(t, await subscriptionOf(t.db, id, null, true), 'cancelled', reason, actorId),
      );
      return subscriptionDetail(db, row);
    },
    async extend(id: string, days: number, reason: string, actorId: string) {
      const row = await uow.run(async (t) =>
        extendSubscription(t, await subscriptionOf(t.db, id, null, true), days, reason, actorId),
      );
      await jobs.schedule(row);
      return subscriptionDetail(db, row);
    },
    async boosts(current: boolean, page: number) {
      const { rows, total } = await queries.boostPage(db, current, pageOf(page));
      return { data: await boostDtos(db, rows), meta: meta(page, total) };
    },

    async payments(filter: queries.PaymentFilter, page: number) {
      const { rows, total, totals } = await queries.paymentPage(db, filter, pageOf(page));
      return { data: await adminPayments(db, rows), meta: meta(page, total), totals };
    },
    payment: async (id: string) => paymentDetail(db, await paymentOf(db, id, null, false)),
    /**
     * The paid money per day, provider and operator as CSV (through writeCsv: labels only, but a
     * spreadsheet must never read a cell as a formula); Libreville's today when no day is given.
     */
    async dailyTotalsCsv(fromDay?: string, toDay?: string) {
      const today = new Date(Date.now() + 3600_000).toISOString().slice(0, 10); // UTC+1, no DST
      const from = fromDay ?? toDay ?? today;
      const to = toDay ?? from;
      const rows = await queries.dailyTotals(db, from, to);
      const csv = writeCsv(
        ['Jour', 'Moyen de paiement', 'Opérateur', 'Paiements', 'Montant payé (FCFA)', 'Remboursé (FCFA)'],
        rows.map((r) => [
          r.day,
          paymentProviderLabels[r.provider] ?? r.provider,
          operatorLabels[r.operator],
          r.count,
          r.paid,
          r.refunded,
        ]),
      );
      return { from, to, csv };
    },
    async validate(id: string, actorId: string) {
      const done = await validatePayment(uow, id, actorId);
      if (done.subscription) await jobs.schedule(done.subscription);
      return paymentDetail(db, done.payment);
    },
    reject: async (id: string, reason: string, actorId: string) =>
      paymentDetail(db, await rejectPayment(uow, id, reason, actorId)),
    async refund(id: string, amount: number | undefined, reason: string, actorId: string) {
      const { payment } = await refundPayment(uow, id, amount, reason, actorId);
      return paymentDetail(db, payment);
    },

    async figures() {
      const { active, boosted, toValidate, revenue } = await queries.subscriptionFigures(db);
      const count = (kind: string) => active.find((a) => a.kind === kind)?.n ?? 0;
      return {
        active: { member: count('member'), boost: count('boost') },
        boosted_books: boosted,
        payments_to_validate: toValidate,
        revenue: revenue.map((r) => ({
          month: r.month,
          paid: Number(r.paid),
          refunded: Number(r.refunded),
          count: Number(r.count),
        })),
      };
    },
  };
}
export type MonetisationBackOffice = ReturnType<typeof monetisationBackOffice>;
