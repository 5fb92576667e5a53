import { baseConfigSchema, jwksConfigSchema } from '@cartable/service-kit';
import { z } from 'zod';

// Tokens of the notice centre's calls are checked here too (auth's keys, revocation), as in the other services.
export const notificationsConfigSchema = baseConfigSchema.extend(jwksConfigSchema.shape).extend({
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
  /** A mail that cannot be sent is retried this long (hours) after it was written, then abandoned. */
  MAIL_RETRY_HOURS: z.coerce.number().positive().default(48),
  /** Delay after the first failed send; it doubles at each failure, up to MAIL_RETRY_MAX_DELAY_MS. */
  MAIL_RETRY_INITIAL_DELAY_MS: z.coerce.number().int().positive().default(2000),
  MAIL_RETRY_MAX_DELAY_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 60_000),
  /** How often every pending mail is put back in the queue if Redis lost it. */
  MAIL_RECONCILE_INTERVAL_MS: z.coerce.number().int().positive().default(30_000),
  /** Sent and abandoned mails are deleted after this many days. */
  MAIL_RETENTION_DAYS: z.coerce.number().int().positive().default(30),
  /** In-app notices are deleted after this many days, read or not. */
  NOTICE_RETENTION_DAYS: z.coerce.number().int().positive().default(90),
  /** How often saved searches' waiting alerts (instant past 15 min, daily and weekly digests) are sent when due. */
  SAVED_SEARCH_ALERT_INTERVAL_MS: z.coerce.number().int().positive().default(60_000),
  /** How often the school year's reminders (vendre in June, acheter in August) look for members not yet reminded. */
  SCHOOL_YEAR_REMINDER_INTERVAL_MS: z.coerce.number().int().positive().default(3600_000),
  /**
   * The SMS aggregator (Infobip's HTTP API; services/payment-simulator in development). Unset:
   * no SMS channel (a phone cannot be verified, alerts go by e-mail and in-app).
   */
  SMS_PROVIDER_URL: z.string().url().optional(),
  /** Its API key (`Authorization: App …`). */
  SMS_API_KEY: z.string().min(8).default('dev-sms-key'),
  /** The sender ID members see. */
  SMS_SENDER: z.string().min(1).max(11).default('Cartable'),
  /** Shared with the aggregator: its delivery reports and inbound messages come with it (HTTP Basic). */
  SMS_WEBHOOK_SECRET: z.string().min(16).default('dev-sms-webhook-secret'),
  /** Where the aggregator posts delivery reports (default: PUBLIC_URL's /api/notifications/sms/delivery). */
  SMS_DELIVERY_URL: z.string().url().optional(),
  /** A send the aggregator has not answered in this time is retried. */
  SMS_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** A failed send is retried after this, doubling up to SMS_RETRY_MAX_DELAY_MS, for SMS_RETRY_HOURS. */
  SMS_RETRY_INITIAL_DELAY_MS: z.coerce.number().int().positive().default(2000),
  SMS_RETRY_MAX_DELAY_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 60_000),
  SMS_RETRY_HOURS: z.coerce.number().positive().default(6),
  /** No SMS alert leaves between these hours, Libreville time (« 21-7 »: 21:00 to 07:00); « none »: at any hour. */
  SMS_QUIET_HOURS: z
    .string()
    .regex(/^(\d{1,2}-\d{1,2}|none)$/, 'SMS_QUIET_HOURS: deux heures « de-à » (21-7) ou none')
    .default('21-7'),
  /** How often every pending SMS is put back in the queue if Redis lost it. */
  SMS_RECONCILE_INTERVAL_MS: z.coerce.number().int().positive().default(30_000),
});
export type NotificationsConfig = z.infer<typeof notificationsConfigSchema>;
