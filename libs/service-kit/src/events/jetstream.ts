import { type Producer, streamName, streamSubjects } from '@cartable/contracts';
import { type JetStreamManager, jetstreamManager, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';

/**
 * Connects to NATS, waiting for it if it is not there yet: a service started while NATS is down
 * serves its HTTP API and starts its event work once NATS answers. Keeps reconnecting for ever.
 */
export async function connectNats(url: string, name: string): Promise<NatsConnection> {
  return connect({
    servers: url.split(','),
    name,
    waitOnFirstConnect: true,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 1000,
  });
}

/** Window during which JetStream drops a repeated Nats-Msg-Id (the relay may publish twice). */
const DUPLICATE_WINDOW_NS = 2 * 60 * 1e9;

/**
 * Creates the stream of a producer if it does not exist, with `replicas` copies (3 on a NATS
 * cluster, so a node's loss loses no event). Producers and consumers both call it, so start-up
 * order does not matter.
 */
export async function ensureStream(jsm: JetStreamManager, producer: Producer | 'dlq', namespace: string, replicas = 1) {
  const name = streamName(producer, namespace);
  const info = await jsm.streams.info(name).catch(() => null);
  if (info) {
    if (info.config.num_replicas < replicas) {
      // A stream created before the cluster grew: JetStream adds the replicas in place.
      await jsm.streams.update(name, { num_replicas: replicas });
    }
    return name;
  }
  try {
    await jsm.streams.add({
      name,
      subjects: streamSubjects(producer, namespace),
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      duplicate_window: DUPLICATE_WINDOW_NS,
      num_replicas: replicas,
      max_age: 30 * 24 * 3600 * 1e9,
    });
  } catch (err) {
    // Another process created it in between.
    await jsm.streams.info(name).catch(() => {
      throw err;
    });
  }
  return name;
}

export { jetstreamManager };
