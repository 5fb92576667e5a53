import { listBook, verifiedMember } from '@cartable/stack/members';
import { sharedStack } from '@cartable/stack/shared-stack';
import { call, eventually, type TestStack } from '@cartable/stack/test-stack';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * An SMS alert as processes: a parent verifies their phone through the gateway with the code the
 * provider simulator received, chooses SMS for saved searches, saves a search; a seller lists a
 * matching book, and the SMS reaches the simulator's inbox through catalog's outbox, NATS,
 * notifications, its BullMQ queue and the Infobip adapter; the delivery report comes back through
 * the gateway. The parent answers « STOP »: SMS turn off and one SMS confirms it.
 */
let stack: TestStack;
let simulator: string;
beforeAll(async () => {
  stack = sharedStack();
  simulator = stack.url('payment-simulator');
});

type Sms = { id: string; to: string; text: string; status: string; reports: Array<{ status: number | null }> };
const inbox = async (to: string) =>
  ((await (await fetch(`${simulator}/sms/inbox?to=${encodeURIComponent(to)}`)).json()) as { messages: Sms[] }).messages;

describe('an alert by SMS', () => {
  it('verifies the phone, texts the matching listing with its link, and honours « STOP »', async () => {
    const number = `+24166${String(Date.now() % 1_000_000).padStart(6, '0')}`;
    const parent = await verifiedMember(stack, 'sms1');
    const asked = await call(`${stack.api}/notifications/phone`, { token: parent.token, body: { number } });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    const codeSms = await eventually(
      async () => (await inbox(number)).find((m) => /code est \d{6}/.test(m.text)),
      20_000,
    );
    const code = /code est (\d{6})/.exec(codeSms.text)![1];
    const verified = await call(`${stack.api}/notifications/phone/verify`, { token: parent.token, body: { code } });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    const chosen = await call(`${stack.api}/notifications/channels`, {
      method: 'PUT',
      token: parent.token,
      body: { saved_searches: { sms: true } },
    });
    expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);

    // Someone else asking for the number gets the same answer, and the number stays the parent's.
    const other = await verifiedMember(stack, 'sms2');
    const probe = await call(`${stack.api}/notifications/phone`, { token: other.token, body: { number } });
    expect(probe.body.message).toBe(asked.body.message);

    const word = `tsimbalo${Date.now() % 100_000}`;
    const saved = await call(`${stack.api}/saved-searches`, {
      token: parent.token,
      body: { name: 'Alerte SMS', frequency: 'instant', filters: { query: word, page: '1', sort_by: 'created_at' } },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    const seller = await verifiedMember(stack, 'smsvend');
    const book = await listBook(stack, seller.token, `Physique 3e ${word}`);

    const alert = await eventually(
      async () => (await inbox(number)).find((m) => m.text.includes(`/books/${book}`)),
      30_000,
    );
    expect(alert.text).toMatch(/^Alerte "Alerte SMS" : "Physique 3e tsimbalo\d+", /);
    expect(alert.text.length).toBeLessThanOrEqual(160);
    // The delivery report reached notifications through the gateway.
    await eventually(async () => (await inbox(number)).find((m) => m.id === alert.id && m.reports[0]?.status === 200));

    const reply = (await (
      await fetch(`${simulator}/sms/controls/reply`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ from: number, text: 'STOP' }),
      })
    ).json()) as { deliveries: Array<{ status: number }> };
    expect(reply.deliveries[0]?.status).toBe(200);
    const after = await call(`${stack.api}/notifications/channels`, { token: parent.token });
    expect(after.body.phone).toMatchObject({ number, stopped: true });
    await eventually(async () => (await inbox(number)).find((m) => m.text.includes('ne recevrez plus de SMS')));
  });
});
