import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildPaymentSimulator } from '../src/simulator.ts';
import { recordingEndpoint, until } from './support.ts';

/** The SMS side of the simulator: Infobip's send call, the inbox, controls, reports and replies. */
const SMS_KEY = 'test-sms-key-0123';
const SECRET = 'test-sms-webhook-secret-0123';
const basic = `Basic ${Buffer.from(`cartable:${SECRET}`).toString('base64')}`;

let simulator: FastifyInstance | undefined;
let hook: Awaited<ReturnType<typeof recordingEndpoint>> | undefined;
afterEach(async () => {
  await simulator?.close();
  await hook?.close();
});

const send = (app: FastifyInstance, to: string, messageId: string, notifyUrl: string, key = SMS_KEY) =>
  app.inject({
    method: 'POST',
    url: '/sms/2/text/advanced',
    headers: { authorization: `App ${key}` },
    payload: { messages: [{ from: 'Cartable', destinations: [{ to, messageId }], text: 'Bonjour', notifyUrl }] },
  });

describe('SMS simulator', () => {
  it('keeps each messageId once, reports delivery with the webhook credentials, and refuses a wrong key', async () => {
    hook = await recordingEndpoint();
    simulator = buildPaymentSimulator({
      apiKey: 'k',
      webhookSecret: 'unused-secret-0123456789',
      confirmDelayMs: 0,
      sms: { apiKey: SMS_KEY, webhookSecret: SECRET, deliveryDelayMs: 10, inboundUrl: `${hook.base}/inbound` },
    });
    expect((await send(simulator, '24177123456', 'a-1', `${hook.base}/dlr`, 'nope')).statusCode).toBe(401);
    const first = await send(simulator, '24177123456', 'a-1', `${hook.base}/dlr`);
    expect(first.json().messages[0]).toMatchObject({ messageId: 'a-1', status: { groupName: 'PENDING' } });
    await send(simulator, '24177123456', 'a-1', `${hook.base}/dlr`);
    const inbox = (await simulator.inject({ url: '/sms/inbox?to=%2B24177123456' })).json().messages;
    expect(inbox).toHaveLength(1);
    expect(inbox[0]).toMatchObject({ to: '+24177123456', text: 'Bonjour', repeats: 1 });
    await until(() => hook!.received.length === 1);
    expect(hook.received[0]!.authorization).toBe(basic);
    expect(JSON.parse(hook.received[0]!.body).results[0]).toMatchObject({
      messageId: 'a-1',
      status: { groupName: 'DELIVERED' },
    });

    // A member's reply goes to the inbound webhook.
    const reply = await simulator.inject({
      method: 'POST',
      url: '/sms/controls/reply',
      payload: { from: '+24177123456', text: 'STOP' },
    });
    expect(reply.json().deliveries[0].status).toBe(200);
    expect(JSON.parse(hook.received[1]!.body).results[0]).toMatchObject({ from: '24177123456', text: 'STOP' });
  });

  it('fails, refuses or loses a number as told', async () => {
    hook = await recordingEndpoint();
    simulator = buildPaymentSimulator({
      apiKey: 'k',
      webhookSecret: 'unused-secret-0123456789',
      confirmDelayMs: 0,
      sms: { apiKey: SMS_KEY, webhookSecret: SECRET, deliveryDelayMs: 10 },
    });
    const control = (number: string, behaviour: string, times?: number) =>
      simulator!.inject({ method: 'POST', url: '/sms/controls/numbers', payload: { number, behaviour, times } });
    await control('+24166000001', 'error', 1);
    expect((await send(simulator, '24166000001', 'e-1', `${hook.base}/dlr`)).statusCode).toBe(503);
    expect((await send(simulator, '24166000001', 'e-1', `${hook.base}/dlr`)).statusCode).toBe(200);
    await control('+24166000002', 'reject');
    expect((await send(simulator, '24166000002', 'r-1', `${hook.base}/dlr`)).json().messages[0].status.groupName).toBe(
      'REJECTED',
    );
    await send(simulator, '24166000000', 'u-1', `${hook.base}/dlr`);
    await until(() => hook!.received.some((r) => r.body.includes('u-1')));
    const lost = hook.received.find((r) => r.body.includes('u-1'))!;
    expect(JSON.parse(lost.body).results[0].status.groupName).toBe('UNDELIVERABLE');
  });
});
