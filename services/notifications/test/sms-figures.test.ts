import { randomUUID } from 'node:crypto';
import { type Envelope, SMS_ALERTS_PER_DAY } from '@cartable/contracts';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { alertChannels, alertPhones, members, outgoingSms } from '../src/db/schema.ts';
import { classListMails } from '../src/events/class-list-mails.ts';
import { savedSearchMails } from '../src/events/saved-search-mails.ts';
import { smsClock } from '../src/sms/outgoing-sms.ts';
import { type SmsHarness, smsHarness } from './sms-harness.ts';

/**
 * The SMS channel at the scale of a busy rentrée morning: 100 members with verified phones, half
 * with SMS chosen for « Ma liste », half for saved searches; new listings match each of them one
 * to eight times (catalog's match events, as catalog publishes them); the simulator refuses some
 * numbers, loses others' SMS, and answers 503 twice to a few. Prints what was sent, delivered,
 * failed and capped.
 */
const MEMBERS = 100;
const UNDELIVERABLE = 10;
const REFUSED = 5;
const FLAKY = 5;

let h: SmsHarness;
const realClock = smsClock.now;
beforeAll(async () => {
  h = await smsHarness();
  // Noon in Libreville: outside the quiet hours, whenever the test runs.
  smsClock.now = () => new Date('2026-12-07T11:00:00Z');
});
afterAll(async () => {
  smsClock.now = realClock;
  await h?.close();
});

it(`alerts ${MEMBERS} members by SMS within their daily cap, and counts what became of each`, async () => {
  const people = Array.from({ length: MEMBERS }, (_, i) => ({
    id: randomUUID(),
    phone: `+2416${String(6_000_000 + i).padStart(7, '0')}`,
    kind: i % 2 === 0 ? ('class_list' as const) : ('saved_searches' as const),
    matches: 1 + (i % 8),
  }));
  await h.db
    .insert(members)
    .values(people.map((p, i) => ({ id: p.id, name: `Membre ${i}`, email: `m${i}@example.ga` })));
  await h.db.insert(alertPhones).values(people.map((p) => ({ userId: p.id, phone: p.phone, verifiedAt: new Date() })));
  await h.db.insert(alertChannels).values(people.map((p) => ({ userId: p.id, kind: p.kind, sms: true })));
  // The simulator's numbers: the last ten lose their SMS, five are refused at once, five fail twice first.
  for (const p of people.slice(-UNDELIVERABLE))
    await h.simulatorCall('POST', '/sms/controls/numbers', { number: p.phone, behaviour: 'undeliverable' });
  for (const p of people.slice(0, REFUSED))
    await h.simulatorCall('POST', '/sms/controls/numbers', { number: p.phone, behaviour: 'reject' });
  for (const p of people.slice(REFUSED, REFUSED + FLAKY))
    await h.simulatorCall('POST', '/sms/controls/numbers', { number: p.phone, behaviour: 'error', times: 2 });

  let book = 5000;
  const events: Envelope[] = [];
  for (const [i, p] of people.entries()) {
    for (let n = 0; n < p.matches; n++) {
      const title = `Mathématiques ${6 + (n % 4)}e — édition ${2020 + n}`;
      const id = book++;
      events.push(
        p.kind === 'class_list'
          ? ({
              id: randomUUID(),
              type: 'catalog.class_list.match_found',
              occurred_at: new Date().toISOString(),
              data: {
                user_id: p.id,
                saved_list_id: i,
                list: { id: 3, level_name: '6e', school_year: '2026-2027', school_name: null },
                item: { title: 'Mathématiques 6e', isbn: null },
                book: {
                  id,
                  title,
                  price: 2500 + n * 500,
                  condition: 'bon',
                  city_name: 'Libreville',
                  is_exchange_possible: false,
                  thumbnail: null,
                },
                proximity: 'city',
              },
            } as unknown as Envelope)
          : ({
              id: randomUUID(),
              type: 'catalog.saved_search.matched',
              occurred_at: new Date().toISOString(),
              data: {
                saved_search_id: 10_000 + i,
                user_id: p.id,
                name: 'Maths collège',
                frequency: 'daily',
                summary: '« maths » · Libreville',
                query_string: 'query=maths',
                unsubscribe_token: `${10_000 + i}.secret-token-of-twenty-chars`,
                book: { id, title, price: 2500 + n * 500, city_name: 'Libreville', thumbnail: null },
                at: new Date().toISOString(),
              },
            } as unknown as Envelope),
      );
    }
  }
  // Listings arrive in the order catalog publishes them: interleaved across members.
  events.sort(() => Math.random() - 0.5);
  const started = Date.now();
  for (const event of events) {
    const handlers = event.type === 'catalog.class_list.match_found' ? classListMails : savedSearchMails;
    await h.db.transaction((tx) => handlers[event.type]!(tx, event as never));
    void h.reconciler.reconcile('new');
  }
  await h.reconciler.reconcile('new');

  const ids = people.map((p) => p.id);
  const final = await h.until(async () => {
    const rows = await h.db.select().from(outgoingSms).where(inArray(outgoingSms.userId, ids));
    return (
      rows.length === events.length && rows.every((r) => ['delivered', 'failed', 'capped'].includes(r.status)) && rows
    );
  }, 120_000);
  const count = (status: string) => final.filter((r) => r.status === status).length;
  const inbox = (await h.inbox()).filter((m) => people.some((p) => p.phone === m.to));
  const figures = {
    members: MEMBERS,
    alerts: events.length,
    handedToProvider: inbox.length,
    delivered: count('delivered'),
    failed: count('failed'),
    failedRefusedAtSend: final.filter((r) => r.status === 'failed' && !r.sentAt).length,
    failedUndeliverable: final.filter((r) => r.status === 'failed' && r.sentAt).length,
    capped: count('capped'),
    retriedSends: final.filter((r) => r.attempts > 1).length,
    duplicatesAtProvider: inbox.filter((m) => m.repeats > 0).length,
    seconds: Math.round((Date.now() - started) / 100) / 10,
  };
  console.log('SMS figures', JSON.stringify(figures, null, 2));

  const expectedCapped = people.reduce((sum, p) => sum + Math.max(0, p.matches - SMS_ALERTS_PER_DAY), 0);
  expect(figures.capped).toBe(expectedCapped);
  const sentTo = (list: typeof people) => list.reduce((sum, p) => sum + Math.min(p.matches, SMS_ALERTS_PER_DAY), 0);
  expect(figures.failedRefusedAtSend).toBe(sentTo(people.slice(0, REFUSED)));
  expect(figures.failedUndeliverable).toBe(sentTo(people.slice(-UNDELIVERABLE)));
  expect(figures.delivered).toBe(events.length - figures.capped - figures.failed);
  expect(figures.handedToProvider).toBe(figures.delivered + figures.failedUndeliverable);
  expect(figures.duplicatesAtProvider).toBe(0);
  // No member got more than the cap.
  for (const p of people) expect(inbox.filter((m) => m.to === p.phone).length).toBeLessThanOrEqual(SMS_ALERTS_PER_DAY);
}, 180_000);
