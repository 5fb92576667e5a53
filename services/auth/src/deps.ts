import type { Guards, Storage, UnitOfWork } from '@cartable/service-kit';
import type { AuthConfig } from './config.ts';
import type { LoginThrottle } from './domain/login-throttle.ts';
import type { RevocationCache } from './domain/revocation.ts';
import type { Signer } from './domain/signing.ts';

/** What auth's routes and rules need; src/auth.ts wires them for main.ts and the tests alike. */
export interface AuthDeps {
  config: AuthConfig;
  /** Every write: one transaction with its events, the relay kicked once after the commit. */
  uow: UnitOfWork;
  signer: Signer;
  guards: Guards;
  throttle: LoginThrottle;
  /** The gateway's Redis copy of revocations, written through after the database. */
  revocation: RevocationCache;
  /** Profile images. */
  storage: Storage;
}
