import { Redis } from 'ioredis';

/**
 * A Redis connection that keeps retrying in the background; commands fail fast while it is
 * down instead of queueing for ever (BullMQ wants `forQueue`: no per-request retry limit).
 */
export function createRedis(url: string, { forQueue = false } = {}): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: forQueue ? null : 1,
    enableOfflineQueue: forQueue,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
}
export type { Redis };
