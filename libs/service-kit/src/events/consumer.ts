import {
  type Envelope,
  type EventType,
  envelopeSchema,
  eventSchemas,
  type Producer,
  subjectFor,
} from '@cartable/contracts';
import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  type JsMsg,
  jetstream,
  jetstreamManager,
} from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import type { Logger } from 'pino';
import { ZodError } from 'zod';
import type { Db } from '../db/database.ts';
import { databaseErrorCode } from '../errors.ts';
import { type Transaction, UnitOfWork } from '../unit-of-work.ts';
import { publishDeadLetter, REPLAY_FOR_HEADER } from './dead-letters.ts';
import { eventMetrics } from './event-metrics.ts';
import { ensureStream } from './jetstream.ts';
import { processedEvents } from './tables.ts';

/**
 * Applies one event in the consumer's transaction `tx`; a handler that publishes in turn records
 * its events on `t`, the same transaction through the unit of work (the consumer always passes it).
 */
export type EventHandler<T extends EventType> = (tx: Db, event: Envelope<T>, t?: Transaction) => Promise<void>;
export type EventHandlers = { [T in EventType]?: EventHandler<T> };

/**
 * Thrown by a handler for an event that can never succeed (it contradicts what the consumer
 * holds, in a way no retry will change): dead-lettered at once instead of retried.
 */
export class PermanentEventError extends Error {
  override name = 'PermanentEventError';
}

/** How long transient failures are retried: capped exponential backoff within a budget. */
export interface RetryPolicy {
  /** First redelivery delay; doubles at each attempt. */
  initialDelayMs: number;
  /** Largest delay between two attempts. */
  maxDelayMs: number;
  /** Once an event is this old and still failing, it is dead-lettered (and can be replayed). */
  budgetMs: number;
}

export const defaultRetryPolicy: RetryPolicy = {
  initialDelayMs: 1000,
  maxDelayMs: 5 * 60_000,
  budgetMs: 24 * 3600_000,
};

export interface ConsumerOptions {
  nc: NatsConnection;
  db: Db;
  namespace: string;
  log: Logger;
  /** Durable name: the consuming service. */
  consumer: string;
  producer: Producer;
  handlers: EventHandlers;
  retry?: Partial<RetryPolicy>;
  /** JetStream replicas of the streams it creates when they are missing. */
  streamReplicas?: number;
  /** Called after an event's transaction committed and the message was acknowledged. */
  onHandled?: (event: Envelope) => void;
  /**
   * The service's unit of work: what a handler records is published after the commit (the relay
   * kicked once) and the service's listeners hear of it. One of its own on `db` by default.
   */
  unitOfWork?: UnitOfWork;
  /** How often the stream is compared with what the consumer went through (ms). */
  gapCheckMs?: number;
  /** How long each of its JetStream API requests (streams, consumer, checks) waits for NATS (ms); 5 s if unset. */
  apiTimeoutMs?: number;
}

/**
 * The stream no longer holds what the consumer went through: it was deleted and created again
 * (`recreated`), its sequences went back below what the consumer had delivered (`reset`), or
 * messages it never received are gone, purged or aged out (`lost`).
 */
export interface StreamGap {
  kind: 'recreated' | 'reset' | 'lost';
  stream: string;
  consumer: string;
  at: string;
  /** The highest stream sequence this consumer had received. */
  delivered: number;
  /** The stream's first and last sequences when the gap was seen. */
  first: number;
  last: number;
  /** How many messages it will never see (`lost` only; an upper bound when replicas share the consumer). */
  missed?: number;
}

export interface RunningConsumer {
  stop(): Promise<void>;
  /** Gaps seen since the start, oldest first. */
  gaps(): StreamGap[];
  /** Compares the stream with what the consumer went through now (also done every `gapCheckMs`). */
  checkStream(): Promise<StreamGap | undefined>;
}

/** A catch that turns JetStream's « not found » (of these codes) into null and rethrows anything else. */
const missing =
  (...codes: number[]) =>
  (err: unknown) => {
    if (err instanceof JetStreamApiError && codes.includes(err.code)) return null;
    throw err;
  };

/** Whether a handler's failure will never go away by retrying. */
export function isPermanentFailure(err: unknown): boolean {
  if (err instanceof PermanentEventError || err instanceof ZodError) return true;
  // PostgreSQL class 22: data exceptions (a value the column can never take).
  return databaseErrorCode(err)?.startsWith('22') ?? false;
}

/** Delay before attempt `attempt + 1`: initial × 2^(attempt-1), capped. */
export function retryDelay(policy: RetryPolicy, attempt: number): number {
  return Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** Math.min(30, Math.max(0, attempt - 1)));
}

