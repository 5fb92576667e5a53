import type { Guards } from '@cartable/service-kit';
import type { Monetisation } from '../monetisation.ts';

/** What the monetisation routes need: the guards and the module's services. */
export interface MonetisationRouteDeps {
  guards: Guards;
  monetisation: Monetisation;
}
