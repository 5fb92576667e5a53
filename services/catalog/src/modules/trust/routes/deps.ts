import type { Guards } from '@cartable/service-kit';
import type { Monetisation } from '../../monetisation/index.ts';
import type { Trust } from '../trust.ts';

/** What the trust routes need: the guards, the module's services, and the seller badge. */
export interface TrustRouteDeps {
  guards: Guards;
  trust: Trust;
  monetisation: Pick<Monetisation, 'sellerBadge'>;
}
