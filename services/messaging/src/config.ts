import { baseConfigSchema, jwksConfigSchema } from '@cartable/service-kit';
import { z } from 'zod';

export const messagingConfigSchema = baseConfigSchema.extend(jwksConfigSchema.shape).extend({
  PORT: z.coerce.number().int().default(4003),
  MESSAGING_DATABASE_URL: z.string().url().optional(),
});
export type MessagingConfig = z.infer<typeof messagingConfigSchema>;
