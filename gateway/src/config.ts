import { baseConfigSchema, jwksConfigSchema, storageConfigSchema } from '@cartable/service-kit';
import { z } from 'zod';

/** `<requests>/<seconds>`, e.g. `20/60`: at most 20 requests a minute per client address. */
const limit = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value, ctx) => {
      const match = /^(\d+)\/(\d+)$/.exec(value.trim());
      if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) {
        ctx.addIssue({ code: 'custom', message: 'format attendu : <requêtes>/<secondes>, par exemple 20/60' });
        return z.NEVER;
      }
      return { max: Number(match[1]), windowMs: Number(match[2]) * 1000 };
    });

/** Per-address limits of the route table (plugins/app/route-table.ts), by name. */
export const rateLimitSettings = {
  RATE_LIMIT_REGISTER: limit('20/600'),
  RATE_LIMIT_LOGIN: limit('20/60'),
  RATE_LIMIT_VERIFICATION_RESEND: limit('10/900'),
  RATE_LIMIT_CHECK_EMAIL_VERIFICATION: limit('30/600'),
  RATE_LIMIT_FORGOT_PASSWORD: limit('10/900'),
  RATE_LIMIT_RESET_PASSWORD: limit('10/900'),
  RATE_LIMIT_VALIDATE_RESET_TOKEN: limit('30/900'),
  RATE_LIMIT_TWO_FACTOR_RESEND: limit('10/900'),
  RATE_LIMIT_CONTACT: limit('10/600'),
  RATE_LIMIT_CAPTCHA: limit('30/600'),
  RATE_LIMIT_UPLOADS: limit('30/600'),
};

export const gatewayConfigSchema = baseConfigSchema
  .extend(jwksConfigSchema.shape)
  .extend(storageConfigSchema.shape)
  .extend({
    PORT: z.coerce.number().int().default(8080),
    ...rateLimitSettings,
    CATALOG_URL: z.string().url().default('http://127.0.0.1:4002'),
    MESSAGING_URL: z.string().url().default('http://127.0.0.1:4003'),
    MODERATION_URL: z.string().url().default('http://127.0.0.1:4004'),
    NOTIFICATIONS_URL: z.string().url().default('http://127.0.0.1:4005'),
    /** Other origins allowed to call the API from a browser, comma-separated; none by default (same origin only). */
    CORS_ORIGINS: z.string().optional(),
    /** Largest JSON body, and largest multipart upload (3 images of 5 MB with room for fields). */
    JSON_BODY_LIMIT: z.coerce
      .number()
      .int()
      .positive()
      .default(1024 * 1024),
    UPLOAD_BODY_LIMIT: z.coerce
      .number()
      .int()
      .positive()
      .default(20 * 1024 * 1024),
    /** An upstream that accepted the connection but does not respond: given up after this. */
    UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
    /** Browser settings served at /app-config.json (SPEC.md section 9: 30 min, warning 60 s before). */
    INACTIVITY_LIMIT_MS: z.coerce.number().int().positive().default(1_800_000),
    INACTIVITY_WARNING_MS: z.coerce.number().int().positive().default(60_000),
    /** Currency of prices: XOF as SPEC.md says; Gabon's own is XAF (both print FCFA). */
    CURRENCY: z.enum(['XOF', 'XAF']).default('XOF'),
    /** Built frontends, relative to the working directory (the repository root by default). */
    FRONTENDS_DIR: z.string().default('frontends'),
  });
export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
