import { baseConfigSchema, jwksConfigSchema } from '@cartable/service-kit';
import { z } from 'zod';

export const catalogConfigSchema = baseConfigSchema.extend(jwksConfigSchema.shape).extend({
  PORT: z.coerce.number().int().default(4002),
  CATALOG_DATABASE_URL: z.string().url().optional(),
});
export type CatalogConfig = z.infer<typeof catalogConfigSchema>;
