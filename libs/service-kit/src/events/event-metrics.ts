import { Counter, Registry } from 'prom-client';

/**
 * Event counters of this process. Consumers start apart from the HTTP app, so they count in
 * their own registry, which /metrics merges with the app's.
 */
export const eventRegistry = new Registry();

export const eventMetrics = {
  handled: new Counter({
    name: 'cartable_events_handled_total',
    help: 'Events handled (their transaction committed), by consumer and type',
    labelNames: ['consumer', 'type'],
    registers: [eventRegistry],
  }),
  retried: new Counter({
    name: 'cartable_events_retried_total',
    help: 'Handler failures that will be retried (transient: database, Redis, SMTP away)',
    labelNames: ['consumer', 'type'],
    registers: [eventRegistry],
  }),
  deadLettered: new Counter({
    name: 'cartable_events_dead_lettered_total',
    help: 'Events sent to the dead-letter stream, by consumer, type and reason',
    labelNames: ['consumer', 'type', 'reason'],
    registers: [eventRegistry],
  }),
  streamGaps: new Counter({
    name: 'cartable_event_stream_gaps_total',
    help: 'Times a stream no longer held what its consumer went through (recreated, reset, lost), by consumer, stream and kind',
    labelNames: ['consumer', 'stream', 'kind'],
    registers: [eventRegistry],
  }),
};
