import { type EventType, producerOf, subjectFor } from '@cartable/contracts';
import { type JetStreamClient, jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { and, asc, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../db/database.ts';
import { ensureStream } from './jetstream.ts';
import { outbox } from './tables.ts';

export interface RelayOptions {
  db: Db;
  nc: NatsConnection;
  namespace: string;
  log: Logger;
  /** Safety net for rows left behind (crash, NATS down): scan this often even without a kick. */
  pollMs?: number;
  batchSize?: number;
  /** Sent rows are kept this long so a stream can be re-fed after a crash. */
  retentionHours?: number;
}

export interface OutboxRelay {
  /** Ask for a flush now (call after a transaction that recorded events commits). */
  kick(): void;
  /** Publishes every pending row once; resolves with how many were sent. */
  flush(): Promise<number>;
  stop(): Promise<void>;
}

/** Publishes outbox rows to JetStream with `Nats-Msg-Id = event id`, then marks them sent. */
export function startOutboxRelay(options: RelayOptions): OutboxRelay {
  const { db, nc, namespace, log } = options;
  const pollMs = options.pollMs ?? 1000;
  const batchSize = options.batchSize ?? 100;
  const retentionMs = (options.retentionHours ?? 72) * 3600 * 1000;
  const js: JetStreamClient = jetstream(nc);
  const ensured = new Set<string>();
  let running: Promise<number> | null = null;
  let again = false;
  let stopped = false;
  let lastPrune = 0;

  async function publishBatch(): Promise<number> {
    return db.transaction(async (tx) => {
      // SKIP LOCKED lets several replicas relay side by side without sending a row twice at once.
      const rows = await tx
        .select()
        .from(outbox)
        .where(isNull(outbox.sentAt))
        .orderBy(asc(outbox.occurredAt))
        .limit(batchSize)
        .for('update', { skipLocked: true });
      let sent = 0;
      for (const row of rows) {
        const producer = producerOf(row.type as EventType);
        if (!ensured.has(producer)) {
          await ensureStream(await jetstreamManager(nc), producer, namespace);
          ensured.add(producer);
        }
        const envelope = { id: row.id, type: row.type, occurred_at: row.occurredAt.toISOString(), data: row.payload };
        // msgID becomes the Nats-Msg-Id header: JetStream drops a second copy of the same event.
        await js.publish(subjectFor(row.type, namespace), JSON.stringify(envelope), { msgID: row.id });
        await tx.update(outbox).set({ sentAt: new Date() }).where(sql`${outbox.id} = ${row.id}`);
        sent++;
      }
      return sent;
    });
  }

  async function prune() {
    if (Date.now() - lastPrune < 60_000) return;
    lastPrune = Date.now();
    await db.delete(outbox).where(and(isNotNull(outbox.sentAt), lt(outbox.sentAt, new Date(Date.now() - retentionMs))));
  }

  async function flushLoop(): Promise<number> {
    let total = 0;
    do {
      again = false;
      let sent: number;
      do {
        sent = await publishBatch();
        total += sent;
      } while (sent === batchSize && !stopped);
    } while (again && !stopped);
    await prune();
    return total;
  }

  function flush(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = flushLoop()
      .catch((err) => {
        // NATS or the database is away: the rows stay pending and the next tick retries.
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
