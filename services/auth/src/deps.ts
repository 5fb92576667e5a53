import type { Db, Guards, OutboxRelay, Redis, Storage } from '@cartable/service-kit';
import type { AuthConfig } from './config.ts';
import type { LoginThrottle } from './domain/login-throttle.ts';
import type { Signer } from './domain/signing.ts';

/** What the auth routes need; main.ts wires the real ones, tests may wire their own. */
export interface AuthDeps {
  config: AuthConfig;
  db: Db;
  redis: Redis;
  relay: Pick<OutboxRelay, 'kick'>;
  signer: Signer;
  guards: Guards;
  throttle: LoginThrottle;
  /** Profile images. */
  storage: Storage;
}
