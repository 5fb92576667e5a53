import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

/**
 * An SMS aggregator speaking Infobip's SMS API, under /sms, for development and tests: the
 * notifications service's Infobip adapter is what talks to it.
 *
 *   POST /sms/2/text/advanced      send (Authorization: App <key>); a repeated messageId is the same SMS
 *   GET  /sms/inbox[?to=+241…]     every SMS received, newest last (the developer's inbox, as the mail catcher's)
 *   DELETE /sms/inbox              empties it
 *   GET  /sms/1/logs?messageId=…   the SMS taken under that id (Authorization: App <key>)
 *   POST /sms/controls/numbers     { number, behaviour: deliver | undeliverable | error | timeout | slow | reject, times? }
 *                                  (timeout: held, then nothing taken; slow: taken, but answered too late)
 *   DELETE /sms/controls/numbers   every number back to « deliver »
 *   POST /sms/controls/reply       { from, text }: the member replies (« STOP »), forwarded to the inbound webhook
 *
 * Delivery reports go to each message's notifyUrl after `deliveryDelayMs`, inbound messages to
 * `inboundUrl`, both with HTTP Basic `cartable:<webhookSecret>` as set on an Infobip webhook
 * subscription, retried with backoff until a 2xx. Without a control, a number ending in 0000 is
 * undeliverable (its report says so), any other is delivered.
 */
export interface SmsSimulatorOptions {
  apiKey: string;
  webhookSecret: string;
  /** Where members' replies are forwarded; none: nothing is sent. */
  inboundUrl?: string | undefined;
  deliveryDelayMs: number;
  /** How long a `timeout` number's send is held before it is answered. */
  slowMs: number;
}

type Behaviour = 'deliver' | 'undeliverable' | 'error' | 'timeout' | 'slow' | 'reject';

interface SimulatedSms {
  id: string;
  to: string;
  from: string;
  text: string;
  notify_url: string | null;
  callback_data: string | null;
  status: 'PENDING' | 'DELIVERED' | 'UNDELIVERABLE' | 'REJECTED';
  received_at: string;
  done_at: string | null;
  /** Sends of the same messageId after the first (the client retried). */
  repeats: number;
  reports: Array<{ at: string; status: number | null; error: string | null }>;
}

const sendSchema = z.object({
  messages: z
    .array(
      z.object({
        from: z.string().min(1).max(11),
        destinations: z
          .array(z.object({ to: z.string().regex(/^\d{8,15}$/), messageId: z.string().max(200).optional() }))
          .min(1),
        text: z.string().min(1).max(1600),
        notifyUrl: z.string().url().optional(),
        notifyContentType: z.string().optional(),
        callbackData: z.string().max(4000).optional(),
      }),
    )
    .min(1),
});
const controlSchema = z.object({
  number: z.string().min(8),
  behaviour: z.enum(['deliver', 'undeliverable', 'error', 'timeout', 'slow', 'reject']),
  /** For error and timeout: this many sends, then delivered (none: always). */
  times: z.number().int().positive().optional(),
});
const replySchema = z.object({ from: z.string().min(8), text: z.string().min(1).max(160) });

const digits = (n: string) => n.replace(/\D/g, '');

