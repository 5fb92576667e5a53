import type { Redis, Storage, UnitOfWork } from '@cartable/service-kit';
import type { Logger } from 'pino';
import type { CatalogConfig } from './config.ts';
import { forgetListings } from './domain/books.ts';
import { refreshSavedSearches } from './domain/saved-searches.ts';
import { countShownWithin, countWithCategory, countInTowns as listingsInTowns } from './modules/listings/db/queries.ts';
import { MEMBER_STANDING_EVENTS, countInTowns as membersInTowns } from './modules/members/index.ts';
import { createTaxonomy } from './modules/taxonomy/index.ts';

/**
 * The composition root of the catalog service: each module's services built once, and the ports
 * by which one module answers another's questions wired in here, so that no module imports one
 * that depends on it. main.ts calls it for the process, the tests for each app they build.
 */
export function createCatalogModules(options: {
  config: CatalogConfig;
  uow: UnitOfWork;
  redis: Redis | undefined;
  storage: Storage;
  log: Pick<Logger, 'warn'>;
}) {
  const { uow, config } = options;
  const taxonomy = createTaxonomy({
    uow,
    redis: options.redis,
    redisPrefix: config.REDIS_KEY_PREFIX,
    storage: options.storage,
    log: options.log,
    usage: {
      shownListingsWithin: countShownWithin,
      listingsWithCategory: countWithCategory,
      async placedInTowns(db, ids) {
        const [listings, members] = await Promise.all([listingsInTowns(db, ids), membersInTowns(db, ids)]);
        return new Map(ids.map((id) => [id, { listings: listings.get(id) ?? 0, members: members.get(id) ?? 0 }]));
      },
    },
  });
  // Saved searches hold their categories resolved (a level with those below it): a change of the
  // hierarchy resolves them again, after the commit, in the background.
  uow.listen(['catalog.categories.changed'], () => {
    refreshSavedSearches(uow.db, () => taxonomy.categories.view()).catch((err: unknown) =>
      options.log.warn({ err }, 'saved searches not refreshed after a category change'),
    );
  });
  // A member's listings entering or leaving the catalogue change the cached pages.
  uow.listen(MEMBER_STANDING_EVENTS, () => forgetListings());
  return { taxonomy };
}
export type CatalogModules = ReturnType<typeof createCatalogModules>;
