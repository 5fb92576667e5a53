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
  })
  .parse(process.env);

const app = buildPaymentSimulator({
  apiKey: config.PAYMENT_AGGREGATOR_KEY,
  webhookSecret: config.PAYMENT_WEBHOOK_SECRET,
  confirmDelayMs: config.SIMULATOR_CONFIRM_DELAY_MS,
  deliveries: config.SIMULATOR_DELIVERIES,
  logger: createLogger('payment-simulator', config.LOG_LEVEL),
});
await app.listen({ port: config.PORT, host: config.HOST });
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void app.close().then(() => process.exit(0)));
}
