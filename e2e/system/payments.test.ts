import { randomUUID } from 'node:crypto';
import { signWebhook } from '@cartable/service-kit';
import { listBook, verifiedMember } from '@cartable/stack/members';
import { call, eventually, startTestStack, type TestStack } from '@cartable/stack/test-stack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Payments through a real (simulated) aggregator, as processes: catalog asks the simulator,
 * the payer « approves », and the simulator tells catalog through the gateway by a signed
 * webhook, delivered twice each time here (aggregators retry), once more later, and while
 * catalog is down. The subscription is activated once, the member e-mailed once.
 */
let stack: TestStack;
const AGGREGATOR_KEY = 'dev-aggregator-key';
const WEBHOOK_SECRET = 'dev-webhook-secret-change-me';

beforeAll(async () => {
  stack = await startTestStack({
    only: ['auth', 'catalog', 'notifications', 'payment-simulator', 'gateway'],
    env: {
      // The payer approves 1.5 s after the push; each notification is delivered twice.
      SIMULATOR_CONFIRM_DELAY_MS: '1500',
      SIMULATOR_DELIVERIES: '2',
      PAYMENT_AGGREGATOR_KEY: AGGREGATOR_KEY,
      PAYMENT_WEBHOOK_SECRET: WEBHOOK_SECRET,
    },
  });
});
afterAll(() => stack?.teardown());

async function boostPlan() {
  const plans = await call(`${stack.api}/subscription-plans`);
  expect(plans.status).toBe(200);
  expect(plans.body.providers.map((p: { name: string }) => p.name)).toContain('simulated');
  return plans.body.data.find((p: { kind: string }) => p.kind === 'boost') as { id: number; duration_days: number };
}

