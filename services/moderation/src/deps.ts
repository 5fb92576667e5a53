import type { Guards, UnitOfWork } from '@cartable/service-kit';
import type { ModerationConfig } from './config.ts';

/** What moderation's routes and rules need; main.ts wires the real ones, tests their own. */
export interface ModerationDeps {
  config: ModerationConfig;
  /** Every write: one transaction with its events, the relay kicked once after the commit. */
  uow: UnitOfWork;
  guards: Guards;
}
