import type { Guards, UnitOfWork } from '@cartable/service-kit';
import type { MessagingConfig } from './config.ts';
import type { LiveHub } from './domain/live.ts';

/** What messaging's routes and rules need; main.ts wires the real ones, tests their own. */
export interface MessagingDeps {
  config: MessagingConfig;
  /** Every write: one transaction with its events, the relay kicked once after the commit. */
  uow: UnitOfWork;
  guards: Guards;
  /** Who is connected to GET /messages/stream here (fed by src/events/live-feed.ts); a new one by default. */
  live?: LiveHub;
}
