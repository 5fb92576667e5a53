import type { Guards } from '@cartable/service-kit';
import type { Listings } from '../../listings/index.ts';
import type { Search } from '../search.ts';

/** What the search routes need: the guards, the module's services, and listings' cards. */
export interface SearchRouteDeps {
  guards: Guards;
  search: Search;
  listings: Pick<Listings, 'cards'>;
}
