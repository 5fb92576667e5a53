import { PAYMENT_PENDING_HOURS } from '@cartable/contracts';
import { baseConfigSchema, jwksConfigSchema, storageConfigSchema } from '@cartable/service-kit';
import { z } from 'zod';

const DEV_AGGREGATOR_KEY = 'dev-aggregator-key';
const DEV_WEBHOOK_SECRET = 'dev-webhook-secret-change-me';

export const catalogConfigSchema = baseConfigSchema
  .extend(jwksConfigSchema.shape)
  .extend(storageConfigSchema.shape)
  .extend({
    PORT: z.coerce.number().int().default(4002),
    CATALOG_DATABASE_URL: z.string().url().optional(),
    REDIS_KEY_PREFIX: z.string().default('cartable:'),
    /** A demo catalogue on an empty database (npm start sets it). */
    SEED_DEMO: z.enum(['0', '1']).default('0'),
    /** Largest photo accepted, in bytes (each of the three). */
    BOOK_IMAGE_MAX_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(5 * 1024 * 1024),
    /** Currency code of prices and payments (Gabon's own is XAF; both print FCFA). */
    CURRENCY: z.enum(['XOF', 'XAF']).default('XOF'),
    /** Manual payments: the merchant numbers members send the money to. */
    PAYMENT_MERCHANT_AIRTEL: z.string().default('077 00 00 00'),
    PAYMENT_MERCHANT_MOOV: z.string().default('062 00 00 00'),
    PAYMENT_MERCHANT_NAME: z.string().default('Cartable'),
    /** The aggregator (services/payment-simulator in development): set to enable the `simulated` provider. */
    PAYMENT_AGGREGATOR_URL: z.string().url().optional(),
    PAYMENT_AGGREGATOR_KEY: z.string().default(DEV_AGGREGATOR_KEY),
    /** HMAC key of the aggregator's webhooks (x-cartable-signature). */
    PAYMENT_WEBHOOK_SECRET: z.string().min(16).default(DEV_WEBHOOK_SECRET),
    /** Where the aggregator posts its notifications; the provider's name is appended. */
    PAYMENT_WEBHOOK_BASE_URL: z.string().url().default('http://localhost:8080/api/payments/webhooks'),
    /** A payment not confirmed within this many hours expires. */
    PAYMENT_PENDING_HOURS: z.coerce.number().positive().default(PAYMENT_PENDING_HOURS),
    /** How often the sweep expires overdue subscriptions and payments and sends missed reminders. */
    SUBSCRIPTION_SWEEP_INTERVAL_MS: z.coerce.number().int().positive().default(60_000),
    /** How often the exchange matcher looks for pairs and cycles (a new wish also runs it). */
    EXCHANGE_MATCH_INTERVAL_MS: z.coerce.number().int().positive().default(300_000),
  })
  .superRefine((c, ctx) => {
    // Anyone who knows the development secret could sign « paid » notifications.
    if (c.NODE_ENV !== 'production' || !c.PAYMENT_AGGREGATOR_URL) return;
    if (c.PAYMENT_WEBHOOK_SECRET === DEV_WEBHOOK_SECRET)
      ctx.addIssue({
        code: 'custom',
        path: ['PAYMENT_WEBHOOK_SECRET'],
        message: 'le secret par défaut est refusé en production',
      });
    if (c.PAYMENT_AGGREGATOR_KEY === DEV_AGGREGATOR_KEY)
      ctx.addIssue({
        code: 'custom',
        path: ['PAYMENT_AGGREGATOR_KEY'],
        message: 'la clé par défaut est refusée en production',
      });
  });
export type CatalogConfig = z.infer<typeof catalogConfigSchema>;