async function buy(token: string, planId: number, bookId: number, phone: string) {
  const res = await fetch(`${stack.api}/subscriptions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify({
      plan_id: planId,
      book_id: bookId,
      provider: 'simulated',
      operator: 'airtel_money',
      payer_phone: phone,
    }),
  });
  const body = (await res.json()) as { payment: unknown };
  expect(res.status, JSON.stringify(body)).toBe(201);
  expect(body.payment).toMatchObject({ provider: 'simulated', status: 'pending' });
  return body as { subscription: { id: string }; payment: { id: string; provider_reference: string } };
}

const subscription = async (token: string, id: string) =>
  (await call(`${stack.api}/subscriptions/${id}`, { token })).body.subscription;

const mailsTo = async (address: string, subject: string) =>
  (await stack.mail.list()).filter((m) => m.to[0]?.address === address && m.subject.includes(subject));

describe('payments through the aggregator', () => {
  it('activates once when the webhook comes twice, and again later', async () => {
    const member = await verifiedMember(stack, 'abonne1');
    const bookId = await listBook(stack, member.token, 'Mathématiques 6e – Collection Excellence');
    const plan = await boostPlan();
    const { subscription: created, payment } = await buy(member.token, plan.id, bookId, '077123456');

    const active = await eventually(async () => {
      const s = await subscription(member.token, created.id);
      return s.status === 'active' ? s : undefined;
    }, 20_000);
    const days = (Date.parse(active.ends_at) - Date.parse(active.starts_at)) / 86_400_000;
    expect(days).toBeCloseTo(plan.duration_days, 3);
    expect(active.books.map((b: { book_id: number }) => b.book_id)).toEqual([bookId]);

    // The simulator has had both deliveries answered.
    const simulator = stack.url('payment-simulator');
    const seen = await eventually(async () => {
      const state = await call(`${simulator}/v1/payments/${payment.provider_reference}`, { token: AGGREGATOR_KEY });
      return state.body.deliveries?.length >= 2 ? state.body : undefined;
    });
    expect(seen.deliveries.map((d: { status: number }) => d.status)).toEqual([200, 200]);

    // Later, the aggregator delivers the same notification once more: 200, nothing changes.
    const again = await call(`${simulator}/v1/payments/${payment.provider_reference}/redeliver`, {
      method: 'POST',
      token: AGGREGATOR_KEY,
    });
    expect(again.body.deliveries.at(-1).status).toBe(200);
    const after = await subscription(member.token, created.id);
    expect(after.ends_at).toBe(active.ends_at);
    expect(after.payments).toHaveLength(1);
    expect(after.payments[0].status).toBe('paid');

    // One activation mail, whatever the deliveries.
    await stack.mail.waitFor(member.email, { subject: 'Votre abonnement « Mise en avant' });
    await new Promise((r) => setTimeout(r, 1500));
    expect(await mailsTo(member.email, 'est actif')).toHaveLength(1);

    // And the listing is « À la une ».
    const featured = await call(`${stack.api}/books/featured`);
    const first = featured.body.featured_books[0];
    expect(first).toMatchObject({ id: bookId, sponsored: true });
  });

  it('refuses a notification replayed with an old timestamp or signed with another key', async () => {
    const body = JSON.stringify({
      event_id: `evt_${randomUUID()}`,
      reference: 'CRT-UNKNOWN00',
      provider_reference: 'SIM-FORGED',
      status: 'paid',
      amount: 1000,
      currency: 'XOF',
    });
    const post = (signature: string) =>
      fetch(`${stack.api}/payments/webhooks/simulated`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-cartable-signature': signature },
        body,
      });
    const stale = await post(signWebhook(WEBHOOK_SECRET, body, Math.floor(Date.now() / 1000) - 3600));
    expect(stale.status).toBe(401);
    expect(((await stale.json()) as { message: string }).message).toBe('Notification expirée.');
    const forged = await post(signWebhook('not-the-webhook-secret', body));
    expect(forged.status).toBe(401);
    // Well signed but for no payment of ours.
    expect((await post(signWebhook(WEBHOOK_SECRET, body))).status).toBe(404);
  });

  it('a failed payment leaves the subscription waiting and tells the member', async () => {
    const member = await verifiedMember(stack, 'abonne2');
    const bookId = await listBook(stack, member.token, 'SVT 3e – Manuel de l’élève');
    const plan = await boostPlan();
    const { subscription: created } = await buy(member.token, plan.id, bookId, '066000000');
    const failed = await eventually(async () => {
      const s = await subscription(member.token, created.id);
      return s.payments[0]?.status === 'failed' ? s : undefined;
    }, 20_000);
    expect(failed.status).toBe('pending_payment');
    expect(failed.payments[0].failure_reason).toBe('Solde insuffisant');
    const mail = await stack.mail.waitFor(member.email, { subject: 'Votre paiement pour' });
    expect(mail.text).toContain('Aucun montant n’a été encaissé');
  });

  it('catalog down when the aggregator confirms: the retried delivery activates it once back', async () => {
    const member = await verifiedMember(stack, 'abonne3');
    const bookId = await listBook(stack, member.token, 'Histoire-Géographie Tle');
    const plan = await boostPlan();
    const { subscription: created, payment } = await buy(member.token, plan.id, bookId, '074555666');
    await stack.stop('catalog');
    // The approval comes while catalog is away: the gateway answers 503, the aggregator retries.
    const simulator = stack.url('payment-simulator');
    await eventually(async () => {
      const state = await call(`${simulator}/v1/payments/${payment.provider_reference}`, { token: AGGREGATOR_KEY });
      return state.body.deliveries?.some((d: { status: number }) => d.status === 503) ? true : undefined;
    }, 15_000);
    await stack.start('catalog');
    const active = await eventually(async () => {
      const s = await subscription(member.token, created.id);
      return s?.status === 'active' ? s : undefined;
    }, 40_000);
    expect(active.payments[0].status).toBe('paid');
    await stack.mail.waitFor(member.email, { subject: 'Votre abonnement « Mise en avant', timeoutMs: 15_000 });
  }, 90_000);
});
