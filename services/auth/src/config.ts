import { baseConfigSchema, internalServiceConfigSchema, storageConfigSchema } from '@cartable/service-kit';
import { z } from 'zod';

export const DEFAULT_ADMIN_EMAIL = 'admin@cartable.ga';
export const DEFAULT_ADMIN_PASSWORD = 'Cartable2026!';

export const authConfigSchema = baseConfigSchema
  .extend(storageConfigSchema.shape)
  // What the callers of its internal routes must present.
  .extend(internalServiceConfigSchema.shape)
  .extend({
    PORT: z.coerce.number().int().default(4001),
    AUTH_DATABASE_URL: z.string().url().optional(),
    /** ES256 private key (PKCS#8 PEM). Generated into DATA_DIR in development; required in production. */
    AUTH_PRIVATE_KEY: z.string().optional(),
    ACCESS_TOKEN_TTL_SECONDS: z.coerce
      .number()
      .int()
      .positive()
      .default(24 * 3600),
    EMAIL_VERIFICATION_TTL_HOURS: z.coerce.number().int().positive().default(48),
    PASSWORD_RESET_TTL_MINUTES: z.coerce.number().int().positive().default(60),
    /** Login throttling per account (domain/login-throttle.ts): free attempts, then growing waits. */
    LOGIN_FREE_ATTEMPTS: z.coerce.number().int().positive().default(10),
    LOGIN_MAX_DELAY_SECONDS: z.coerce.number().int().positive().default(900),
    LOGIN_KNOWN_SOURCE_MAX_DELAY_SECONDS: z.coerce.number().int().positive().default(30),
    LOGIN_WINDOW_MINUTES: z.coerce.number().int().positive().default(15),
    /** argon2 computations at once (one per core), and how many may wait before 503. */
    PASSWORD_HASH_CONCURRENCY: z.coerce.number().int().positive().default(2),
    PASSWORD_HASH_QUEUE: z.coerce.number().int().positive().default(64),
    /** Largest profile image accepted, in bytes. */
    PROFILE_IMAGE_MAX_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(5 * 1024 * 1024),
    REDIS_KEY_PREFIX: z.string().default('cartable:'),
    /** Full rebuild of the gateway's Redis copy of revocations, and pruning of expired ones. */
    REVOCATION_CACHE_REFRESH_SECONDS: z.coerce.number().int().positive().default(60),
    /** Demo members for a development catalogue (npm start sets it); refused in production. */
    SEED_DEMO: z.enum(['0', '1']).default('0'),
    ADMIN_EMAIL: z.string().email().default(DEFAULT_ADMIN_EMAIL),
    ADMIN_PASSWORD: z.string().min(8).default(DEFAULT_ADMIN_PASSWORD),
  })
  .superRefine((c, ctx) => {
    if (c.NODE_ENV !== 'production') return;
    if (!c.AUTH_PRIVATE_KEY)
      ctx.addIssue({ code: 'custom', path: ['AUTH_PRIVATE_KEY'], message: 'obligatoire en production' });
    if (c.SEED_DEMO === '1')
      ctx.addIssue({ code: 'custom', path: ['SEED_DEMO'], message: 'pas de comptes de démonstration en production' });
    if (c.ADMIN_PASSWORD === DEFAULT_ADMIN_PASSWORD)
      ctx.addIssue({
        code: 'custom',
        path: ['ADMIN_PASSWORD'],
        message: 'le mot de passe par défaut est refusé en production',
      });
  });
export type AuthConfig = z.infer<typeof authConfigSchema>;
