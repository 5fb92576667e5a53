import { Redis } from 'ioredis';

/**
 * A Redis connection that keeps retrying in the background; commands fail fast while it is
 * down instead of queueing for ever, and give up after a second when it is there but frozen
 * (BullMQ wants `forQueue`: no per-request retry limit, and its blocking reads take longer).
 * Commands issued in the same tick leave in one write (auto-pipelining): under load, the
 * gateway's revocation reads of concurrent requests share their system calls.
 */
export function createRedis(url: string, { forQueue = false } = {}): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: forQueue ? null : 1,
    enableOfflineQueue: forQueue,
    ...(forQueue ? {} : { commandTimeout: 1000, enableAutoPipelining: true }),
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
}
export type { Redis };
