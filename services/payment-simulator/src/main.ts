import { createLogger } from '@cartable/service-kit';
import { z } from 'zod';
import { buildPaymentSimulator } from './simulator.ts';

/** Development only: `npm start` runs it so that the « agrégateur » payment works end to end. */
const config = z
  .object({
    PORT: z.coerce.number().int().default(4090),
    HOST: z.string().default('127.0.0.1'),
    LOG_LEVEL: z.string().default('info'),
    PAYMENT_AGGREGATOR_KEY: z.string().min(8).default('dev-aggregator-key'),
    PAYMENT_WEBHOOK_SECRET: z.string().min(16).default('dev-webhook-secret-change-me'),
    SIMULATOR_CONFIRM_DELAY_MS: z.coerce.number().int().min(0).default(5000),
    SIMULATOR_DELIVERIES: z.coerce.number().int().min(1).max(5).default(1),
    /** Callbacks not acknowledged are sent again this many times in all, the first retry after the base (doubling). */
    SIMULATOR_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(8),
    SIMULATOR_RETRY_BASE_MS: z.coerce.number().int().min(10).default(1000),
    /** eBilling and MyPVit: how late a create call is answered for a number ending in 1111. */
    SIMULATOR_SLOW_MS: z.coerce.number().int().min(0).default(15_000),
    /** MyPVit: how long a renewed secret is accepted (theirs: an hour). */
    SIMULATOR_MYPVIT_SECRET_TTL_MS: z.coerce.number().int().min(1000).default(3600_000),
    /** Where eBilling and MyPVit post (their callback URLs are set on the merchant's account). */
    PAYMENT_WEBHOOK_BASE_URL: z.string().url().default('http://localhost:8080/api/payments/webhooks'),
    PAYMENT_EBILLING_USERNAME: z.string().default('dev-ebilling'),
    PAYMENT_EBILLING_KEY: z.string().default('dev-ebilling-key'),
    PAYMENT_MYPVIT_ACCOUNT: z.string().default('ACC_DEV'),
    PAYMENT_MYPVIT_PASSWORD: z.string().default('dev-mypvit-password'),
    /** The SMS side (Infobip's protocol): notifications' key and webhook secret, where replies go. */
    SMS_API_KEY: z.string().min(8).default('dev-sms-key'),
    SMS_WEBHOOK_SECRET: z.string().min(16).default('dev-sms-webhook-secret'),
    SMS_INBOUND_URL: z.string().url().default('http://localhost:8080/api/notifications/sms/inbound'),
    /** How long after a send its delivery report is posted. */
    SIMULATOR_SMS_DELIVERY_MS: z.coerce.number().int().min(0).default(1000),
  })
  .parse(process.env);

const app = buildPaymentSimulator({
  apiKey: config.PAYMENT_AGGREGATOR_KEY,
  webhookSecret: config.PAYMENT_WEBHOOK_SECRET,
  confirmDelayMs: config.SIMULATOR_CONFIRM_DELAY_MS,
  deliveries: config.SIMULATOR_DELIVERIES,
  maxAttempts: config.SIMULATOR_MAX_ATTEMPTS,
  retryBaseMs: config.SIMULATOR_RETRY_BASE_MS,
  slowMs: config.SIMULATOR_SLOW_MS,
  ebilling: {
    username: config.PAYMENT_EBILLING_USERNAME,
    sharedKey: config.PAYMENT_EBILLING_KEY,
    callbackUrl: `${config.PAYMENT_WEBHOOK_BASE_URL.replace(/\/+$/, '')}/ebilling`,
  },
  mypvit: {
    accountCode: config.PAYMENT_MYPVIT_ACCOUNT,
    password: config.PAYMENT_MYPVIT_PASSWORD,
    callbackUrl: `${config.PAYMENT_WEBHOOK_BASE_URL.replace(/\/+$/, '')}/mypvit`,
    secretTtlMs: config.SIMULATOR_MYPVIT_SECRET_TTL_MS,
  },
  sms: {
    apiKey: config.SMS_API_KEY,
    webhookSecret: config.SMS_WEBHOOK_SECRET,
    inboundUrl: config.SMS_INBOUND_URL,
    deliveryDelayMs: config.SIMULATOR_SMS_DELIVERY_MS,
    slowMs: config.SIMULATOR_SLOW_MS,
  },
  logger: createLogger('payment-simulator', config.LOG_LEVEL),
});
await app.listen({ port: config.PORT, host: config.HOST });
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void app.close().then(() => process.exit(0)));
}
