import type { Guards } from '@cartable/service-kit';
import type { Listings } from '../listings.ts';

/** What the listings routes need: the guards, the photo size limit, and the module's services. */
export interface ListingRouteDeps {
  guards: Guards;
  config: { BOOK_IMAGE_MAX_BYTES: number };
  listings: Listings;
}
