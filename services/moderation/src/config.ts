import { baseConfigSchema, jwksConfigSchema } from '@cartable/service-kit';
import { z } from 'zod';

export const moderationConfigSchema = baseConfigSchema.extend(jwksConfigSchema.shape).extend({
  PORT: z.coerce.number().int().default(4004),
  MODERATION_DATABASE_URL: z.string().url().optional(),
});
export type ModerationConfig = z.infer<typeof moderationConfigSchema>;
