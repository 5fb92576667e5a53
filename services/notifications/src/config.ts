import { baseConfigSchema } from '@cartable/service-kit';
import { z } from 'zod';

export const notificationsConfigSchema = baseConfigSchema.extend({
  PORT: z.coerce.number().int().default(4005),
  NOTIFICATIONS_DATABASE_URL: z.string().url().optional(),
  SMTP_HOST: z.string().default('127.0.0.1'),
  SMTP_PORT: z.coerce.number().int().default(1025),
  SMTP_SECURE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  SMTP_USER: z.string().optional(),
  SMTP_PASS: z.string().optional(),
  MAIL_FROM: z.string().default('Cartable <no-reply@cartable.ga>'),
  /** BullMQ key prefix; tests use their own so their queues never meet. */
  QUEUE_PREFIX: z.string().default('cartable'),
  MAIL_ATTEMPTS: z.coerce.number().int().positive().default(6),
});
export type NotificationsConfig = z.infer<typeof notificationsConfigSchema>;
