import type { Envelope, Producer } from '@cartable/contracts';
import type { NatsConnection } from '@nats-io/nats-core';
import type { Logger } from 'pino';
import type { ReadinessCheck } from './app.ts';
import { type BaseConfig, ConfigError } from './config.ts';
import { type Database, type Db, openDatabase } from './db/database.ts';
import { type EventHandlers, type RunningConsumer, type StreamGap, startConsumer } from './events/consumer.ts';
import { connectNats } from './events/jetstream.ts';
import { type OutboxRelay, startOutboxRelay } from './events/relay.ts';
import { deleteOlderThan, type HousekeepingTask, startHousekeeping } from './housekeeping.ts';
import type { Closer } from './lifecycle.ts';
import { createRedis, type Redis } from './redis.ts';
import { UnitOfWork } from './unit-of-work.ts';

export interface InfrastructureOptions<TSchema extends Record<string, unknown>> {
  name: string;
  config: BaseConfig;
  log: Logger;
  databaseUrl: string | undefined;
  schema: TSchema;
  migrationsFolder: string;
  /** Reference data and demo data: run after the migrations, under the same lock. */
  seed?: (db: Db<TSchema>) => Promise<void>;
  /** Services that publish events run an outbox relay. */
  publishes?: boolean;
  redis?: boolean;
  /** Contrib extensions for the embedded PGlite fallback (see DatabaseOptions). */
  pgliteExtensions?: Record<string, unknown>;
  /** Periodic deletions of what only grows (besides processed events and sent outbox rows). */
  housekeeping?: HousekeepingTask[];
}

export interface Infrastructure<TSchema extends Record<string, unknown>> {
  database: Database<TSchema>;
  /** Resolves once NATS answers (never rejects: the connection keeps retrying). */
  nats: Promise<NatsConnection>;
  redis: Redis | undefined;
  relay: OutboxRelay | undefined;
  /** Writes in one transaction with their events; tells listeners of every committed event, consumed ones too. */
  unitOfWork: UnitOfWork;
  /**
   * Starts this service's durable consumers, one per producer, as soon as NATS is reachable:
   * a service started while NATS is down serves HTTP and catches up on events later.
   */
  startConsumers(
    byProducer: Partial<Record<Producer, EventHandlers>>,
    options?: { onHandled?: (event: Envelope) => void },
  ): void;
  /** /ready: the database decides; NATS and the consumers are reported, never fatal. */
  readiness: ReadinessCheck[];
  /** Run at shutdown, after HTTP has drained: consumers, relay, NATS, Redis, database. */
  closers: Closer[];
}

