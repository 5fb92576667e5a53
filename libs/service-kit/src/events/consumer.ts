import {
  type Envelope,
  type EventType,
  envelopeSchema,
  eventSchemas,
  type Producer,
  subjectFor,
} from '@cartable/contracts';
import { AckPolicy, DeliverPolicy, type JsMsg, jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import type { Logger } from 'pino';
import type { Db } from '../db/database.ts';
import { ensureStream } from './jetstream.ts';
import { processedEvents } from './tables.ts';

export type EventHandler<T extends EventType> = (tx: Db, event: Envelope<T>) => Promise<void>;
export type EventHandlers = { [T in EventType]?: EventHandler<T> };

export interface ConsumerOptions {
  nc: NatsConnection;
  db: Db;
  namespace: string;
  log: Logger;
  /** Durable name: the consuming service. */
  consumer: string;
  producer: Producer;
  handlers: EventHandlers;
  /** Deliveries before a message goes to the dead-letter subject. */
  maxDeliver?: number;
  /** Delay before each redelivery, by attempt; the last value repeats. */
  backoffMs?: number[];
}

export interface RunningConsumer {
  stop(): Promise<void>;
}

/** Subject of the dead-letter copies: `dlq.<consumer>.<event type>`. */
export const deadLetterSubject = (consumer: string, type: string, namespace: string) =>
  subjectFor(`dlq.${consumer}.${type}`, namespace);

/**
 * Durable JetStream consumer with explicit acks. Each event is handled in one database
 * transaction that also records its id, so a redelivered event is acknowledged without
 * running the handler twice. Failures are retried with backoff, then dead-lettered.
 */
export async function startConsumer(options: ConsumerOptions): Promise<RunningConsumer> {
  const { nc, db, namespace, log, consumer, producer, handlers } = options;
  const maxDeliver = options.maxDeliver ?? 8;
  const backoff = options.backoffMs ?? [500, 2000, 5000, 15_000, 30_000, 60_000];
  const jsm = await jetstreamManager(nc);
  const stream = await ensureStream(jsm, producer, namespace);
  await ensureStream(jsm, 'dlq', namespace);
  // One filter on the producer's whole subject space (servers before 2.10 take a single
  // filter); events this consumer has no handler for are acknowledged and skipped.
  const config = {
    durable_name: consumer,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subject: subjectFor(`${producer}.>`, namespace),
    ack_wait: 30 * 1e9,
    max_ack_pending: 256,
  };
  const existing = await jsm.consumers.info(stream, consumer).catch(() => null);
  if (!existing) await jsm.consumers.add(stream, config);

  const js = jetstream(nc);
  const messages = await (await js.consumers.get(stream, consumer)).consume({ max_messages: 64 });

  async function deadLetter(msg: JsMsg, type: string, reason: string) {
    await js.publish(deadLetterSubject(consumer, type, namespace), msg.data, {
      msgID: `${consumer}:${msg.info.streamSequence}`,
      ...(msg.headers ? { headers: msg.headers } : {}),
    });
    log.error({ type, reason, seq: msg.info.streamSequence }, 'event dead-lettered');
    msg.term(reason);
  }

  async function handle(msg: JsMsg) {
    let envelope: Envelope;
    let handler: EventHandler<EventType> | undefined;
    try {
      const raw = envelopeSchema.parse(msg.json());
      handler = handlers[raw.type as EventType] as EventHandler<EventType> | undefined;
      if (!handler) {
        // Not this consumer's business (or a type newer than this build): skip it.
        msg.ack();
        return;
      }
      const schema = eventSchemas[raw.type as EventType];
      envelope = { ...raw, type: raw.type as EventType, data: schema.parse(raw.data) } as Envelope;
    } catch (err) {
      // A malformed event will never succeed: straight to the dead letters.
      await deadLetter(msg, msg.subject, `invalid event: ${(err as Error).message}`);
      return;
    }
    try {
      await db.transaction(async (tx) => {
        const fresh = await tx
          .insert(processedEvents)
          .values({ consumer, eventId: envelope.id })
          .onConflictDoNothing()
          .returning({ id: processedEvents.eventId });
        if (fresh.length === 0) return;
        await handler(tx, envelope);
      });
      msg.ack();
    } catch (err) {
      const attempt = msg.info.deliveryCount;
      if (attempt >= maxDeliver) {
        await deadLetter(msg, envelope.type, (err as Error).message);
        return;
      }
      const delay = backoff[Math.min(attempt - 1, backoff.length - 1)] ?? 1000;
      log.warn({ err, type: envelope.type, attempt, delay }, 'event handler failed; will retry');
      msg.nak(delay);
    }
  }

  const loop = (async () => {
    for await (const msg of messages) {
      await handle(msg).catch((err) => {
        log.error({ err }, 'event could not be handled');
        msg.nak(1000);
      });
    }
  })();

  return {
    async stop() {
      await messages.close();
      await loop;
    },
  };
}

/** Several projections on one consumer: for each event type, every handler runs, in order, in the same transaction. */
export function combineHandlers(...sets: EventHandlers[]): EventHandlers {
  const combined: Record<string, EventHandler<EventType>> = {};
  for (const set of sets) {
    for (const [type, handler] of Object.entries(set) as Array<[EventType, EventHandler<EventType>]>) {
      const previous = combined[type];
      combined[type] = previous
        ? async (tx, event) => {
            await previous(tx, event);
            await handler(tx, event);
          }
        : handler;
    }
  }
  return combined as EventHandlers;
}

/**
 * One durable consumer per producer a service listens to, all under the service's name; returns
 * the closers to run at shutdown (before the NATS connection drains).
 */
export async function startConsumers(
  options: Omit<ConsumerOptions, 'producer' | 'handlers'>,
  byProducer: Partial<Record<Producer, EventHandlers>>,
): Promise<Array<() => Promise<void>>> {
  const running: RunningConsumer[] = [];
  for (const [producer, handlers] of Object.entries(byProducer) as Array<[Producer, EventHandlers]>) {
    running.push(await startConsumer({ ...options, producer, handlers }));
  }
  return running.map((consumer) => () => consumer.stop());
}