/**
 * Durable JetStream consumer with explicit acks. Each event is handled in one database
 * transaction that also records its id, so a redelivered event is acknowledged without
 * running the handler twice. Transient failures are retried for hours with capped backoff;
 * an event that can never succeed is dead-lettered at once (published, then acked).
 */
export async function startConsumer(options: ConsumerOptions): Promise<RunningConsumer> {
  const { nc, db, namespace, log, consumer, producer, handlers } = options;
  const uow = options.unitOfWork ?? new UnitOfWork({ db, log });
  const retry: RetryPolicy = { ...defaultRetryPolicy, ...options.retry };
  const jsm = await jetstreamManager(nc, options.apiTimeoutMs ? { timeout: options.apiTimeoutMs } : {});
  const stream = await ensureStream(jsm, producer, namespace, options.streamReplicas);
  await ensureStream(jsm, 'dlq', namespace, options.streamReplicas);
  // One filter on the producer's whole subject space (servers before 2.10 take a single
  // filter); events this consumer has no handler for are acknowledged and skipped.
  const config = {
    durable_name: consumer,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subject: subjectFor(`${producer}.>`, namespace),
    ack_wait: 30 * 1e9,
    // Unlimited: the retry budget above decides when an event stops being retried.
    max_deliver: -1,
    max_ack_pending: 1000,
  };
  async function ensureConsumer() {
    const existing = await jsm.consumers.info(stream, consumer).catch(() => null);
    if (!existing) return jsm.consumers.add(stream, config);
    if (existing.config.max_deliver !== -1 || existing.config.max_ack_pending !== config.max_ack_pending) {
      // Consumers created by earlier builds gave up after 8 deliveries.
      return jsm.consumers.update(stream, consumer, { max_deliver: -1, max_ack_pending: config.max_ack_pending });
    }
    return existing;
  }
  const initial = await ensureConsumer();

  const js = jetstream(nc);
  /** What this process knows it went through: the highest sequence received, the stream's identity. */
  let received = initial.delivered.stream_seq;
  let ackFloor = initial.ack_floor.stream_seq;
  let streamCreated = (await jsm.streams.info(stream)).created;
  const gaps: StreamGap[] = [];
  let stopped = false;
  let messages: Awaited<ReturnType<Awaited<ReturnType<typeof js.consumers.get>>['consume']>>;
  let loop: Promise<void> = Promise.resolve();

  async function deadLetter(msg: JsMsg, type: string, reason: 'invalid' | 'permanent' | 'expired', error: string) {
    await publishDeadLetter(js, namespace, msg.data, {
      consumer,
      type,
      subject: msg.subject,
      stream,
      sequence: msg.info.streamSequence,
      error,
    });
    msg.ack();
    eventMetrics.deadLettered.labels(consumer, type, reason).inc();
    log.error({ type, reason, error, stream, seq: msg.info.streamSequence }, 'event dead-lettered');
  }

  async function handle(msg: JsMsg) {
    const replayFor = msg.headers?.get(REPLAY_FOR_HEADER);
    if (replayFor && replayFor !== consumer) {
      // An operator replayed a dead letter for another consumer of this stream.
      msg.ack();
      return;
    }
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
      const type = msg.subject.slice(namespace ? namespace.length + 1 : 0);
      await deadLetter(msg, type, 'invalid', `invalid event: ${(err as Error).message}`);
      return;
    }
    let fresh = false;
    try {
      await uow.run(async (t) => {
        const tx = t.db;
        const inserted = await tx
          .insert(processedEvents)
          .values({ consumer, eventId: envelope.id })
          .onConflictDoNothing()
          .returning({ id: processedEvents.eventId });
        if (inserted.length === 0) return;
        fresh = true;
        await handler(tx, envelope, t);
      });
    } catch (err) {
      const message = (err as Error).message ?? String(err);
      if (isPermanentFailure(err)) {
        await deadLetter(msg, envelope.type, 'permanent', message);
        return;
      }
      const age = Date.now() - Number(msg.info.timestampNanos) / 1e6;
      if (age > retry.budgetMs) {
        await deadLetter(msg, envelope.type, 'expired', `retried for ${Math.round(age / 60_000)} min: ${message}`);
        return;
      }
      const attempt = msg.info.deliveryCount;
      const delay = retryDelay(retry, attempt);
      eventMetrics.retried.labels(consumer, envelope.type).inc();
      log.warn({ err, type: envelope.type, attempt, delay }, 'event handler failed; will retry');
      msg.nak(delay);
      return;
    }
    msg.ack();
    if (fresh) {
      eventMetrics.handled.labels(consumer, envelope.type).inc();
      options.onHandled?.(envelope);
    }
  }

  /** Whether a pull is running: a restart that failed half-way (NATS away) is tried again at the next check. */
  let pulling = false;
  async function run() {
    const current = await (await js.consumers.get(stream, consumer)).consume({ max_messages: 64 });
    messages = current;
    pulling = true;
    loop = (async () => {
      for await (const msg of current) {
        received = Math.max(received, msg.info.streamSequence);
        await handle(msg).catch((err) => {
          // The dead-letter publish failed (NATS away): keep the event and try again later.
          log.error({ err }, 'event could not be handled');
          msg.nak(5000);
        });
      }
    })();
    void (async () => {
      // The stream or this consumer vanished under the pull: look at once, not at the next tick.
      for await (const status of current.status()) {
        if (['consumer_deleted', 'consumer_not_found', 'stream_not_found'].includes(status.type)) void checkStream();
      }
    })().catch(() => {});
  }

  /** Starts pulling again from a consumer made anew (every message of the stream; handled ones are skipped by id). */
  async function restart(recreate: () => Promise<unknown>) {
    pulling = false;
    await messages.close().catch(() => {});
    await loop;
    await recreate();
    await ensureConsumer();
    const info = await jsm.consumers.info(stream, consumer);
    received = info.delivered.stream_seq;
    ackFloor = info.ack_floor.stream_seq;
    streamCreated = (await jsm.streams.info(stream)).created;
    if (!stopped) await run();
  }

  function report(gap: StreamGap) {
    gaps.push(gap);
    if (gaps.length > 20) gaps.shift();
    eventMetrics.streamGaps.labels(consumer, stream, gap.kind).inc();
    log.error(
      gap,
      `stream gap: ${stream} ${gap.kind} (${consumer} had received up to ${gap.delivered}, the stream now holds ${gap.first}..${gap.last}` +
        `${gap.missed ? `, ${gap.missed} message(s) never received` : ''}); resuming from what the stream holds`,
    );
  }

  let checking: Promise<StreamGap | undefined> | null = null;
  async function compare(): Promise<StreamGap | undefined> {
    if (stopped) return undefined;
    if (!pulling) {
      await restart(async () => {});
      return undefined;
    }
    // What it had received before asking: a message that arrives while the stream is read is
    // newer than what the read says, and must not pass for sequences gone back.
    const seen = received;
    // Only JetStream saying « not found » means gone: a timeout (NATS away) is no gap.
    // The consumer before the stream: a purge moves the consumer's ack floor up to the stream's
    // new first message, so a consumer read after a stream read that predates the purge would
    // carry that floor into the next check and hide the loss for good.
    const consumerInfo = await jsm.consumers
      .info(stream, consumer)
      .catch(missing(JetStreamApiCodes.ConsumerNotFound, JetStreamApiCodes.StreamNotFound));
    const streamInfo = await jsm.streams.info(stream).catch(missing(JetStreamApiCodes.StreamNotFound));
    const at = new Date().toISOString();
    const where = { stream, consumer, at, delivered: seen };
    if (!streamInfo || !consumerInfo || streamInfo.created !== streamCreated) {
      // Deleted (and maybe created again by a publisher): the durable went with it. Whatever the
      // new stream holds is new; the relay feeds it what waits in its outbox.
      const gap: StreamGap = { kind: 'recreated', ...where, first: 0, last: 0 };
      await restart(() => ensureStream(jsm, producer, namespace, options.streamReplicas));
      const now = await jsm.streams.info(stream);
      gap.first = now.state.first_seq;
      gap.last = now.state.last_seq;
      report(gap);
      return gap;
    }
    const { first_seq: first, last_seq: last } = streamInfo.state;
    if (seen > last) {
      // The sequences went back: the server would skip every new message up to what it delivered.
      const gap: StreamGap = { kind: 'reset', ...where, first, last };
      await restart(() => jsm.consumers.delete(stream, consumer).catch(() => false));
      report(gap);
      return gap;
    }
    const known = Math.max(seen, ackFloor);
    ackFloor = consumerInfo.ack_floor.stream_seq;
    if (first - 1 > known && (known > 0 || initial.delivered.stream_seq > 0)) {
      // Messages it never received were purged or aged out; JetStream goes on from the first one left.
      const gap: StreamGap = { kind: 'lost', ...where, first, last, missed: first - 1 - known };
      received = Math.max(received, first - 1);
      report(gap);
      return gap;
    }
    return undefined;
  }

  function checkStream(): Promise<StreamGap | undefined> {
    checking ??= compare()
      .catch((err) => {
        log.warn({ err, stream }, 'stream could not be compared with its consumer; will retry');
        return undefined;
      })
      .finally(() => {
        checking = null;
      });
    return checking;
  }

  await run();
  const timer = setInterval(() => void checkStream(), options.gapCheckMs ?? 10_000);
  timer.unref();

  return {
    gaps: () => [...gaps],
    checkStream,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await checking;
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
        ? async (tx, event, t) => {
            await previous(tx, event, t);
            await handler(tx, event, t);
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
