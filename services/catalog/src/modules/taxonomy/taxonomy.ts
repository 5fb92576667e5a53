import type { EventType } from '@cartable/contracts';
import type { Redis, Storage, UnitOfWork } from '@cartable/service-kit';
import type { Logger } from 'pino';
import { bannerService } from './domain/banners.ts';
import { categoryAdmin } from './domain/categories.ts';
import { createCategoryStore } from './domain/category-store.ts';
import { townAdmin, townReads } from './domain/towns.ts';
import type { TaxonomyUsage } from './domain/usage.ts';

/**
 * What the cached hierarchy depends on: its own changes, and every change that moves a listing
 * into or out of the public catalogue (its book counts), a member's deactivation or deletion
 * included.
 */
export const CATEGORY_VIEW_DEPENDS_ON: readonly EventType[] = [
  'catalog.categories.changed',
  'catalog.book.created',
  'catalog.book.updated',
  'catalog.book.status_changed',
  'catalog.book.deleted',
  'catalog.book.moderated',
  'auth.user.deactivated',
  'auth.user.reactivated',
  'auth.user.deleted',
];

/** The taxonomy module's services, built once per process (main.ts) and handed to its routes. */
export function createTaxonomy(options: {
  uow: UnitOfWork;
  redis: Redis | undefined;
  redisPrefix: string;
  storage: Storage;
  log: Pick<Logger, 'warn'>;
  usage: TaxonomyUsage;
}) {
  const { uow, usage } = options;
  const categories = createCategoryStore({
    db: uow.db,
    redis: options.redis,
    prefix: options.redisPrefix,
    log: options.log,
    usage,
  });
  uow.listen(CATEGORY_VIEW_DEPENDS_ON, () => categories.clear());
  return {
    categories,
    categoryAdmin: categoryAdmin(uow, categories, usage),
    towns: townReads(uow),
    townAdmin: townAdmin(uow, usage),
    banners: bannerService(uow.db, options.storage),
  };
}
export type Taxonomy = ReturnType<typeof createTaxonomy>;