/** Opens what a service stands on: its database (migrated, seeded), NATS, Redis, the outbox relay. */
export async function openInfrastructure<TSchema extends Record<string, unknown>>(
  options: InfrastructureOptions<TSchema>,
): Promise<Infrastructure<TSchema>> {
  const { config, log, name } = options;
  if (!options.databaseUrl && config.NODE_ENV === 'production') {
    // Embedded PGlite in a pod's emptyDir would lose every write at the next restart.
    throw new ConfigError(
      `Configuration invalide :\n  - ${name.toUpperCase()}_DATABASE_URL: obligatoire en production`,
    );
  }
  const database = await openDatabase({
    name,
    url: options.databaseUrl,
    dataDir: config.DATA_DIR,
    schema: options.schema,
    migrationsFolder: options.migrationsFolder,
    poolSize: config.DATABASE_POOL_MAX,
    lockTimeoutMs: config.DB_LOCK_TIMEOUT_MS,
    statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS,
    connectTimeoutMs: config.DB_CONNECT_TIMEOUT_MS,
    onRetry: (err, attempt, delayMs) =>
      log.warn({ err, attempt, delayMs }, 'database unreachable at start-up; will retry'),
    ...(options.seed ? { seed: options.seed } : {}),
    ...(options.pgliteExtensions ? { pgliteExtensions: options.pgliteExtensions } : {}),
  });
  log.info({ database: database.kind }, 'database ready');

  let nc: NatsConnection | undefined;
  const nats = connectNats(config.NATS_URL, name).then((connection) => {
    nc = connection;
    log.info('NATS connected');
    return connection;
  });
  const redis = options.redis ? createRedis(config.REDIS_URL) : undefined;
  const streamReplicas = config.NATS_STREAM_REPLICAS;
  const relay = options.publishes
    ? startOutboxRelay({ db: database.db, nats, namespace: config.EVENT_NAMESPACE, log, streamReplicas })
    : undefined;

  const unitOfWork = new UnitOfWork({ db: database.db, relay, log });

  const consumers: RunningConsumer[] = [];
  let expectedConsumers = 0;
  let stopping = false;
  function startConsumers(
    byProducer: Partial<Record<Producer, EventHandlers>>,
    extra: { onHandled?: (event: Envelope) => void } = {},
  ) {
    for (const [producer, handlers] of Object.entries(byProducer) as Array<[Producer, EventHandlers]>) {
      expectedConsumers++;
      void (async () => {
        const connection = await nats;
        // JetStream may still be electing a leader or the stream may be unreachable: retry.
        for (let attempt = 1; !stopping; attempt++) {
          try {
            consumers.push(
              await startConsumer({
                nc: connection,
                db: database.db,
                namespace: config.EVENT_NAMESPACE,
                log,
                consumer: name,
                producer,
                handlers,
                unitOfWork,
                streamReplicas,
                gapCheckMs: config.EVENT_GAP_CHECK_MS,
                retry: {
                  initialDelayMs: config.EVENT_RETRY_INITIAL_DELAY_MS,
                  maxDelayMs: config.EVENT_RETRY_MAX_DELAY_MS,
                  budgetMs: config.EVENT_RETRY_HOURS * 3600_000,
                },
                onHandled: (event) => {
                  unitOfWork.consumed(event);
                  extra.onHandled?.(event);
                },
              }),
            );
            return;
          } catch (err) {
            log.warn({ err, producer, attempt }, 'consumer could not start; will retry');
            await new Promise((r) => setTimeout(r, Math.min(30_000, 1000 * attempt)));
          }
        }
      })();
    }
  }

  const housekeeping = startHousekeeping({
    db: database.db,
    log,
    tasks: [
      ...processedEventsRetention(config.PROCESSED_EVENTS_RETENTION_DAYS),
      // Sent rows stay this long so that a stream lost or cut can be fed again (refeed).
      ...(options.publishes
        ? [{ name: 'outbox', run: deleteOlderThan('outbox', 'sent_at', config.OUTBOX_REPLAY_DAYS) }]
        : []),
      ...(options.housekeeping ?? []),
    ],
  });

  const readiness: ReadinessCheck[] = [
    { name: 'database', check: () => database.ping() },
    {
      name: 'nats',
      critical: false,
      check: async () => {
        if (!nc) throw new Error('connexion en cours');
        if (nc.isClosed()) throw new Error('fermé');
        await nc.flush();
      },
    },
    {
      name: 'events',
      critical: false,
      check: async () => {
        if (consumers.length < expectedConsumers) throw new Error('consommateurs en attente de NATS');
      },
    },
  ];
  readiness.push({
    name: 'event_gaps',
    critical: false,
    // Said for an hour after it was seen: long enough for a person or an alert to read it.
    check: async () => {
      const recent = consumers
        .flatMap((c) => c.gaps())
        .filter((gap) => Date.now() - Date.parse(gap.at) < 3600_000)
        .map(describeGap);
      if (recent.length) throw new Error(recent.join(' ; '));
    },
  });
  if (redis) readiness.push({ name: 'redis', critical: false, check: () => redis.ping() });

  const closers: Closer[] = [
    async () => {
      stopping = true;
      await Promise.all(consumers.map((c) => c.stop()));
    },
    () => housekeeping.stop(),
  ];
  if (relay) closers.push(() => relay.stop());
  closers.push(async () => {
    if (nc) await nc.drain();
  });
  if (redis) closers.push(() => redis.quit());
  closers.push(() => database.close());
  return { database, nats, redis, relay, unitOfWork, startConsumers, readiness, closers };
}

const gapWords = {
  recreated: 'recréé',
  reset: 'remis à zéro',
  lost: 'amputé de messages jamais reçus',
} as const;

/** A stream gap in a line of French for /ready's body. */
const describeGap = (gap: StreamGap) =>
  `flux ${gap.stream} ${gapWords[gap.kind]} à ${gap.at} (${gap.consumer} avait reçu jusqu'à ${gap.delivered}, ` +
  `le flux tient ${gap.first}..${gap.last}${gap.missed ? `, ${gap.missed} perdu(s)` : ''})`;

/**
 * An event older than its stream's max age (30 days) can no longer be redelivered, so its
 * idempotency record is kept a little longer, then dropped.
 */
const processedEventsRetention = (days: number): HousekeepingTask[] => [
  { name: 'processed_events', run: deleteOlderThan('processed_events', 'processed_at', days) },
];
