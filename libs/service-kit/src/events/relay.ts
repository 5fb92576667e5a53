import { type EventType, producerOf, subjectFor } from '@cartable/contracts';
import { type JetStreamClient, jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { asc, inArray, isNull, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../db/database.ts';
import { ensureStream } from './jetstream.ts';
import { outbox } from './tables.ts';

export interface RelayOptions {
  db: Db;
  /** The connection, or its promise while NATS is not reachable yet (rows wait in the table). */
  nats: NatsConnection | Promise<NatsConnection>;
  namespace: string;
  log: Logger;
  /** Safety net for rows left behind (crash, NATS down): scan this often even without a kick. */
  pollMs?: number;
  batchSize?: number;
  streamReplicas?: number;
}

export interface OutboxRelay {
  /** Ask for a flush now (call after a transaction that recorded events commits). */
  kick(): void;
  /** Publishes every pending row once; resolves with how many were sent. */
  flush(): Promise<number>;
  stop(): Promise<void>;
}

/** One relay at a time per database, so that events leave in the order they were written. */
const RELAY_LOCK = 'cartable:outbox-relay';

/**
 * Publishes outbox rows to JetStream with `Nats-Msg-Id = event id`, in the order they were
 * written, then marks them sent (the housekeeping drops sent rows after the replay window).
 */
export function startOutboxRelay(options: RelayOptions): OutboxRelay {
  const { db, namespace, log } = options;
  const pollMs = options.pollMs ?? 1000;
  const batchSize = options.batchSize ?? 100;
  let nc: NatsConnection | undefined;
  let js: JetStreamClient | undefined;
  void Promise.resolve(options.nats).then((connection) => {
    nc = connection;
    js = jetstream(connection);
    void flush();
  });
  const ensured = new Set<string>();
  let running: Promise<number> | null = null;
  let again = false;
  let stopped = false;

  async function publishBatch(nc: NatsConnection, js: JetStreamClient): Promise<number> {
    return db.transaction(async (tx) => {
      // Replicas take turns: two relays publishing side by side could reorder one aggregate's
      // events. The lock ends with the transaction; the others find it taken and wait a tick.
      const locked = await tx.execute(sql`select pg_try_advisory_xact_lock(hashtext(${RELAY_LOCK})) as ok`);
      // node-postgres and PGlite both answer { rows }.
      if (!(locked as unknown as { rows: Array<{ ok: boolean }> }).rows[0]?.ok) return 0;
      const rows = await tx
        .select()
        .from(outbox)
        .where(isNull(outbox.sentAt))
        .orderBy(asc(outbox.position))
        .limit(batchSize)
        .for('update', { skipLocked: true });
      if (rows.length === 0) return 0;
      for (const producer of new Set(rows.map((row) => producerOf(row.type as EventType)))) {
        if (!ensured.has(producer)) {
          await ensureStream(await jetstreamManager(nc), producer, namespace, options.streamReplicas);
          ensured.add(producer);
        }
      }
      // Pipelined on one connection, so the stream stores them in this order; msgID becomes the
      // Nats-Msg-Id header: if the batch is retried, JetStream drops the copies it already has.
      await Promise.all(
        rows.map((row) => {
          const envelope = { id: row.id, type: row.type, occurred_at: row.occurredAt.toISOString(), data: row.payload };
          return js.publish(subjectFor(row.type, namespace), JSON.stringify(envelope), { msgID: row.id });
        }),
      );
      await tx
        .update(outbox)
        .set({ sentAt: new Date() })
        .where(
          inArray(
            outbox.id,
            rows.map((row) => row.id),
          ),
        );
      return rows.length;
    });
  }

  async function flushLoop(): Promise<number> {
    let total = 0;
    do {
      again = false;
      let sent: number;
      do {
        if (!nc || !js) return total;
        sent = await publishBatch(nc, js);
        total += sent;
      } while (sent === batchSize && !stopped);
    } while (again && !stopped);
    return total;
  }

  function flush(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = flushLoop()
      .catch((err) => {
        // NATS or the database is away: the rows stay pending and the next tick retries. The
        // stream may have been deleted: the next batch makes sure it exists again.
        ensured.clear();
        log.warn({ err }, 'outbox relay could not publish; will retry');
        return 0;
      })
      .finally(() => {
        running = null;
      });
    return running;
  }

  const timer = setInterval(() => void flush(), pollMs);
  timer.unref();
  void flush();

  return {
    kick: () => void flush(),
    flush,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
