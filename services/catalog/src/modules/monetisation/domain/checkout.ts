import {
  type PaymentInstructions,
  SUBSCRIPTIONS_PER_PAGE,
  type subscriptionCheckoutResponseSchema,
  subscriptionMessages,
} from '@cartable/contracts';
import { conflict, notFound, type Transaction, type UnitOfWork, unprocessable } from '@cartable/service-kit';
import type { z } from 'zod';
import * as queries from '../db/queries.ts';
import { subscriptionChanged } from '../events.ts';
import { type PaymentProviders, providerLabel } from '../providers/provider.ts';
import { memberNames, paymentDto, planDto, subscriptionDetail, subscriptionDtos } from './dto.ts';
import type { SubscriptionJobs } from './jobs.ts';
import { boostableBook, subscriptionOf } from './lifecycle.ts';
import { createPayment, declarePayment, initiatePayment, markPaid, paymentOf } from './payments.ts';
import { renderReceiptPdf } from './receipt-pdf.ts';

const s = subscriptionMessages;
type SubscriptionCheckout = z.infer<typeof subscriptionCheckoutResponseSchema>;

/** How a member pays: the provider, the operator, the number to push the request to. */
export interface PaymentChoice {
  provider: string;
  operator: queries.PaymentRow['operator'];
  payer_phone?: string | undefined;
}

/**
 * A member's side of monetisation (services/catalog/API.md « Subscriptions and payments »): the
 * plans, buying and renewing a boost or a member plan, choosing the listings a plan boosts,
 * moving a boost from a sold listing, declaring a manual payment, the receipt.
 */
