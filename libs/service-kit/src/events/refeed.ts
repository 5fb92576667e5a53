import { type Producer, subjectFor } from '@cartable/contracts';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { and, asc, eq, gte, isNotNull, like, type SQL } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { ensureStream } from './jetstream.ts';
import { outbox } from './tables.ts';

export interface RefeedOptions {
  /** The producer's own database: its outbox holds what it published for the replay window. */
  db: Db;
  nc: NatsConnection;
  namespace: string;
  producer: Producer;
  /** Only events that occurred at or after this time. */
  since?: Date;
  /** Only this event and those written after it (by outbox position). */
  fromId?: string;
  batchSize?: number;
  streamReplicas?: number;
}

export interface RefeedResult {
  /** Rows of the outbox sent again. */
  published: number;
  /** Of those, how many the stream already held within its duplicate window (dropped by JetStream). */
  duplicates: number;
}

/**
 * Sends a producer's already-published events again, from its outbox, in the order they were
 * written, with their original ids as Nats-Msg-Id: JetStream drops what it still holds within its
 * duplicate window, and every consumer skips by id what it already applied (processed_events).
 * So a stream lost or cut is made whole again without an event applied twice. Rows the relay has
 * not sent yet are left to it.
 */
export async function refeedStream(options: RefeedOptions): Promise<RefeedResult> {
  const { db, nc, namespace, producer } = options;
  const batchSize = options.batchSize ?? 500;
  await ensureStream(await jetstreamManager(nc), producer, namespace, options.streamReplicas);
  const js = jetstream(nc);
  const conditions: SQL[] = [isNotNull(outbox.sentAt), like(outbox.type, `${producer}.%`)];
  if (options.since) conditions.push(gte(outbox.occurredAt, options.since));
  if (options.fromId) {
    const [from] = await db
      .select({ position: outbox.position })
      .from(outbox)
      .where(and(like(outbox.type, `${producer}.%`), eq(outbox.id, options.fromId)));
    if (!from) throw new Error(`événement ${options.fromId} introuvable dans l'outbox de ${producer}`);
    conditions.push(gte(outbox.position, from.position));
  }
  const result: RefeedResult = { published: 0, duplicates: 0 };
  let after = 0;
  for (;;) {
    const rows = await db
      .select()
      .from(outbox)
      .where(and(...conditions, gte(outbox.position, after)))
      .orderBy(asc(outbox.position))
      .limit(batchSize);
    if (rows.length === 0) break;
    // Pipelined on one connection: the stream stores them in this order.
    const acks = await Promise.all(
      rows.map((row) =>
        js.publish(
          subjectFor(row.type, namespace),
          JSON.stringify({ id: row.id, type: row.type, occurred_at: row.occurredAt.toISOString(), data: row.payload }),
          { msgID: row.id },
        ),
      ),
    );
    result.published += rows.length;
    result.duplicates += acks.filter((ack) => ack.duplicate).length;
    after = rows[rows.length - 1]!.position + 1;
    if (rows.length < batchSize) break;
  }
  return result;
}
