import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { type DeliveryReport, type InboundSms, NO_ANSWER, type SmsProvider, SmsSendError } from './provider.ts';

/**
 * Infobip's SMS API, which reaches Gabon's operators (Airtel, Moov):
 *
 * - send: `POST {base}/sms/2/text/advanced`, `Authorization: App <key>`, a body of
 *   `messages[{ from, destinations[{ to, messageId }], text, notifyUrl, notifyContentType,
 *   callbackData }]`; the answer lists each message with its status group (PENDING, or
 *   REJECTED for a number or sender refused at once);
 * - delivery reports: a POST to notifyUrl of `results[{ messageId, to, status{ groupName },
 *   error{ name, permanent } }]`, DELIVERED, or UNDELIVERABLE / EXPIRED / REJECTED;
 * - logs: `GET {base}/sms/1/logs?messageId=…` lists the SMS the account sent with that id, which
 *   tells whether a send that got no answer was taken;
 * - inbound SMS (a member's reply to the sender number, forwarded by the number's « forward to
 *   HTTP » action): `results[{ messageId, from, text, cleanText, keyword }]`.
 *
 * Webhooks carry the HTTP Basic credentials set on the account's webhook subscription:
 * `cartable:<SMS_WEBHOOK_SECRET>`, compared in constant time. `to` and `from` are digits
 * without the plus sign.
 */
export interface InfobipOptions {
  baseUrl: string;
  apiKey: string;
  sender: string;
  deliveryUrl: string;
  webhookSecret: string;
  timeoutMs: number;
  fetcher?: typeof fetch;
}

const sendAnswer = z.object({
  messages: z
    .array(
      z.object({
        messageId: z.string().optional(),
        status: z.object({ groupName: z.string(), description: z.string().optional() }).optional(),
      }),
    )
    .min(1),
});
const reportBody = z.object({
  results: z.array(
    z.object({
      messageId: z.string(),
      callbackData: z.string().nullish(),
      status: z.object({ groupName: z.string(), name: z.string().optional() }),
      error: z.object({ name: z.string().optional(), description: z.string().optional() }).nullish(),
    }),
  ),
});
const inboundBody = z.object({
  results: z.array(
    z.object({
      messageId: z.string(),
      from: z.string(),
      text: z.string().nullish(),
      cleanText: z.string().nullish(),
    }),
  ),
});

const logsAnswer = z.object({ results: z.array(z.object({ messageId: z.string() })) });
const FAILED = new Set(['UNDELIVERABLE', 'EXPIRED', 'REJECTED']);
const digits = (e164: string) => e164.replace(/^\+/, '');
const plus = (msisdn: string) => (msisdn.startsWith('+') ? msisdn : `+${msisdn}`);

export function infobipProvider(options: InfobipOptions): SmsProvider {
  const fetcher = options.fetcher ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, '');
  const expected = Buffer.from(`Basic ${Buffer.from(`cartable:${options.webhookSecret}`).toString('base64')}`);
  return {
    name: 'infobip',
    async send({ id, to, text }) {
      let res: Response;
      try {
        res = await fetcher(`${base}/sms/2/text/advanced`, {
          method: 'POST',
          headers: {
            authorization: `App ${options.apiKey}`,
            'content-type': 'application/json',
            accept: 'application/json',
          },
          body: JSON.stringify({
            messages: [
              {
                from: options.sender,
                destinations: [{ to: digits(to), messageId: id }],
                text,
                notifyUrl: options.deliveryUrl,
                notifyContentType: 'application/json',
                callbackData: id,
              },
            ],
          }),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
      } catch (err) {
        // Unreachable or too slow: it may or may not have taken it; a retry carries the same messageId.
        throw new SmsSendError(`${NO_ANSWER}: ${(err as Error).name}`, false);
      }
      const body = await res.json().catch(() => null);
      if (!res.ok) {
        // 429 and 5xx pass; any other 4xx is our request or our account: retrying changes nothing.
        const permanent = res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429;
        throw new SmsSendError(`aggregator answered ${res.status}`, permanent);
      }
      const parsed = sendAnswer.safeParse(body);
      if (!parsed.success) throw new SmsSendError('aggregator answer not understood', false);
      const message = parsed.data.messages[0]!;
      if (message.status && FAILED.has(message.status.groupName))
        throw new SmsSendError(`refused: ${message.status.description ?? message.status.groupName}`, true);
      return { providerId: message.messageId ?? id };
    },
    async accepted(id) {
      const res = await fetcher(`${base}/sms/1/logs?messageId=${encodeURIComponent(id)}`, {
        headers: { authorization: `App ${options.apiKey}`, accept: 'application/json' },
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      if (!res.ok) throw new SmsSendError(`aggregator logs answered ${res.status}`, false);
      const parsed = logsAnswer.safeParse(await res.json().catch(() => null));
      if (!parsed.success) throw new SmsSendError('aggregator logs not understood', false);
      const found = parsed.data.results.find((r) => r.messageId === id);
      return found ? { providerId: found.messageId } : null;
    },
    authenticWebhook(headers) {
      const given = Buffer.from(String(headers.authorization ?? ''));
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
    deliveryReports(body): DeliveryReport[] {
      const parsed = reportBody.safeParse(body);
      if (!parsed.success) return [];
      return parsed.data.results.flatMap((r): DeliveryReport[] => {
        const group = r.status.groupName;
        if (group === 'DELIVERED') return [{ id: r.callbackData ?? r.messageId, status: 'delivered', error: null }];
        if (FAILED.has(group))
          return [
            {
              id: r.callbackData ?? r.messageId,
              status: 'failed',
              error: r.error?.description ?? r.error?.name ?? r.status.name ?? group,
            },
          ];
        return [];
      });
    },
    inboundMessages(body): InboundSms[] {
      const parsed = inboundBody.safeParse(body);
      if (!parsed.success) return [];
      return parsed.data.results.map((r) => ({
        id: r.messageId,
        from: plus(r.from),
        text: r.cleanText ?? r.text ?? '',
      }));
    },
  };
}

/** The configured aggregator, or none when SMS_PROVIDER_URL is unset. */
export function smsProviderFrom(config: {
  SMS_PROVIDER_URL?: string | undefined;
  SMS_API_KEY: string;
  SMS_SENDER: string;
  SMS_WEBHOOK_SECRET: string;
  SMS_DELIVERY_URL?: string | undefined;
  SMS_TIMEOUT_MS: number;
  PUBLIC_URL: string;
}): SmsProvider | undefined {
  if (!config.SMS_PROVIDER_URL) return undefined;
  return infobipProvider({
    baseUrl: config.SMS_PROVIDER_URL,
    apiKey: config.SMS_API_KEY,
    sender: config.SMS_SENDER,
    webhookSecret: config.SMS_WEBHOOK_SECRET,
    deliveryUrl: config.SMS_DELIVERY_URL ?? `${config.PUBLIC_URL.replace(/\/+$/, '')}/api/notifications/sms/delivery`,
    timeoutMs: config.SMS_TIMEOUT_MS,
  });
}
