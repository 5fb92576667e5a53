import { type Envelope, type EventType, envelopeSchema, eventSchemas, subjectFor } from '@cartable/contracts';
import type { Infrastructure } from '@cartable/service-kit';
import type { Logger } from 'pino';
import type { LiveHub } from '../domain/live.ts';

type NatsConnection = Awaited<Infrastructure<Record<string, unknown>>['nats']>;

/** What the live streams are fed from: the messages sent and read, on every replica. */
const LIVE_TYPES = new Set<EventType>(['messaging.message.sent', 'messaging.message.read']);

/**
 * Feeds the live streams from messaging's own events. The outbox relay (one replica at a time)
 * publishes each event to JetStream on its subject; every replica subscribes to those subjects
 * on NATS core, with no queue group, so each one receives every event and tells its own
 * connections. A core subscription keeps no state and costs nothing while nobody is connected;
 * what it misses while NATS is away is made good by a `resync` event to every client when the
 * connection comes back (the clients fetch once), and the durable consumers, which own
 * correctness, are not involved.
 */
export function startLiveFeed({
  nc,
  namespace,
  hub,
  log,
}: {
  nc: NatsConnection;
  namespace: string;
  hub: LiveHub;
  log: Pick<Logger, 'warn'>;
}) {
  const prefix = namespace ? `${namespace}.` : '';
  const subscription = nc.subscribe(subjectFor('messaging.message.*', namespace), {
    callback: (err, msg) => {
      if (err) {
        log.warn({ err: err.message }, 'live feed subscription error');
        return;
      }
      const type = msg.subject.slice(prefix.length) as EventType;
      if (!LIVE_TYPES.has(type)) return;
      let envelope: Envelope;
      try {
        const raw = envelopeSchema.parse(msg.json());
        envelope = { ...raw, type, data: eventSchemas[type].parse(raw.data) } as Envelope;
      } catch (parseError) {
        // The durable consumers dead-letter it; the live streams just skip it.
        log.warn({ err: (parseError as Error).message, type }, 'live feed skipped an invalid event');
        return;
      }
      hub.dispatch(envelope).catch((dispatchError: unknown) => {
        log.warn({ err: (dispatchError as Error).message, type }, 'live feed could not dispatch an event');
      });
    },
  });

  let stopped = false;
  void (async () => {
    for await (const status of nc.status()) {
      if (stopped) return;
      if (status.type === 'reconnect') hub.resync();
    }
  })();

  return {
    /** Resolves once NATS has registered the subscription (tests wait for it before sending). */
    ready: () => nc.flush(),
    stop() {
      stopped = true;
      subscription.unsubscribe();
    },
  };
}
export type LiveFeed = ReturnType<typeof startLiveFeed>;
