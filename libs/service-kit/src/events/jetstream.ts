import { type Producer, streamName, streamSubjects } from '@cartable/contracts';
import { type JetStreamManager, jetstreamManager, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';

export async function connectNats(url: string, name: string): Promise<NatsConnection> {
  return connect({
    servers: url.split(','),
    name,
    // Keep trying for ever: a service outlives a NATS restart.
    maxReconnectAttempts: -1,
    reconnectTimeWait: 1000,
  });
}

/** Window during which JetStream drops a repeated Nats-Msg-Id (the relay may publish twice). */
const DUPLICATE_WINDOW_NS = 2 * 60 * 1e9;

/**
 * Creates the stream of a producer if it does not exist. Producers and consumers both call it,
 * so start-up order does not matter.
 */
export async function ensureStream(jsm: JetStreamManager, producer: Producer | 'dlq', namespace: string) {
  const name = streamName(producer, namespace);
  try {
    await jsm.streams.info(name);
  } catch {
    try {
      await jsm.streams.add({
        name,
        subjects: streamSubjects(producer, namespace),
        retention: RetentionPolicy.Limits,
        storage: StorageType.File,
        duplicate_window: DUPLICATE_WINDOW_NS,
        max_age: 30 * 24 * 3600 * 1e9,
      });
    } catch (err) {
      // Another process created it in between.
      await jsm.streams.info(name).catch(() => {
        throw err;
      });
    }
  }
  return name;
}

export { jetstreamManager };
