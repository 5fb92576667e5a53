import type { Db, Guards, OutboxRelay, Storage } from '@cartable/service-kit';
import type { AuthConfig } from './config.ts';
import type { LoginThrottle } from './domain/login-throttle.ts';
import type { RevocationCache } from './domain/revocation.ts';
import type { Signer } from './domain/signing.ts';

/** What the auth routes need; main.ts wires the real ones, tests may wire their own. */
export interface AuthDeps {
  config: AuthConfig;
  db: Db;
  relay: Pick<OutboxRelay, 'kick'>;
  signer: Signer;
  guards: Guards;
  throttle: LoginThrottle;
  /** The gateway's Redis copy of revocations, written after the database. */
  revocation: RevocationCache;
  /** Profile images. */
  storage: Storage;
}
