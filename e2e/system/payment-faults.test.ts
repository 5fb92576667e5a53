import { randomUUID } from 'node:crypto';
import { listBook, verifiedMember } from '@cartable/stack/members';
import { call, eventually, startTestStack, type TestStack } from '@cartable/stack/test-stack';
import { afterAll, beforeAll, expect, it } from 'vitest';

/**
 * Money is never lost, as processes: thirteen boosts paid through each of the two Gabonese
 * aggregators' protocols (eBilling: one unsigned callback, never retried; MyPVit: unsigned
 * callbacks retried until acknowledged), played by the payment simulator, while things go wrong:
 * callbacks repeated and crossed, one arriving late, a payment request answered after catalog's
 * timeout, an operator's answer that reads « ambiguous », catalog stopped longer than every retry,
 * catalog killed while the callbacks arrive. Each of the 26 must end paid once and its boost
 * active once, with one payment request per boost; the time from the provider's « paid » to the
 * active boost is printed, with and without a callback that reached catalog.
 */
let stack: TestStack;
const CONFIRM_MS = 2500;

beforeAll(async () => {
  stack = await startTestStack({
    only: ['auth', 'catalog', 'notifications', 'payment-simulator', 'gateway'],
    env: {
      SIMULATOR_CONFIRM_DELAY_MS: String(CONFIRM_MS),
      // A create answered after catalog's own timeout.
      SIMULATOR_SLOW_MS: '3000',
      PAYMENT_REQUEST_TIMEOUT_MS: '1500',
      // MyPVit's retries end within two seconds: an outage of ten outlasts them.
      SIMULATOR_MAX_ATTEMPTS: '3',
      SIMULATOR_RETRY_BASE_MS: '400',
      PAYMENT_RECONCILE_INTERVAL_MS: '500',
      PAYMENT_RECONCILE_FIRST_MS: '4000',
      PAYMENT_RECONCILE_MAX_INTERVAL_MS: '2000',
    },
  });
}, 180_000);
afterAll(() => stack?.teardown());

type Protocol = 'ebilling' | 'mypvit';
interface Bought {
  protocol: Protocol;
  scenario: string;
  token: string;
  subscriptionId: string;
  paymentId: string;
  reference: string;
  /** The callback reached catalog (no outage, no kill): the « with callback » figures. */
  callback: boolean;
}

let phoneSeq = 100;
const number = (ending = '') => `07${String(++phoneSeq).padStart(3, '0')}${ending || '4567'}`;

async function boostPlanId() {
  const plans = await call(`${stack.api}/subscription-plans`);
  const names = plans.body.providers.map((p: { name: string }) => p.name);
  expect(names).toEqual(expect.arrayContaining(['ebilling', 'mypvit']));
  return plans.body.data.find((p: { kind: string }) => p.kind === 'boost').id as number;
}

const members: Array<{ token: string; used: number }> = [];
/** A member with room under the hourly limit of payment requests. */
async function payer() {
  const free = members.find((m) => m.used < 4);
  if (free) {
    free.used++;
    return free;
  }
  const m = await verifiedMember(stack, `payeur${members.length}`);
  const entry = { token: m.token, used: 1 };
  members.push(entry);
  return entry;
}

/** A payer with room under the limits, and a listing of theirs to boost. */
async function readyToBuy(protocol: Protocol, scenario: string) {
  const who = await payer();
  const bookId = await listBook(stack, who.token, `Manuel ${scenario} ${protocol} ${randomUUID().slice(0, 6)}`);
  return { who, bookId };
}

