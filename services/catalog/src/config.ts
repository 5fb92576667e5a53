import { PAYMENT_PENDING_HOURS } from '@cartable/contracts';
import { baseConfigSchema, jwksConfigSchema, storageConfigSchema } from '@cartable/service-kit';
import { z } from 'zod';

const DEV_AGGREGATOR_KEY = 'dev-aggregator-key';
const DEV_WEBHOOK_SECRET = 'dev-webhook-secret-change-me';
const DEV_EBILLING_USERNAME = 'dev-ebilling';
const DEV_EBILLING_KEY = 'dev-ebilling-key';
const DEV_MYPVIT_ACCOUNT = 'ACC_DEV';
const DEV_MYPVIT_PASSWORD = 'dev-mypvit-password';
/** A URL that may be left empty in .env (empty: the provider is off). */
const optionalUrl = z.preprocess((v) => (v === '' ? undefined : v), z.string().url().optional());

export const catalogConfigSchema = baseConfigSchema
  .extend(jwksConfigSchema.shape)
  .extend(storageConfigSchema.shape)
  .extend({
    PORT: z.coerce.number().int().default(4002),
    CATALOG_DATABASE_URL: z.string().url().optional(),
    REDIS_KEY_PREFIX: z.string().default('cartable:'),
    /**
     * The catalogue's SQL searches run on a pool of their own (PostgreSQL): SEARCH_POOL_MAX
     * connections, each statement stopped after SEARCH_STATEMENT_TIMEOUT_MS (a French 503), so
     * that a flood of costly searches waits for its own connections and never for those of the
     * book pages, the forms and the events.
     */
    SEARCH_POOL_MAX: z.coerce.number().int().positive().default(4),
    SEARCH_STATEMENT_TIMEOUT_MS: z.coerce.number().int().positive().default(3000),
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
    /** How long a request to an aggregator may take before its outcome counts as unknown. */
    PAYMENT_REQUEST_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
    /** Where the aggregator posts its notifications; the provider's name is appended. */
    PAYMENT_WEBHOOK_BASE_URL: z.string().url().default('http://localhost:8080/api/payments/webhooks'),
    /** eBilling (Digitech: Airtel Money, Moov Money): set to enable the `ebilling` provider (e.g. https://lab.billing-easy.net). */
    PAYMENT_EBILLING_URL: optionalUrl,
    /** The merchant's username and shared key (Basic auth). */
    PAYMENT_EBILLING_USERNAME: z.string().min(1).default(DEV_EBILLING_USERNAME),
    PAYMENT_EBILLING_KEY: z.string().min(1).default(DEV_EBILLING_KEY),
    /** How long an e-bill waits for the payer (eBilling's expiry_period). */
    PAYMENT_EBILLING_EXPIRY_MINUTES: z.coerce.number().int().positive().default(30),
    /** MyPVit (PVit: Airtel Money, Moov Money): set to enable the `mypvit` provider (e.g. https://api.mypvit.pro). */
    PAYMENT_MYPVIT_URL: optionalUrl,
    /** The operation account code (ACC_…) and the API password that renews the secret. */
    PAYMENT_MYPVIT_ACCOUNT: z.string().min(1).default(DEV_MYPVIT_ACCOUNT),
    PAYMENT_MYPVIT_PASSWORD: z.string().min(1).default(DEV_MYPVIT_PASSWORD),
    /** The URL codes MyPVit's dashboard gives each API (Settings → APIs) and the callback URL (Settings → Urls). */
    PAYMENT_MYPVIT_RENEW_CODE: z.string().min(1).default('RENEW'),
    PAYMENT_MYPVIT_REST_CODE: z.string().min(1).default('REST'),
    PAYMENT_MYPVIT_STATUS_CODE: z.string().min(1).default('STATUS'),
    PAYMENT_MYPVIT_CALLBACK_CODE: z.string().min(1).max(12).default('CALLBACK'),
    /** A payment not confirmed within this many hours expires. */
    PAYMENT_PENDING_HOURS: z.coerce.number().positive().default(PAYMENT_PENDING_HOURS),
    /** How often the sweep expires overdue subscriptions and payments and sends missed reminders. */
    SUBSCRIPTION_SWEEP_INTERVAL_MS: z.coerce.number().int().positive().default(60_000),
    /**
     * Payments an aggregator can be asked about: the sweep's period, the first status read after a
     * payment starts (then twice as late each time, up to the maximum), and how long after the
     * provider's expiry it keeps asking (72 h after the payment at most).
     */
    PAYMENT_RECONCILE_INTERVAL_MS: z.coerce.number().int().positive().default(30_000),
    PAYMENT_RECONCILE_FIRST_MS: z.coerce.number().int().positive().default(120_000),
    PAYMENT_RECONCILE_MAX_INTERVAL_MS: z.coerce
      .number()
      .int()
      .positive()
      .default(30 * 60_000),
    PAYMENT_RECONCILE_MARGIN_HOURS: z.coerce.number().positive().max(72).default(24),
    /** How often the exchange matcher looks for pairs and cycles (a new wish also runs it). */
    EXCHANGE_MATCH_INTERVAL_MS: z.coerce.number().int().positive().default(300_000),
    /** How often listings held for a family past their time are offered again. */
    HOLD_RELEASE_INTERVAL_MS: z.coerce.number().int().positive().default(300_000),
  })
  .superRefine((c, ctx) => {
    if (c.NODE_ENV !== 'production') return;
    const refuse = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    // The development credentials are in this repository: anyone could use the merchant's account.
    if (c.PAYMENT_EBILLING_URL) {
      if (c.PAYMENT_EBILLING_USERNAME === DEV_EBILLING_USERNAME)
        refuse('PAYMENT_EBILLING_USERNAME', 'l’identifiant par défaut est refusé en production');
      if (c.PAYMENT_EBILLING_KEY === DEV_EBILLING_KEY)
        refuse('PAYMENT_EBILLING_KEY', 'la clé par défaut est refusée en production');
    }
    if (c.PAYMENT_MYPVIT_URL) {
      if (c.PAYMENT_MYPVIT_ACCOUNT === DEV_MYPVIT_ACCOUNT)
        refuse('PAYMENT_MYPVIT_ACCOUNT', 'le compte par défaut est refusé en production');
      if (c.PAYMENT_MYPVIT_PASSWORD === DEV_MYPVIT_PASSWORD)
        refuse('PAYMENT_MYPVIT_PASSWORD', 'le mot de passe par défaut est refusé en production');
    }
    // Anyone who knows the development secret could sign « paid » notifications.
    if (!c.PAYMENT_AGGREGATOR_URL) return;
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
