import {
  alertChannelsRequestSchema,
  alertChannelsResponseSchema,
  alertChannelMessages as m,
  phoneRequestSchema,
  phoneResponseSchema,
  phoneVerifyRequestSchema,
} from '@cartable/contracts';
import { type Db, type Guards, unauthorized, unavailable } from '@cartable/service-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { channelSettings, saveChannels } from '../sms/alert-channels.ts';
import { inboundSms, phoneOf, removePhone, requestPhoneCode, verifyPhoneCode } from '../sms/alert-phone.ts';
import { applyDeliveryReport } from '../sms/outgoing-sms.ts';
import type { SmsProvider } from '../sms/provider.ts';

export interface SmsDeps {
  db: Db;
  guards: Guards;
  /** Unset: no SMS channel in this deployment (SMS_PROVIDER_URL). */
  smsProvider?: SmsProvider | undefined;
  /** Queues the SMS just written (the reconciler's 'new' pass). */
  onSmsWritten?: () => void;
}

/**
 * The member's alert channels (access 'user'): their phone for SMS, verified by a code, and the
 * channels of each kind of alert.
 */
export const alertChannelRoutes: FastifyPluginAsyncZod<SmsDeps> = async (app, deps) => {
  const { db, guards, smsProvider } = deps;
  app.addHook('onRequest', guards.requireUser);
  const tags = ['notifications'];
  const security = [{ bearer: [] }];
  const written = () => deps.onSmsWritten?.();

  app.get(
    '/notifications/channels',
    { schema: { tags, security, response: { 200: alertChannelsResponseSchema } } },
    async (request) => channelSettings(db, request.claims!.sub),
  );
  app.put(
    '/notifications/channels',
    { schema: { tags, security, body: alertChannelsRequestSchema, response: { 200: alertChannelsResponseSchema } } },
    async (request) => saveChannels(db, request.claims!.sub, request.body),
  );
  app.get(
    '/notifications/phone',
    { schema: { tags, security, response: { 200: phoneResponseSchema.partial({ message: true }) } } },
    async (request) => ({ phone: await phoneOf(db, request.claims!.sub) }),
  );
  app.post(
    '/notifications/phone',
    { schema: { tags, security, body: phoneRequestSchema, response: { 200: phoneResponseSchema } } },
    async (request) => {
      if (!smsProvider) throw unavailable(m.smsUnavailable);
      const answer = await requestPhoneCode(db, request.claims!.sub, request.body.number);
      written();
      return answer;
    },
  );
  app.post(
    '/notifications/phone/verify',
    { schema: { tags, security, body: phoneVerifyRequestSchema, response: { 200: phoneResponseSchema } } },
    async (request) => verifyPhoneCode(db, request.claims!.sub, request.body.code),
  );
  app.delete(
    '/notifications/phone',
    { schema: { tags, security, response: { 200: phoneResponseSchema } } },
    async (request) => removePhone(db, request.claims!.sub),
  );
};

const receivedSchema = z.object({ received: z.number().int() });

/**
 * What the SMS aggregator posts (no member token: the webhook's credentials are the check):
 * delivery reports, and members' replies, of which « STOP » turns SMS off for the number.
 */
export const smsWebhookRoutes: FastifyPluginAsyncZod<SmsDeps> = async (app, deps) => {
  const { db, smsProvider } = deps;
  const tags = ['notifications'];
  const authentic = (headers: Record<string, string | string[] | undefined>) => {
    if (!smsProvider?.authenticWebhook(headers)) throw unauthorized(m.webhookRefused);
    return smsProvider;
  };

  app.post('/notifications/sms/delivery', { schema: { tags, response: { 200: receivedSchema } } }, async (request) => {
    const provider = authentic(request.headers);
    let received = 0;
    for (const report of provider.deliveryReports(request.body)) received += await applyDeliveryReport(db, report);
    return { received };
  });
  app.post('/notifications/sms/inbound', { schema: { tags, response: { 200: receivedSchema } } }, async (request) => {
    const provider = authentic(request.headers);
    let received = 0;
    for (const sms of provider.inboundMessages(request.body)) {
      if ((await inboundSms(db, sms)) === 'stopped') received++;
    }
    if (received) deps.onSmsWritten?.();
    return { received };
  });
};
