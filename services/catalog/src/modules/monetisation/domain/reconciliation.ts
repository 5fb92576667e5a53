import { subscriptionMessages } from '@cartable/contracts';
import { conflict, notFound, type UnitOfWork } from '@cartable/service-kit';
import type { Logger } from 'pino';
import * as queries from '../db/queries.ts';
import {
  OutcomeUnknown,
  type PaymentProvider,
  type PaymentProviders,
  type ProviderCallback,
} from '../providers/provider.ts';
import type { SubscriptionJobs } from './jobs.ts';
import { applyReport, paymentEvent, type ReportOutcome } from './payments.ts';

const s = subscriptionMessages;
type PaymentRow = queries.PaymentRow;

/**
 * The provider's status query is the truth, a callback only a doorbell (every aggregator's own
 * guide says so, and some send their callback once, unsigned, or not at all). A payment that is
 * not settled is asked about: first `firstCheckMs` after it starts, then twice as late each time
 * up to `maxIntervalMs`, until the provider's expiry plus `marginMs` (never past 72 h). One still
 * unknown then stays « à vérifier » for an operator.
 */
export interface ReconcileSettings {
  firstCheckMs: number;
  maxIntervalMs: number;
  marginMs: number;
  /** Payments asked about per sweep and replica: the providers limit status reads. */
  batch: number;
}

const HORIZON_MAX_MS = 72 * 3600_000;

/** When the sweep asks next, after `checks` reads (the provider's own minimum respected). */
export function nextCheckDelay(checks: number, settings: ReconcileSettings, provider?: PaymentProvider) {
  const backoff = Math.min(settings.firstCheckMs * 2 ** Math.min(checks, 30), settings.maxIntervalMs);
  return Math.max(backoff, provider?.statusReadIntervalMs ?? 0);
}

/** The last moment worth asking: the provider's expiry plus the margin, 72 h after creation at most. */
export function reconcileHorizon(payment: Pick<PaymentRow, 'createdAt' | 'expiresAt'>, settings: ReconcileSettings) {
  const created = payment.createdAt.getTime();
  const expiry = (payment.expiresAt?.getTime() ?? created) + settings.marginMs;
  return new Date(Math.min(expiry, created + HORIZON_MAX_MS));
}

