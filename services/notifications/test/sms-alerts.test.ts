import { randomUUID } from 'node:crypto';
import {
  type Envelope,
  type EventType,
  PHONE_CODES_PER_MEMBER_PER_DAY,
  PHONE_CODES_PER_NUMBER_PER_DAY,
  SMS_ALERTS_PER_DAY,
} from '@cartable/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { alertPhones, notices, outgoingMails, outgoingSms, phoneCodes } from '../src/db/schema.ts';
import { catalogMails } from '../src/events/catalog-mails.ts';
import { classListMails } from '../src/events/class-list-mails.ts';
import { messageMails } from '../src/events/message-mails.ts';
import { noticeTriggers } from '../src/events/notices.ts';
import { subscriptionMails } from '../src/events/subscription-mails.ts';
import { deliverSms, quietHoursEnd, recordAlertSms, smsClock } from '../src/sms/outgoing-sms.ts';
import { maskPhone, normalisePhone } from '../src/sms/phone-numbers.ts';
import { renderSms, SMS_MAX, toGsm7 } from '../src/sms/texts.ts';
import { silent } from './helpers.ts';
import { SMS_KEY, type SmsHarness, smsHarness } from './sms-harness.ts';

let h: SmsHarness;
// Noon in Libreville: outside the quiet hours, whenever the test runs.
const NOON = new Date('2026-12-07T11:00:00Z');
const realClock = smsClock.now;

beforeAll(async () => {
  h = await smsHarness();
  smsClock.now = () => NOON;
});
afterAll(async () => {
  smsClock.now = realClock;
  await h?.close();
});
afterEach(async () => {
  await h.simulatorCall('DELETE', '/sms/controls/numbers');
});

let numbers = 0;
/** A fresh Gabonese mobile number per test: +241 77 4x xx xx. */
const freshNumber = () => `077 4${String(++numbers).padStart(5, '0')}`.replace(/(\d{2})(\d{2})$/, '$1 $2');
const e164 = (typed: string) => (normalisePhone(typed) as { e164: string }).e164;

/** The code the simulator received for this number (the last one). */
async function codeSentTo(number: string) {
  const sms = await h.until(async () => (await h.inbox(number)).filter((m) => /code est \d{6}/.test(m.text)).at(-1));
  return /code est (\d{6})/.exec(sms.text)![1]!;
}

/** A member with a verified phone, through the routes and the simulator. */
async function verifiedMember(name = 'Awa') {
  const who = await h.member(name);
  const number = e164(freshNumber());
  expect((await h.call('POST', '/notifications/phone', who, { number })).status).toBe(200);
  const verified = await h.call('POST', '/notifications/phone/verify', who, { code: await codeSentTo(number) });
  expect(verified.status).toBe(200);
  return { ...who, number };
}

/** The alert's SMS row once it has reached this status (sent, retried and reported on their own time). */
const smsOf = (event: { id: string }, status: 'delivered' | 'failed') =>
  h.until(async () => {
    const [r] = await h.db
      .select()
      .from(outgoingSms)
      .where(eq(outgoingSms.id, `${event.id}-sms`));
    return r?.status === status && r;
  });

function envelope<T extends EventType>(type: T, data: Envelope<T>['data']): Envelope<T> {
  return { id: randomUUID(), type, occurred_at: new Date().toISOString(), data } as Envelope<T>;
}
async function deliver<T extends EventType>(event: Envelope<T>) {
  // biome-ignore lint/suspicious/noExplicitAny: the handler of this type takes this envelope
  await h.db.transaction((tx) => (classListMails[event.type] as any)(tx, event));
  await h.reconciler.reconcile('new');
}
const match = (userId: string, bookId = 12) =>
  envelope('catalog.class_list.match_found', {
    user_id: userId,
    saved_list_id: 1,
    list: { id: 3, level_name: '6e', school_year: '2026-2027', school_name: null },
    item: { title: 'Mathématiques 6e', isbn: null },
    book: {
      id: bookId,
      title: 'Mathématiques 6e — Collection Excellence',
      price: 3500,
      condition: 'bon',
      city_name: 'Libreville',
      is_exchange_possible: false,
      thumbnail: null,
    },
    proximity: 'city',
  } as unknown as Envelope<'catalog.class_list.match_found'>['data']);