export function memberCheckout(options: {
  uow: UnitOfWork;
  providers: PaymentProviders;
  jobs: SubscriptionJobs;
  currency: string;
  pendingHours: number;
  /** The first status read of a payment a provider can be asked about. */
  firstCheckMs: number;
}) {
  const { uow, providers, jobs, currency, pendingHours, firstCheckMs } = options;
  /** A provider that answers status queries gets asked; manual payments wait for an operator. */
  const firstCheck = (provider: string) =>
    providers.get(provider)?.status ? new Date(Date.now() + firstCheckMs) : null;
  const db = uow.db;

  const chooseProvider = (name: string) => {
    const provider = providers.get(name);
    if (!provider) throw unprocessable({ provider: [s.providerInvalid] }, s.providerInvalid);
    return provider;
  };

  /** Nothing to pay (a free plan): paid at once, the subscription active in the same transaction. */
  const settleIfFree = async (t: Transaction, payment: queries.PaymentRow) =>
    payment.amount === 0 ? ((await markPaid(t, payment.id, null, { free: true }))?.payment ?? payment) : payment;

  /** After the commit: the provider asked (or a free plan's end scheduled), and what the member is shown. */
  async function checkout(
    sub: queries.SubscriptionRow,
    payment: queries.PaymentRow,
    message: string,
  ): Promise<SubscriptionCheckout> {
    if (payment.status === 'paid') {
      // A free plan: paid on the spot (settle), nothing to ask any provider.
      const fresh = (await queries.subscriptionById(db, sub.id, null))!;
      await jobs.schedule(fresh);
      const [dto] = await subscriptionDtos(db, [fresh]);
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
    const initiated = await initiatePayment(
      uow,
      providers.get(payment.provider)!,
      payment,
      `Cartable : ${sub.planName}`,
    );
    const [dto] = await subscriptionDtos(db, [sub]);
    return {
      message,
      subscription: dto!,
      payment: paymentDto(initiated.payment),
      instructions: initiated.instructions,
    };
  }

  return {
    async plans() {
      return {
        data: (await queries.listPlans(db, true)).map(planDto),
        providers: providers.list().map((p) => ({ name: p.name, label: providerLabel(p.name) })),
      };
    },

    /** Buys a plan (a boost names its listing); a purchase of the same still waiting is paid again. */
    async subscribe(me: string, body: PaymentChoice & { plan_id: number; book_id?: number | undefined }) {
      chooseProvider(body.provider);
      const { sub, payment } = await uow.run(async (t) => {
        const plan = await queries.planById(t.db, body.plan_id);
        if (!plan) throw notFound(s.planNotFound);
        if (!plan.active) throw conflict(s.planInactive);
        let bookId: number | null = null;
        if (plan.kind === 'boost') {
          if (!body.book_id) throw unprocessable({ book_id: [s.bookRequired] }, s.bookRequired);
          const book = await boostableBook(t.db, body.book_id, me);
          if (await queries.listingBoosted(t.db, [book.id])) throw conflict(s.bookAlreadyBoosted);
          bookId = book.id;
        } else if (body.book_id) {
          throw unprocessable({ book_id: [s.bookNotForMemberPlan] }, s.bookNotForMemberPlan);
        }
        const waiting = await queries.waitingSubscription(t.db, me, plan.id, bookId);
        if (waiting) {
          const payment = await createPayment(
            t,
            waiting,
            body,
            'subscription',
            currency,
            pendingHours,
            firstCheck(body.provider),
          );
          return { sub: waiting, payment: await settleIfFree(t, payment) };
        }
        const sub = await queries.insertSubscription(t.db, {
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
        });
        await queries.audit(t.db, sub.id, 'created', me, { plan_id: plan.id, book_id: bookId });
        const payment = await createPayment(
          t,
          sub,
          body,
          'subscription',
          currency,
          pendingHours,
          firstCheck(body.provider),
        );
        return { sub, payment: await settleIfFree(t, payment) };
      });
      return checkout(sub, payment, s.created);
    },

    async list(me: string, status: queries.SubscriptionFilter['status'], page: number) {
      const { rows, total } = await queries.subscriptionPage(
        db,
        { userId: me, status },
        { limit: SUBSCRIPTIONS_PER_PAGE, offset: (page - 1) * SUBSCRIPTIONS_PER_PAGE },
      );
      return {
        data: await subscriptionDtos(db, rows),
        meta: { current_page: page, last_page: Math.max(1, Math.ceil(total / SUBSCRIPTIONS_PER_PAGE)), total },
      };
    },

    detail: async (id: string, me: string) => subscriptionDetail(db, await subscriptionOf(db, id, me)),

    /** Pays again: a renewal, or a subscription whose first payment failed or expired. */
    async renew(id: string, me: string, choice: PaymentChoice) {
      chooseProvider(choice.provider);
      const { sub, payment } = await uow.run(async (t) => {
        const sub = await subscriptionOf(t.db, id, me, true);
        if (sub.status === 'cancelled' || sub.status === 'refunded') throw conflict(s.notRenewable);
        const purpose = sub.status === 'pending_payment' ? 'subscription' : 'renewal';
        const payment = await createPayment(
          t,
          sub,
          choice,
          purpose,
          currency,
          pendingHours,
          firstCheck(choice.provider),
        );
        return { sub, payment: await settleIfFree(t, payment) };
      });
      return checkout(sub, payment, s.initiated);
    },

    /** The listings an active plan boosts, within its slots; the others it boosted end as replaced. */
    async setBooks(id: string, me: string, bookIds: number[]) {
      const wanted = [...new Set(bookIds)];
      const sub = await uow.run(async (t) => {
        const sub = await subscriptionOf(t.db, id, me, true);
        if (sub.status !== 'active' || !sub.endsAt || sub.endsAt <= new Date()) throw conflict(s.notActive);
        if (wanted.length > sub.planBoostSlots) {
          const message = s.tooManyBooks.replace('{slots}', String(sub.planBoostSlots));
          throw unprocessable({ book_ids: [message] }, message);
        }
        const found = [];
        for (const bookId of wanted) found.push(await boostableBook(t.db, bookId, me));
        if (await queries.listingBoosted(t.db, wanted, sub.id)) throw conflict(s.bookAlreadyBoosted);
        const replaced = await queries.endBoosts(t.db, { subscriptionId: sub.id, keepBookIds: wanted }, 'replaced');
        const kept = new Set((await queries.liveBoostsOf(t.db, [sub.id])).map((b) => b.bookId));
        let started = 0;
        for (const book of found) {
          if (kept.has(book.id)) continue;
          // Taken by another subscription in the meantime (the unique index decided).
          if (!(await queries.startBoost(t.db, sub, book))) throw conflict(s.bookAlreadyBoosted);
          started++;
        }
        if (replaced.length || started)
          await subscriptionChanged(t, 'catalog.subscription.books_changed', sub, {
            actorId: me,
            detail: { replaced: replaced.map((b) => b.bookId) },
          });
        return sub;
      });
      return subscriptionDetail(db, sub);
    },

    /** A boost of a listing sold in a deal moves to another of the member's listings, once. */
    async transfer(boostId: string, me: string, bookId: number) {
      const sub = await uow.run(async (t) => {
        const boost = await queries.boostOf(t.db, boostId, me);
        if (!boost) throw notFound(s.notFound);
        const sub = await subscriptionOf(t.db, boost.subscriptionId, me, true);
        if (!boost.transferable || sub.status !== 'active') throw conflict(s.notTransferable);
        // A plan's slots count every live boost, moved ones included: choosing new listings after
        // a sale already filled the slot the sold listing freed.
        if ((await queries.liveBoostsOf(t.db, [sub.id])).length >= Math.max(1, sub.planBoostSlots))
          throw conflict(s.slotsFull);
        const invalid = () => unprocessable({ book_id: [s.transferBookInvalid] }, s.transferBookInvalid);
        if (bookId === boost.bookId) throw invalid();
        const book = await boostableBook(t.db, bookId, me).catch(() => {
          throw invalid();
        });
        const started = await queries.startBoost(t.db, sub, book);
        if (!started) throw conflict(s.bookAlreadyBoosted);
        await queries.recordTransfer(t.db, boost, started, me);
        await subscriptionChanged(t, 'catalog.subscription.books_changed', sub, {
          actorId: me,
          detail: { transferred_from: boost.bookId, transferred_to: book.id },
        });
        return sub;
      });
      return subscriptionDetail(db, sub);
    },

    /** A member's own payment as it stands, with the instructions they were given (404 for anyone else's). */
    async follow(paymentId: string, me: string) {
      const payment = await paymentOf(db, paymentId, me, false);
      const [sub, events] = await Promise.all([
        queries.subscriptionById(db, payment.subscriptionId, null),
        queries.paymentEventsOf(db, payment.id),
      ]);
      const initiated = events.find((e) => e.type === 'initiated');
      const given = (initiated?.detail as { instructions?: PaymentInstructions } | undefined)?.instructions ?? null;
      return { payment: paymentDto(payment), plan_name: sub?.planName ?? '', instructions: given };
    },

    declare: async (paymentId: string, me: string, body: Parameters<typeof declarePayment>[3]) =>
      paymentDto(await declarePayment(uow, paymentId, me, body, (name) => providers.get(name)?.manual ?? false)),

    /** The receipt of a paid payment, a PDF; `memberId` limits it to the member's own (null: an operator). */
    async receipt(paymentId: string, memberId: string | null) {
      const payment = await paymentOf(db, paymentId, memberId, false);
      if (payment.status !== 'paid') throw conflict(s.notPaid);
      const sub = await queries.subscriptionById(db, payment.subscriptionId, null);
      const [[dto], names] = await Promise.all([subscriptionDtos(db, [sub!]), memberNames(db, [payment.userId])]);
      const pdf = await renderReceiptPdf({
        payment: paymentDto(payment),
        subscription: dto!,
        member_name: names.get(payment.userId) ?? null,
        issued_at: new Date(),
      });
      return { pdf, reference: payment.reference };
    },
  };
}
export type MemberCheckout = ReturnType<typeof memberCheckout>;