async function buy(
  planId: number,
  protocol: Protocol,
  scenario: string,
  ending = '',
  callback = true,
  ready?: Awaited<ReturnType<typeof readyToBuy>>,
) {
  const { who, bookId } = ready ?? (await readyToBuy(protocol, scenario));
  const res = await fetch(`${stack.api}/subscriptions`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${who.token}`,
      'content-type': 'application/json',
      'idempotency-key': randomUUID(),
    },
    body: JSON.stringify({
      plan_id: planId,
      book_id: bookId,
      provider: protocol,
      operator: 'airtel_money',
      payer_phone: number(ending),
    }),
  });
  const body = (await res.json()) as {
    subscription: { id: string };
    payment: { id: string; reference: string; status: string };
  };
  expect(res.status, JSON.stringify(body)).toBe(201);
  return {
    protocol,
    scenario,
    token: who.token,
    subscriptionId: body.subscription.id,
    paymentId: body.payment.id,
    reference: body.payment.reference,
    callback,
  } satisfies Bought;
}

const detail = async (b: Bought) =>
  (await call(`${stack.api}/subscriptions/${b.subscriptionId}`, { token: b.token })).body.subscription;

/** The simulator's record of a payment, found by our reference (what the provider holds). */
async function providerRecords(b: Bought) {
  const sim = stack.url('payment-simulator');
  if (b.protocol === 'ebilling') {
    const found = await fetch(`${sim}/ebilling/api/v1/merchant/e_bills?external_reference=${b.reference}`, {
      headers: { authorization: `Basic ${Buffer.from('dev-ebilling:dev-ebilling-key').toString('base64')}` },
    }).then((r) => r.json() as Promise<{ e_bills: Array<{ bill_id: string }> }>);
    return found.e_bills.map((bill) => bill.bill_id);
  }
  const payment = await detail(b);
  return [payment.payments[0].provider_reference as string];
}

/** The simulator's own record of a payment: when it was paid, the callbacks it sent. */
async function providerRecord(
  b: Bought,
  providerId: string,
): Promise<{ paid_at?: string | null; callbacks?: Array<{ status: number | null; error: string | null }> }> {
  const sim = stack.url('payment-simulator');
  const path = b.protocol === 'ebilling' ? 'ebilling/control/e_bills' : 'mypvit/control/transactions';
  return (await call(`${sim}/${path}/${providerId}`)).body;
}

async function paidAt(b: Bought, providerId: string): Promise<number> {
  return Date.parse((await providerRecord(b, providerId)).paid_at ?? '');
}

/** Waits until each payment's record satisfies `done` (the provider's ids read while catalog is up). */
async function untilEveryRecord(
  payments: Array<{ b: Bought; id: string }>,
  done: (record: Awaited<ReturnType<typeof providerRecord>>) => boolean,
) {
  await eventually(async () => {
    for (const { b, id } of payments) if (!done(await providerRecord(b, id))) return undefined;
    return true;
  }, 60_000);
}
const withIds = (bought: Bought[]) => Promise.all(bought.map(async (b) => ({ b, id: (await providerRecords(b))[0]! })));
const failedCallback = (record: Awaited<ReturnType<typeof providerRecord>>) =>
  (record.callbacks ?? []).some((c) => c.error !== null || c.status === null || c.status >= 300);

async function resend(b: Bought, delayMs = 0) {
  const sim = stack.url('payment-simulator');
  const [id] = await providerRecords(b);
  const path = b.protocol === 'ebilling' ? `ebilling/control/e_bills/${id}` : `mypvit/control/transactions/${id}`;
  await call(`${sim}/${path}/notify${delayMs ? `?delay_ms=${delayMs}` : ''}`, { method: 'POST' });
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};

it('activates 13 of 13 boosts once per protocol, whatever the callbacks and catalog do', async () => {
  const planId = await boostPlanId();
  const all: Bought[] = [];
  const protocols: Protocol[] = ['ebilling', 'mypvit'];

  // Calm: three paid, their callbacks then sent twice more; one whose late copy comes after the status read.
  for (const protocol of protocols) {
    for (let i = 0; i < 3; i++) all.push(await buy(planId, protocol, 'répétée'));
    all.push(await buy(planId, protocol, 'tardive'));
    all.push(await buy(planId, protocol, 'croisée'));
    all.push(await buy(planId, protocol, 'croisée'));
    // The create answered after catalog gave up: « à vérifier », never failed.
    const slow = await buy(planId, protocol, 'création lente', '1111', false);
    expect((await detail(slow)).payments[0].status).toBe('ambiguous');
    all.push(slow);
    // The operator's answer lost: ambiguous once, then paid when asked again.
    all.push(await buy(planId, protocol, 'ambiguë', '2222', false));
  }
  const calm = all.filter((b) => b.scenario !== 'création lente' && b.scenario !== 'ambiguë');
  await eventually(async () => {
    for (const b of calm) if ((await detail(b)).status !== 'active') return undefined;
    return true;
  }, 30_000);
  for (const b of all.filter((x) => x.scenario === 'répétée')) {
    await resend(b);
    await resend(b);
  }
  for (const b of all.filter((x) => x.scenario === 'tardive')) await resend(b, 2000);
  // Crossed: the second payment's callback first, then the first's.
  for (const protocol of protocols) {
    const [first, second] = all.filter((x) => x.scenario === 'croisée' && x.protocol === protocol);
    await resend(second!);
    await resend(first!);
  }

  // Catalog stopped for ten seconds while three payments are confirmed: every delivery fails.
  // Their payers and listings first, then the six payments at once: each is confirmed
  // CONFIRM_MS after its push, and must find catalog already down, however slow the machine.
  const prepared: Array<{ protocol: Protocol; ready: Awaited<ReturnType<typeof readyToBuy>> }> = [];
  for (const protocol of protocols)
    for (let i = 0; i < 3; i++) prepared.push({ protocol, ready: await readyToBuy(protocol, 'panne') });
  const outage = await Promise.all(prepared.map((p) => buy(planId, p.protocol, 'panne', '', false, p.ready)));
  const outageIds = await withIds(outage);
  await stack.stop('catalog');
  // Down until every confirmation has found it down: a callback refused or unanswered for each.
  await untilEveryRecord(outageIds, failedCallback);
  await stack.start('catalog');
  all.push(...outage);

  // Catalog killed (SIGKILL) as the callbacks arrive, then started again.
  const killed: Bought[] = [];
  for (const protocol of protocols)
    for (let i = 0; i < 2; i++) killed.push(await buy(planId, protocol, 'tué', '', false));
  const killedIds = await withIds(killed);
  // Killed the moment the first of them is paid, while its callback is on its way.
  await eventually(async () => {
    for (const { b, id } of killedIds) if ((await providerRecord(b, id)).paid_at) return true;
    return undefined;
  }, 60_000);
  await stack.stop('catalog', 'SIGKILL');
  // Started again once each has been paid and its first callback has met the dead process.
  await untilEveryRecord(killedIds, (record) => Boolean(record.paid_at) && (record.callbacks ?? []).length > 0);
  await stack.start('catalog');
  all.push(...killed);

  expect(all).toHaveLength(26);
  let waiting: string[] = [];
  await eventually(async () => {
    waiting = [];
    for (const b of all) {
      const sub = await detail(b);
      if (sub.status !== 'active')
        waiting.push(`${b.protocol} ${b.scenario} : ${sub.status}, paiement ${sub.payments[0]?.status}`);
    }
    return waiting.length ? undefined : true;
  }, 90_000).catch((err) => {
    throw new Error(`${(err as Error).message} ; pas encore actifs : ${waiting.join(' ; ')}`);
  });

  const withCallback: number[] = [];
  const without: number[] = [];
  for (const protocol of protocols) {
    const mine = all.filter((b) => b.protocol === protocol);
    let activatedOnce = 0;
    for (const b of mine) {
      const sub = await detail(b);
      const paid = sub.payments.filter((p: { status: string }) => p.status === 'paid');
      // One payment request to the provider, one paid payment, one boost: nobody charged twice.
      const records = await providerRecords(b);
      expect(records, `${protocol} ${b.scenario}`).toHaveLength(1);
      expect(paid, `${protocol} ${b.scenario}`).toHaveLength(1);
      expect(sub.books.filter((x: { ended_at: string | null }) => !x.ended_at)).toHaveLength(1);
      activatedOnce++;
      const delay = Date.parse(sub.starts_at) - (await paidAt(b, records[0]!));
      (b.callback ? withCallback : without).push(delay);
    }
    console.log(`${protocol} : ${activatedOnce} sur ${mine.length} activés une fois, 0 débité deux fois`);
    expect(activatedOnce).toBe(13);
  }
  const figures = (xs: number[]) => `p50 ${percentile(xs, 50)} ms, max ${Math.max(...xs)} ms (${xs.length})`;
  console.log(`du « payé » de l’agrégateur à la mise en avant : avec l’appel ${figures(withCallback)}`);
  console.log(`du « payé » de l’agrégateur à la mise en avant : sans l’appel ${figures(without)}`);
}, 400_000);