describe('phone verification', () => {
  it('sends a 6-digit code by SMS, keeps only its hash, and verifies the number', async () => {
    const who = await h.member();
    const typed = freshNumber();
    const asked = await h.call('POST', '/notifications/phone', who, { number: typed });
    expect(asked.status).toBe(200);
    expect(asked.body.message).toBe('Un code à 6 chiffres vous a été envoyé par SMS.');
    expect(asked.body.phone).toMatchObject({ number: null, pending: expect.stringMatching(/^\+241 77 4/) });
    const code = await codeSentTo(e164(typed));
    const [stored] = await h.db.select().from(phoneCodes).where(eq(phoneCodes.userId, who.sub));
    expect(stored!.codeHash).not.toContain(code);
    // Once sent, the SMS row forgets the code too.
    const sent = await h.until(async () =>
      (await h.rows()).find((r) => r.userId === who.sub && r.kind === 'verification' && r.status !== 'pending'),
    );
    expect(JSON.stringify(sent.data)).not.toContain(code);

    const verified = await h.call('POST', '/notifications/phone/verify', who, { code });
    expect(verified.status).toBe(200);
    expect(verified.body.phone).toMatchObject({ number: e164(typed), stopped: false, pending: null });
    // Single use.
    const again = await h.call('POST', '/notifications/phone/verify', who, { code });
    expect(again.status).toBe(422);
    expect(again.body.errors.code).toEqual(['Ce code a expiré ou a été utilisé : demandez-en un nouveau.']);
  });

  it('refuses a wrong code, burns it after 5 tries, and refuses an expired one', async () => {
    const who = await h.member();
    const number = e164(freshNumber());
    await h.call('POST', '/notifications/phone', who, { number });
    const code = await codeSentTo(number);
    const wrong = code === '000000' ? '111111' : '000000';
    const first = await h.call('POST', '/notifications/phone/verify', who, { code: wrong });
    expect(first.status).toBe(422);
    expect(first.body).toMatchObject({ message: 'Code incorrect.', errors: { code: ['Code incorrect.'] } });
    for (let i = 0; i < 3; i++) await h.call('POST', '/notifications/phone/verify', who, { code: wrong });
    const fifth = await h.call('POST', '/notifications/phone/verify', who, { code: wrong });
    expect(fifth.body.message).toBe('Trop d’essais : demandez un nouveau code.');
    expect((await h.call('POST', '/notifications/phone/verify', who, { code })).status).toBe(422);

    // A new code, then its ten minutes pass.
    const other = await h.member();
    await h.call('POST', '/notifications/phone', other, { number });
    const late = await codeSentTo(number);
    await h.db
      .update(phoneCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(phoneCodes.userId, other.sub));
    const expired = await h.call('POST', '/notifications/phone/verify', other, { code: late });
    expect(expired.body.message).toBe('Ce code a expiré ou a été utilisé : demandez-en un nouveau.');
    expect(await h.db.select().from(alertPhones).where(eq(alertPhones.phone, number))).toEqual([]);
  });

  it('refuses malformed input with French field errors, never a 5xx', async () => {
    const who = await h.member();
    const bad = await h.call('POST', '/notifications/phone', who, { number: '12' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.number).toEqual(['Numéro de téléphone invalide (ex. 077 12 34 56 ou +241 77 12 34 56).']);
    const landline = await h.call('POST', '/notifications/phone', who, { number: '011 76 12 34' });
    expect(landline.body.errors.number).toEqual([
      'Ce numéro ne peut pas recevoir de SMS : donnez un numéro de mobile.',
    ]);
    const code = await h.call('POST', '/notifications/phone/verify', who, { code: '12ab' });
    expect(code.status).toBe(422);
    expect(code.body.errors.code).toEqual(['Le code est fait de 6 chiffres.']);
    expect((await h.call('POST', '/notifications/phone', undefined, { number: '077 12 34 56' })).status).toBe(401);
  });

  it('limits codes: a minute between two, per number and per member in 24 hours', async () => {
    const who = await h.member();
    const number = e164(freshNumber());
    expect((await h.call('POST', '/notifications/phone', who, { number })).status).toBe(200);
    const soon = await h.call('POST', '/notifications/phone', who, { number });
    expect(soon.status).toBe(429);
    expect(soon.body.message).toBe('Attendez une minute avant de demander un nouveau code.');
    expect(Number(soon.headers['retry-after'])).toBeGreaterThan(0);

    // Other members already had this number sent its day's codes: one more is refused, whoever asks.
    const target = e164(freshNumber());
    const past = new Date(Date.now() - 3600_000);
    await h.db.insert(phoneCodes).values(
      Array.from({ length: PHONE_CODES_PER_NUMBER_PER_DAY }, () => ({
        userId: randomUUID(),
        phone: target,
        codeHash: 'x',
        expiresAt: past,
        createdAt: past,
      })),
    );
    const flood = await h.call('POST', '/notifications/phone', await h.member(), { number: target });
    expect(flood.status).toBe(429);
    expect(flood.body.message).toBe('Trop de codes envoyés à ce numéro aujourd’hui : réessayez demain.');

    // This member asked for their day's codes, to several numbers.
    const greedy = await h.member();
    await h.db.insert(phoneCodes).values(
      Array.from({ length: PHONE_CODES_PER_MEMBER_PER_DAY }, (_, i) => ({
        userId: greedy.sub,
        phone: `+2417755${String(i).padStart(4, '0')}`,
        codeHash: 'x',
        expiresAt: past,
        createdAt: past,
      })),
    );
    const tooMany = await h.call('POST', '/notifications/phone', greedy, { number: e164(freshNumber()) });
    expect(tooMany.body.message).toBe('Trop de codes demandés aujourd’hui : réessayez demain.');
    // None of the refused requests reached the number.
    expect(await h.inbox(target)).toEqual([]);
  });

  it('tells nobody whose number it is: the same answer, and whoever holds the SIM takes it', async () => {
    const first = await verifiedMember('Awa');
    const second = await h.member('Paul');
    const asked = await h.call('POST', '/notifications/phone', second, { number: first.number });
    expect(asked.status).toBe(200);
    expect(asked.body.message).toBe('Un code à 6 chiffres vous a été envoyé par SMS.');
    // Paul does not know the code sent to Awa's phone: guessing fails, and Awa keeps her number.
    const guess = await h.call('POST', '/notifications/phone/verify', second, { code: '123456' });
    expect(guess.status).toBe(422);
    expect((await h.call('GET', '/notifications/phone', first)).body.phone.number).toBe(first.number);
    // An unknown member (a token of no member of the projection) gets a 404, and no SMS leaves.
    // Counted once Paul's code has reached Awa's phone (Awa's own code, then his): it is sent
    // from the queue, after his answer.
    const ghost = { token: (await h.tokens.token({ sub: randomUUID() })).token };
    await expect.poll(async () => (await h.inbox(first.number)).length, { timeout: 30_000 }).toBe(2);
    const before = (await h.inbox(first.number)).length;
    const unknown = await h.call('POST', '/notifications/phone', ghost, { number: first.number });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Ce membre est introuvable.');
    expect((await h.inbox(first.number)).length).toBe(before);
  });
});

describe('channels per kind of alert', () => {
  it('defaults to e-mail and in-app, asks for a verified phone before SMS, and shares « Ma liste »’s switches', async () => {
    const who = await h.member();
    const read = await h.call('GET', '/notifications/channels', who);
    expect(read.body.channels.saved_searches).toEqual({ email: true, sms: false, in_app: true });
    expect(read.body).toMatchObject({ sms_per_day: SMS_ALERTS_PER_DAY, quiet_hours: { from: '21:00', to: '07:00' } });
    const refused = await h.call('PUT', '/notifications/channels', who, { class_list: { sms: true } });
    expect(refused.status).toBe(422);
    expect(refused.body.errors['class_list.sms']).toEqual([
      'Vérifiez d’abord un numéro de téléphone pour recevoir des SMS.',
    ]);
    const bad = await h.call('PUT', '/notifications/channels', who, { saved_searches: { sms: 'oui' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors['saved_searches.sms']).toEqual(['Choix invalide (oui ou non)']);
    // A payment's news is transactional: by e-mail and in-app whatever the choice.
    const fixed = await h.call('PUT', '/notifications/channels', who, { payments: { email: false } });
    expect(fixed.status).toBe(422);
    expect(fixed.body.errors['payments.email']).toEqual(['Ces alertes arrivent toujours par ce canal.']);

    const member = await verifiedMember();
    const saved = await h.call('PUT', '/notifications/channels', member, { class_list: { sms: true, email: false } });
    expect(saved.status).toBe(200);
    expect(saved.body.channels.class_list).toEqual({ email: false, sms: true, in_app: true });
    // The older API reads the same switch.
    expect((await h.call('GET', '/notifications/preferences', member)).body.preferences.class_list_emails).toBe(false);
  });
});

describe('alerts by SMS', () => {
  it('sends a « Ma liste » match once, in one GSM-7 SMS with its link, and follows its delivery report', async () => {
    const member = await verifiedMember();
    await h.call('PUT', '/notifications/channels', member, { class_list: { sms: true } });
    const event = match(member.sub, 41);
    await deliver(event);
    // The same event again (a redelivery), and the reconciler queueing every pending SMS again.
    await deliver(event);
    await h.reconciler.reconcile('all');
    const row = await smsOf(event, 'delivered');
    expect(row.doneAt).not.toBeNull();
    const alerts = (await h.inbox(member.number)).filter((m) => m.text.includes('Ma liste'));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.repeats).toBe(0);
    expect(alerts[0]!.text).toBe(
      'Ma liste : "Mathématiques 6e - Collection Excellence" en vente à Libreville, 3 500 FCFA. https://cartable.ga/books/41 STOP au SMS pour arreter',
    );
    expect(alerts[0]!.text.length).toBeLessThanOrEqual(SMS_MAX);
  });

  it('marks an undeliverable number failed from its report', async () => {
    const member = await verifiedMember();
    await h.call('PUT', '/notifications/channels', member, { class_list: { sms: true } });
    await h.simulatorCall('POST', '/sms/controls/numbers', { number: member.number, behaviour: 'undeliverable' });
    const event = match(member.sub);
    await deliver(event);
    const row = await smsOf(event, 'failed');
    expect(row.lastError).toBe('Absent subscriber');
  });

  it('retries when the aggregator answers 503 or does not answer, and sends once', async () => {
    const member = await verifiedMember();
    await h.call('PUT', '/notifications/channels', member, { class_list: { sms: true } });
    await h.simulatorCall('POST', '/sms/controls/numbers', { number: member.number, behaviour: 'error', times: 2 });
    const failing = match(member.sub, 51);
    await deliver(failing);
    const retried = await smsOf(failing, 'delivered');
    // Two 503s, then the send (one more if a loaded machine made a send miss the 500 ms patience).
    expect(retried.attempts).toBeGreaterThanOrEqual(3);

    await h.simulatorCall('POST', '/sms/controls/numbers', { number: member.number, behaviour: 'timeout', times: 1 });
    const slow = match(member.sub, 52);
    await deliver(slow);
    const late = await smsOf(slow, 'delivered');
    expect(late.attempts).toBeGreaterThanOrEqual(2);
    // Taken by the aggregator, but its answer came too late: its delivery report (or, when the
    // report is late too, its logs: next test) says it was taken, and it is not sent again.
    await h.simulatorCall('POST', '/sms/controls/numbers', { number: member.number, behaviour: 'slow', times: 1 });
    const lost = match(member.sub, 53);
    await deliver(lost);
    const found = await smsOf(lost, 'delivered');
    expect(found.attempts).toBeLessThanOrEqual(2);
    const texts = (await h.inbox(member.number)).filter((m) => /books\/5[123] /.test(m.text));
    expect(texts).toHaveLength(3);
    // None was sent twice to the aggregator.
    expect(texts.map((m) => m.repeats)).toEqual([0, 0, 0]);
  });

  it('asks the aggregator’s logs before sending again after no answer, and does not send twice', async () => {
    const member = await verifiedMember();
    const id = `lost-${randomUUID()}`;
    // The aggregator took it (no report asked for: none comes to settle it first), but the send
    // got no answer.
    const taken = await fetch(`${h.simUrl}/sms/2/text/advanced`, {
      method: 'POST',
      headers: { authorization: `App ${SMS_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        messages: [
          { from: 'Cartable', destinations: [{ to: member.number.slice(1), messageId: id }], text: 'Déjà parti' },
        ],
      }),
    });
    expect(taken.status).toBe(200);
    await h.db.insert(outgoingSms).values({
      id,
      userId: member.sub,
      phone: member.number,
      kind: 'class_list',
      template: 'class-list-review',
      data: { listLabel: '6e', outcome: 'published' },
      attempts: 1,
      lastError: 'no answer from the aggregator: TimeoutError',
    });
    const sends: string[] = [];
    const watched = {
      ...h.provider,
      send: async (sms: { id: string; to: string; text: string }) => {
        sends.push(sms.id);
        return h.provider.send(sms);
      },
    };
    const policy = { initialDelayMs: 50, maxDelayMs: 200, budgetMs: 3600_000 };
    const outcome = await deliverSms(h.db, id, watched, { policy, publicUrl: 'https://cartable.ga', log: silent });
    expect(outcome).toEqual({ status: 'sent' });
    expect(sends).toEqual([]);
    const [row] = await h.db.select().from(outgoingSms).where(eq(outgoingSms.id, id));
    expect(row).toMatchObject({ status: 'sent', attempts: 2, providerId: id });
    // Not taken: sent now.
    const other = `lost-${randomUUID()}`;
    await h.db.insert(outgoingSms).values({
      id: other,
      userId: member.sub,
      phone: member.number,
      kind: 'class_list',
      template: 'class-list-review',
      data: { listLabel: '6e', outcome: 'published' },
      attempts: 1,
      lastError: 'no answer from the aggregator: TimeoutError',
    });
    await deliverSms(h.db, other, watched, { policy, publicUrl: 'https://cartable.ga', log: silent });
    expect(sends).toEqual([other]);
  });

  it('caps SMS alerts per member a day: past the cap the row is capped and never sent', async () => {
    const member = await verifiedMember();
    await h.call('PUT', '/notifications/channels', member, { class_list: { sms: true } });
    for (let i = 0; i < SMS_ALERTS_PER_DAY + 2; i++) await deliver(match(member.sub, 100 + i));
    const rows = (await h.rows()).filter((r) => r.userId === member.sub && r.kind === 'class_list');
    expect(rows.filter((r) => r.status === 'capped')).toHaveLength(2);
    await h.until(async () => {
      const all = (await h.rows()).filter((r) => r.userId === member.sub && r.kind === 'class_list');
      return all.filter((r) => r.status === 'delivered').length === SMS_ALERTS_PER_DAY;
    });
    expect((await h.inbox(member.number)).filter((m) => m.text.includes('Ma liste'))).toHaveLength(SMS_ALERTS_PER_DAY);
  });

  it('holds an alert due during quiet hours until 07:00 Libreville', async () => {
    expect(quietHoursEnd(new Date('2026-12-07T12:00:00Z'))).toBeNull();
    expect(quietHoursEnd(new Date('2026-12-07T21:30:00Z'))).toEqual(new Date('2026-12-08T06:00:00Z'));
    expect(quietHoursEnd(new Date('2026-12-07T03:00:00Z'))).toEqual(new Date('2026-12-07T06:00:00Z'));
    expect(quietHoursEnd(new Date('2026-12-31T20:00:00Z'))).toEqual(new Date('2027-01-01T06:00:00Z'));
    const member = await verifiedMember();
    await h.call('PUT', '/notifications/channels', member, { saved_searches: { sms: true } });
    const night = new Date(Date.now() + 3600_000);
    const morning = new Date(night.getTime() + 8 * 3600_000);
    const id = `night-${randomUUID()}`;
    const outcome = await h.db.transaction((tx) =>
      recordAlertSms(
        tx,
        id,
        {
          userId: member.sub,
          kind: 'saved_searches',
          message: {
            template: 'saved-search-match',
            data: { bookId: 1, bookTitle: 'Physique', price: 0, searchName: 'PC' },
          },
        },
        // A time whose quiet hours end later than the test: the SMS must wait.
        new Date('2026-12-07T21:30:00Z'),
      ),
    );
    expect(outcome).toBe('queued');
    await h.db.update(outgoingSms).set({ notBefore: morning }).where(eq(outgoingSms.id, id));
    await h.reconciler.reconcile('new');
    const job = await h.until(() => h.queue.getJob(id));
    expect(await job.isDelayed()).toBe(true);
    const [row] = await h.db.select().from(outgoingSms).where(eq(outgoingSms.id, id));
    expect(row!.status).toBe('pending');
  });

  it('honours « STOP »: SMS off for the number, confirmed by one SMS, and nothing more is sent', async () => {
    const member = await verifiedMember();
    await h.call('PUT', '/notifications/channels', member, { class_list: { sms: true } });
    const reply = await h.simulatorCall('POST', '/sms/controls/reply', { from: member.number, text: ' Stop ' });
    expect(reply.deliveries[0].status).toBe(200);
    const [phone] = await h.db.select().from(alertPhones).where(eq(alertPhones.userId, member.sub));
    expect(phone!.stoppedAt).not.toBeNull();
    await h.until(async () => (await h.inbox(member.number)).find((m) => m.text.includes('ne recevrez plus de SMS')));
    expect((await h.call('GET', '/notifications/channels', member)).body.phone.stopped).toBe(true);
    const event = match(member.sub);
    await deliver(event);
    expect(
      await h.db
        .select()
        .from(outgoingSms)
        .where(eq(outgoingSms.id, `${event.id}-sms`)),
    ).toEqual([]);
  });

  it('tells of a message waiting by SMS instead of e-mail when so chosen, once per conversation in 15 minutes', async () => {
    const member = await verifiedMember();
    const refused = await h.call('PUT', '/notifications/channels', member, { messages: { in_app: false } });
    expect(refused.body.errors['messages.in_app']).toEqual(['Ces alertes arrivent toujours par ce canal.']);
    await h.call('PUT', '/notifications/channels', member, { messages: { sms: true, email: false } });
    const conversation = randomUUID();
    const sent = (content: string) =>
      ({
        id: randomUUID(),
        type: 'messaging.message.sent',
        occurred_at: new Date().toISOString(),
        data: {
          message_id: randomUUID(),
          conversation_id: conversation,
          book_id: 7,
          book_title: 'Mathématiques 3e',
          sender_id: randomUUID(),
          sender_name: 'Jean-Pierre',
          receiver_id: member.sub,
          content,
          send_email_copy: false,
          created_at: new Date().toISOString(),
        },
      }) as Envelope<'messaging.message.sent'>;
    const first = sent('Bonjour, le livre est-il disponible ?');
    await h.db.transaction((tx) => messageMails['messaging.message.sent']!(tx, first as never));
    await h.db.transaction((tx) =>
      messageMails['messaging.message.sent']!(tx, sent('Je peux passer demain.') as never),
    );
    await h.reconciler.reconcile('new');
    const sms = await h.until(async () => (await h.inbox(member.number)).find((m) => m.text.includes('vous a ecrit')));
    expect(sms.text).toBe(
      `Jean-Pierre vous a ecrit pour "Mathématiques 3e". https://cartable.ga/messages/7/${first.data.sender_id} STOP au SMS pour arreter`,
    );
    expect((await h.rows()).filter((r) => r.userId === member.sub && r.kind === 'messages')).toHaveLength(1);
    expect(
      await h.db
        .select()
        .from(outgoingMails)
        .where(eq(outgoingMails.id, `${first.id}-notice`)),
    ).toEqual([]);
  });

  it('tells of a deal by SMS only when so chosen, and of a payment by SMS besides its e-mail and notice', async () => {
    const buyer = await verifiedMember('Brice');
    const seller = await h.member('Awa');
    await h.call('PUT', '/notifications/channels', buyer, {
      deals: { sms: true, email: false, in_app: false },
      payments: { sms: true },
    });
    const proposed = {
      id: randomUUID(),
      type: 'catalog.transaction.proposed',
      occurred_at: new Date().toISOString(),
      data: {
        transaction_id: randomUUID(),
        book_id: 42,
        book_title: 'Mathématiques Terminale D',
        kind: 'sale',
        price: 4000,
        exchange_book_id: null,
        exchange_book_title: null,
        seller_id: seller.sub,
        buyer_id: buyer.sub,
        status: 'proposed',
        cancelled_by: null,
        at: new Date().toISOString(),
      },
    } as unknown as Envelope<'catalog.transaction.proposed'>;
    await h.db.transaction(async (tx) => {
      await catalogMails['catalog.transaction.proposed']!(tx, proposed as never);
      await noticeTriggers['catalog.transaction.proposed']!(tx, proposed as never);
    });
    const failed = {
      id: randomUUID(),
      type: 'catalog.payment.failed',
      occurred_at: new Date().toISOString(),
      data: {
        payment_id: randomUUID(),
        subscription_id: randomUUID(),
        user_id: buyer.sub,
        plan_name: 'Mise en avant 30 jours',
        provider: 'manual',
        operator: 'airtel_money',
        amount: 3000,
        reference: 'CRT-ABC123',
        status: 'failed',
        refund_amount: null,
        reason: 'Solde insuffisant',
        at: new Date().toISOString(),
      },
    } as unknown as Envelope<'catalog.payment.failed'>;
    await h.db.transaction((tx) => subscriptionMails['catalog.payment.failed']!(tx, failed as never));
    await h.reconciler.reconcile('new');
    const texts = await h.until(async () => {
      const got = await h.inbox(buyer.number);
      return got.length >= 3 && got;
    });
    const deal = texts.find((m) => m.text.startsWith('Awa vous propose une transaction pour "Math'));
    // The title gives way to the link: one SMS.
    expect(deal?.text).toMatch(
      new RegExp(
        `\\.\\.\\."\\. https://cartable\\.ga/transactions/${proposed.data.transaction_id} STOP au SMS pour arreter$`,
      ),
    );
    expect(deal!.text.length).toBeLessThanOrEqual(SMS_MAX);
    expect(texts.some((m) => m.text.startsWith('Paiement non abouti (Mise en avant 30 jours).'))).toBe(true);
    // The deal came by SMS only; the payment by SMS, e-mail and notice.
    expect(await h.db.select().from(outgoingMails).where(eq(outgoingMails.id, proposed.id))).toEqual([]);
    expect(
      await h.db
        .select()
        .from(notices)
        .where(eq(notices.key, `${proposed.id}:${buyer.sub}`)),
    ).toEqual([]);
    expect(await h.db.select().from(outgoingMails).where(eq(outgoingMails.id, failed.id))).toHaveLength(1);
    expect(
      await h.db
        .select()
        .from(notices)
        .where(eq(notices.key, `${failed.id}:${buyer.sub}`)),
    ).toHaveLength(1);
  });

  it('refuses a webhook without the shared secret', async () => {
    const res = await fetch(`${h.appUrl}/notifications/sms/delivery`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Basic Y2FydGFibGU6bm9wZQ==' },
      body: JSON.stringify({ results: [] }),
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { message: string }).message).toBe('Notification du fournisseur de SMS refusée.');
  });
});

describe('texts', () => {
  it('are GSM-7, one SMS, and logs mask numbers', () => {
    expect(toGsm7('«Élève» : ça coûte 5 000 FCFA… l’été')).toBe('"Élève" : ca coute 5 000 FCFA... l\'été');
    const long = renderSms(
      {
        template: 'class-list-match',
        data: {
          bookId: 123456,
          bookTitle: 'Physique-Chimie Terminale D '.repeat(6),
          price: 12_500,
          where: 'dans votre province (Franceville)',
        },
      },
      'https://cartable.ga',
    );
    expect(long.length).toBeLessThanOrEqual(SMS_MAX);
    expect(long).toContain('https://cartable.ga/books/123456');
    expect(maskPhone('+24177123456')).toBe('+241******56');
    // Even when the link leaves no room for a title, the text is written (in two SMS), whole link.
    const crowded = renderSms(
      {
        template: 'deal-step',
        data: {
          event: 'proposed',
          bookTitle: 'Sciences de la vie et de la Terre',
          transactionId: 'x'.repeat(120),
          otherName: 'Awa',
        },
      },
      'https://cartable.ga',
    );
    expect(crowded).toContain(`https://cartable.ga/transactions/${'x'.repeat(120)} STOP`);
  });
});
