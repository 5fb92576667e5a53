import type { NatsConnection } from '@nats-io/nats-core';
import type { Logger } from 'pino';
import type { ReadinessCheck } from './app.ts';
import type { BaseConfig } from './config.ts';
import { type Database, openDatabase } from './db/database.ts';
import { connectNats } from './events/jetstream.ts';
import { type OutboxRelay, startOutboxRelay } from './events/relay.ts';
import type { Closer } from './lifecycle.ts';
import { createRedis, type Redis } from './redis.ts';

export interface InfrastructureOptions<TSchema extends Record<string, unknown>> {
  name: string;
  config: BaseConfig;
  log: Logger;
  databaseUrl: string | undefined;
  schema: TSchema;
  migrationsFolder: string;
  /** Services that publish events run an outbox relay. */
  publishes?: boolean;
  redis?: boolean;
  /** Contrib extensions for the embedded PGlite fallback (see DatabaseOptions). */
  pgliteExtensions?: Record<string, unknown>;
}

export interface Infrastructure<TSchema extends Record<string, unknown>> {
  database: Database<TSchema>;
  nc: NatsConnection;
  redis: Redis | undefined;
  relay: OutboxRelay | undefined;
  readiness: ReadinessCheck[];
  /** Run at shutdown, after HTTP has drained; put consumer stops before these. */
  closers: Closer[];
}

/** Opens what a service stands on: its database (migrated), NATS, Redis, the outbox relay. */
export async function openInfrastructure<TSchema extends Record<string, unknown>>(
  options: InfrastructureOptions<TSchema>,
): Promise<Infrastructure<TSchema>> {
  const { config, log, name } = options;
  const database = await openDatabase({
    name,
    url: options.databaseUrl,
    dataDir: config.DATA_DIR,
    schema: options.schema,
    migrationsFolder: options.migrationsFolder,
    ...(options.pgliteExtensions ? { pgliteExtensions: options.pgliteExtensions } : {}),
  });
  log.info({ database: database.kind }, 'database ready');
  const nc = await connectNats(config.NATS_URL, name);
  const redis = options.redis ? createRedis(config.REDIS_URL) : undefined;
  const relay = options.publishes
    ? startOutboxRelay({ db: database.db, nc, namespace: config.EVENT_NAMESPACE, log })
    : undefined;

  const readiness: ReadinessCheck[] = [
    { name: 'database', check: () => database.ping() },
    {
      name: 'nats',
      check: async () => {
        if (nc.isClosed()) throw new Error('fermé');
        await nc.flush();
      },
    },
  ];
  if (redis) readiness.push({ name: 'redis', check: () => redis.ping() });

  const closers: Closer[] = [];
  if (relay) closers.push(() => relay.stop());
  closers.push(() => nc.drain());
  if (redis) closers.push(() => redis.quit());
  closers.push(() => database.close());
  return { database, nc, redis, relay, readiness, closers };
}
