import { baseConfigSchema, jwksConfigSchema, storageConfigSchema } from '@cartable/service-kit';
import { z } from 'zod';

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
  });
export type CatalogConfig = z.infer<typeof catalogConfigSchema>;
