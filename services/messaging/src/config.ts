import { baseConfigSchema, jwksConfigSchema } from '@cartable/service-kit';
import { z } from 'zod';

export const messagingConfigSchema = baseConfigSchema.extend(jwksConfigSchema.shape).extend({
  PORT: z.coerce.number().int().default(4003),
  MESSAGING_DATABASE_URL: z.string().url().optional(),
  /**
   * GET /messages/stream: a comment this often keeps mobile carriers' proxies from cutting an
   * idle connection (many cut at 30–60 s), and the token is checked again at each one.
   */
  MESSAGE_STREAM_HEARTBEAT_MS: z.coerce.number().int().min(100).default(25_000),
  /** Live connections of one member on one replica (tabs, phone and computer); beyond, 429. */
  MESSAGE_STREAM_MAX_PER_MEMBER: z.coerce.number().int().min(1).default(5),
  /** Live connections on one replica; beyond, 429 (the client falls back to polling). */
  MESSAGE_STREAM_MAX_CONNECTIONS: z.coerce.number().int().min(1).default(2000),
});
export type MessagingConfig = z.infer<typeof messagingConfigSchema>;
