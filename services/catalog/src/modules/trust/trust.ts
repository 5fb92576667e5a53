import type { Storage, UnitOfWork } from '@cartable/service-kit';
import type { Listings } from '../listings/index.ts';
import { dealService } from './domain/deals.ts';
import { favouriteService } from './domain/favourites.ts';
import { ratingService } from './domain/ratings.ts';

/** The trust module's services (deals, ratings, favourites), built once per process and handed to its routes. */
export function createTrust(options: { uow: UnitOfWork; storage: Storage; listings: Pick<Listings, 'cards'> }) {
  const { uow, storage } = options;
  return {
    deals: dealService(uow, storage),
    ratings: ratingService(uow, storage),
    favourites: favouriteService(uow, options.listings),
  };
}
export type Trust = ReturnType<typeof createTrust>;
