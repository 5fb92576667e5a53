import type { Guards } from '@cartable/service-kit';
import type { SavedSearches } from '../saved-searches.ts';

/** What the saved searches routes need: the guards and the module's services. */
export interface SavedSearchRouteDeps {
  guards: Guards;
  savedSearches: SavedSearches;
}