export function mountSms(
  app: FastifyInstance,
  ctx: { later: (ms: number, run: () => void) => void; retryBaseMs: number; maxAttempts: number },
  options: SmsSimulatorOptions,
) {
  const inbox = new Map<string, SimulatedSms>();
  const controls = new Map<string, { behaviour: Behaviour; times: number | null }>();
  let sequence = 0;
  const basic = `Basic ${Buffer.from(`cartable:${options.webhookSecret}`).toString('base64')}`;
  const authorised = (header: string | undefined) => {
    const given = Buffer.from(header ?? '');
    const expected = Buffer.from(`App ${options.apiKey}`);
    return given.length === expected.length && timingSafeEqual(given, expected);
  };

  /** The behaviour for this number now, counting down a limited one. */
  function behaviourOf(msisdn: string): Behaviour {
    const control = controls.get(msisdn);
    if (control) {
      if (control.times !== null) {
        control.times--;
        if (control.times <= 0) controls.delete(msisdn);
      }
      return control.behaviour;
    }
    return msisdn.endsWith('0000') ? 'undeliverable' : 'deliver';
  }

  async function post(
    url: string,
    body: string,
    log: (entry: { at: string; status: number | null; error: string | null }) => void,
    attempt = 1,
  ) {
    let status: number | null = null;
    let error: string | null = null;
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: basic },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      status = res.status;
      await res.arrayBuffer();
    } catch (err) {
      error = (err as Error).message;
    }
    log({ at: new Date().toISOString(), status, error });
    const settled = status !== null && status >= 200 && status < 300;
    const refused = status !== null && status >= 400 && status < 500 && status !== 408 && status !== 429;
    if (!settled && !refused && attempt < ctx.maxAttempts)
      ctx.later(ctx.retryBaseMs * 2 ** (attempt - 1), () => void post(url, body, log, attempt + 1));
  }

  function report(sms: SimulatedSms) {
    if (!sms.notify_url) return;
    const failed = sms.status !== 'DELIVERED';
    const body = JSON.stringify({
      results: [
        {
          bulkId: `BULK-${sms.id}`,
          messageId: sms.id,
          to: digits(sms.to),
          sentAt: sms.received_at,
          doneAt: sms.done_at,
          smsCount: 1,
          callbackData: sms.callback_data,
          status: failed
            ? {
                groupId: 2,
                groupName: 'UNDELIVERABLE',
                id: 9,
                name: 'UNDELIVERABLE_NOT_DELIVERED',
                description: 'Message sent not delivered',
              }
            : {
                groupId: 3,
                groupName: 'DELIVERED',
                id: 5,
                name: 'DELIVERED_TO_HANDSET',
                description: 'Message delivered to handset',
              },
          error: failed
            ? {
                groupId: 1,
                groupName: 'HANDSET_ERRORS',
                id: 27,
                name: 'EC_ABSENT_SUBSCRIBER',
                description: 'Absent subscriber',
                permanent: false,
              }
            : { groupId: 0, groupName: 'OK', id: 0, name: 'NO_ERROR', description: 'No Error', permanent: false },
        },
      ],
    });
    void post(sms.notify_url, body, (entry) => sms.reports.push(entry));
  }

  app.post('/sms/2/text/advanced', async (request, reply) => {
    if (!authorised(request.headers.authorization))
      return reply
        .code(401)
        .send({ requestError: { serviceException: { messageId: 'UNAUTHORIZED', text: 'Invalid login details' } } });
    const parsed = sendSchema.safeParse(request.body);
    if (!parsed.success)
      return reply
        .code(400)
        .send({ requestError: { serviceException: { messageId: 'BAD_REQUEST', text: 'Bad request' } } });
    const answers: unknown[] = [];
    let answerLate = false;
    for (const message of parsed.data.messages) {
      for (const destination of message.destinations) {
        const id = destination.messageId ?? `SIM-SMS-${++sequence}`;
        const known = inbox.get(id);
        if (known) {
          known.repeats++;
          answers.push({
            to: destination.to,
            messageId: id,
            status: { groupId: 1, groupName: 'PENDING', id: 26, name: 'PENDING_ACCEPTED' },
          });
          continue;
        }
        const behaviour = behaviourOf(destination.to);
        if (behaviour === 'error')
          return reply
            .code(503)
            .send({ requestError: { serviceException: { messageId: 'GENERAL_ERROR', text: 'Service unavailable' } } });
        if (behaviour === 'timeout') {
          // Held past the client's patience; by then the client gave up, and nothing was taken.
          await new Promise((r) => setTimeout(r, options.slowMs));
          return reply
            .code(503)
            .send({ requestError: { serviceException: { messageId: 'GENERAL_ERROR', text: 'Timeout' } } });
        }
        if (behaviour === 'reject') {
          answers.push({
            to: destination.to,
            messageId: id,
            status: {
              groupId: 5,
              groupName: 'REJECTED',
              id: 51,
              name: 'REJECTED_DESTINATION',
              description: 'Destination rejected',
            },
          });
          continue;
        }
        const sms: SimulatedSms = {
          id,
          to: `+${destination.to}`,
          from: message.from,
          text: message.text,
          notify_url: message.notifyUrl ?? null,
          callback_data: message.callbackData ?? null,
          status: 'PENDING',
          received_at: new Date().toISOString(),
          done_at: null,
          repeats: 0,
          reports: [],
        };
        inbox.set(id, sms);
        if (behaviour === 'slow') answerLate = true;
        ctx.later(options.deliveryDelayMs, () => {
          sms.status = behaviour === 'undeliverable' ? 'UNDELIVERABLE' : 'DELIVERED';
          sms.done_at = new Date().toISOString();
          report(sms);
        });
        answers.push({
          to: destination.to,
          messageId: id,
          status: {
            groupId: 1,
            groupName: 'PENDING',
            id: 26,
            name: 'PENDING_ACCEPTED',
            description: 'Message sent to next instance',
          },
        });
      }
    }
    // Taken, but the answer comes after the client's patience.
    if (answerLate) await new Promise((r) => setTimeout(r, options.slowMs));
    return { bulkId: `BULK-${++sequence}`, messages: answers };
  });

  app.get<{ Querystring: { messageId?: string } }>('/sms/1/logs', async (request, reply) => {
    if (!authorised(request.headers.authorization))
      return reply
        .code(401)
        .send({ requestError: { serviceException: { messageId: 'UNAUTHORIZED', text: 'Invalid login details' } } });
    const sms = inbox.get(request.query.messageId ?? '');
    return {
      results: sms
        ? [
            {
              messageId: sms.id,
              to: digits(sms.to),
              text: sms.text,
              status: {
                groupName:
                  sms.status === 'DELIVERED' ? 'DELIVERED' : sms.status === 'PENDING' ? 'PENDING' : 'UNDELIVERABLE',
              },
            },
          ]
        : [],
    };
  });

  app.get<{ Querystring: { to?: string } }>('/sms/inbox', async (request) => {
    const to = request.query.to ? `+${digits(request.query.to)}` : undefined;
    return { messages: [...inbox.values()].filter((sms) => !to || sms.to === to) };
  });
  app.delete('/sms/inbox', async () => {
    inbox.clear();
    return { messages: [] };
  });
  app.post('/sms/controls/numbers', async (request, reply) => {
    const parsed = controlSchema.safeParse(request.body);
    if (!parsed.success)
      return reply.code(422).send({ message: 'Réglage invalide.', errors: z.flattenError(parsed.error).fieldErrors });
    controls.set(digits(parsed.data.number), { behaviour: parsed.data.behaviour, times: parsed.data.times ?? null });
    return { number: digits(parsed.data.number), behaviour: parsed.data.behaviour };
  });
  app.delete('/sms/controls/numbers', async () => {
    controls.clear();
    return { cleared: true };
  });
  app.post('/sms/controls/reply', async (request, reply) => {
    const parsed = replySchema.safeParse(request.body);
    if (!parsed.success)
      return reply.code(422).send({ message: 'Réponse invalide.', errors: z.flattenError(parsed.error).fieldErrors });
    if (!options.inboundUrl) return reply.code(409).send({ message: 'Aucune adresse de réception configurée.' });
    const deliveries: Array<{ at: string; status: number | null; error: string | null }> = [];
    const text = parsed.data.text;
    const body = JSON.stringify({
      results: [
        {
          messageId: `SIM-IN-${++sequence}`,
          from: digits(parsed.data.from),
          to: 'Cartable',
          text,
          cleanText: text.trim(),
          keyword: text.trim().split(/\s+/)[0]?.toUpperCase() ?? '',
          receivedAt: new Date().toISOString(),
          smsCount: 1,
        },
      ],
      messageCount: 1,
      pendingMessageCount: 0,
    });
    await post(options.inboundUrl, body, (entry) => deliveries.push(entry));
    return { deliveries };
  });
}
