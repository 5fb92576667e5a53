import { baseConfigSchema, jwksConfigSchema, storageConfigSchema } from '@cartable/service-kit';
import { z } from 'zod';

export const gatewayConfigSchema = baseConfigSchema
  .extend(jwksConfigSchema.shape)
  .extend(storageConfigSchema.shape)
  .extend({
    PORT: z.coerce.number().int().default(8080),
    CATALOG_URL: z.string().url().default('http://127.0.0.1:4002'),
    MESSAGING_URL: z.string().url().default('http://127.0.0.1:4003'),
    MODERATION_URL: z.string().url().default('http://127.0.0.1:4004'),
    /** Origins allowed to call the API from a browser, comma-separated; PUBLIC_URL by default. */
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
    /** A service that accepted the connection but does not answer: give up after this. */
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