export function paymentReconciliation(options: {
  uow: UnitOfWork;
  providers: PaymentProviders;
  jobs: SubscriptionJobs;
  settings: ReconcileSettings;
  log?: Pick<Logger, 'warn' | 'info'> | undefined;
}) {
  const { uow, providers, jobs, settings, log } = options;
  const askable = () => providers.list().filter((p) => p.status);

  /** After the commit: the end of a paid subscription scheduled; money that came too late sent back. */
  async function follow(outcome: ReportOutcome, provider: PaymentProvider) {
    if (outcome.changed && outcome.subscription) await jobs.schedule(outcome.subscription);
    if (outcome.refunded && !provider.refund) {
      // eBilling has no refund call: the refund row says what is owed, an operator sends it.
      await uow.run((t) =>
        paymentEvent(t.db, outcome.payment, 'refund_not_sent', 'paid', { reason: 'remboursement à faire à la main' }),
      );
    } else if (outcome.refunded && provider.refund) {
      const payment = outcome.payment;
      try {
        const done = await provider.refund(payment, payment.refundedAmount);
        await uow.run((t) =>
          paymentEvent(t.db, payment, 'refund_sent', 'paid', { provider_reference: done.providerReference }),
        );
      } catch (err) {
        // Recorded as owed (the refund row); an operator sees it and can send it by hand.
        log?.warn({ err, payment: payment.id }, 'automatic refund not sent to the provider');
        await uow.run((t) =>
          paymentEvent(t.db, payment, 'refund_not_sent', 'paid', { reason: (err as Error).message }),
        );
      }
    }
  }

  /** Asks the provider about one payment and applies the answer; null when it cannot say now. */
  async function ask(payment: PaymentRow, provider: PaymentProvider) {
    let report: Awaited<ReturnType<NonNullable<PaymentProvider['status']>>>;
    try {
      report = await provider.status!(payment);
    } catch (err) {
      if (err instanceof OutcomeUnknown) return null;
      throw err;
    }
    const outcome = await uow.run(async (t) => {
      const locked = await queries.paymentById(t.db, payment.id, null, true);
      return applyReport(t, locked!, report, 'status');
    });
    await follow(outcome, provider);
    return outcome;
  }

  return {
    /**
     * One round of the sweep: claims the payments due (skipping those another replica holds),
     * asks their providers, applies the answers. Safe after a restart: the next check is in the row.
     */
    async sweep(now = new Date()) {
      const withStatus = askable();
      if (!withStatus.length) return { asked: 0, settled: 0, unreachable: 0, givenUp: 0 };
      const byName = new Map(withStatus.map((p) => [p.name, p]));
      const claimed = await uow.run(async (t) => {
        const rows = await queries.claimDueChecks(t.db, [...byName.keys()], now, settings.batch, (row) =>
          now > reconcileHorizon(row, settings)
            ? // Unknown to the end: an operator decides. Failed on our side stays failed.
              { nextCheckAt: null, ...(row.status === 'failed' ? {} : { status: 'ambiguous' as const }) }
            : {
                nextCheckAt: new Date(now.getTime() + nextCheckDelay(row.checks, settings, byName.get(row.provider))),
              },
        );
        for (const { row, ask } of rows)
          if (!ask && row.status === 'ambiguous')
            await paymentEvent(t.db, row, 'unreconciled', 'ambiguous', { checks: row.checks });
        return rows;
      });
      let settled = 0;
      let unreachable = 0;
      for (const { row, ask: due } of claimed) {
        if (!due) continue;
        try {
          const outcome = await ask(row, byName.get(row.provider)!);
          if (!outcome) unreachable++;
          else if (outcome.changed) settled++;
        } catch (err) {
          log?.warn({ err, payment: row.id }, 'payment status read failed');
        }
      }
      return {
        asked: claimed.filter((c) => c.ask).length,
        settled,
        unreachable,
        givenUp: claimed.filter((c) => !c.ask).length,
      };
    },

    /** An operator's « Vérifier auprès de l’agrégateur »: asked now, whatever the back-off says. */
    async now(paymentId: string) {
      const payment = await queries.paymentById(uow.db, paymentId, null, false);
      if (!payment) throw notFound(s.paymentNotFound);
      const provider = providers.get(payment.provider);
      if (!provider?.status) throw conflict(s.noStatusQuery);
      const outcome = await ask(payment, provider);
      return outcome?.payment ?? payment;
    },

    /**
     * A callback as the provider sent it. A signed report is applied as it stands; an unsigned
     * one makes us ask the provider (and if it cannot answer now, the sweep asks soon). Unknown
     * payment: null (404).
     */
    async callback(provider: PaymentProvider, callback: ProviderCallback): Promise<ReportOutcome | null> {
      if (callback.trusted) {
        const outcome = await uow.run(async (t) => {
          const payment = await queries.paymentByReference(t.db, provider.name, callback.report.reference);
          return payment ? applyReport(t, payment, callback.report, 'callback', callback.eventId) : null;
        });
        if (outcome) await follow(outcome, provider);
        return outcome;
      }
      const payment = await uow.run(async (t) => {
        const found =
          (callback.reference && (await queries.paymentByReference(t.db, provider.name, callback.reference))) ||
          (callback.providerReference &&
            (await queries.paymentByProviderReference(t.db, provider.name, callback.providerReference))) ||
          null;
        if (found) await paymentEvent(t.db, found, 'callback', null, { ...callback.raw, trusted: false });
        return found;
      });
      if (!payment) return null;
      const outcome = provider.status ? await ask(payment, provider).catch(() => null) : null;
      if (outcome) return outcome;
      await queries.checkSoon(uow.db, payment.id, new Date());
      return {
        status: 200,
        message: 'Notification reçue : paiement en cours de vérification.',
        changed: false,
        payment,
      };
    },
  };
}
export type PaymentReconciliation = ReturnType<typeof paymentReconciliation>;
