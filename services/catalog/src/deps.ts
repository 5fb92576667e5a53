import type { Db, Guards, OutboxRelay, Storage, UnitOfWork } from '@cartable/service-kit';
import type { CatalogModules } from './catalog.ts';
import type { CatalogConfig } from './config.ts';
import type { ListingIndexFeed } from './domain/listing-index-feed.ts';
import type { SubscriptionJobs } from './domain/subscription-jobs.ts';
import type { ViewCounter } from './domain/view-counter.ts';
import type { CategoryStore } from './modules/taxonomy/index.ts';
import type { PaymentProviders } from './payments/provider.ts';

export interface CatalogDeps extends CatalogModules {
  config: CatalogConfig;
  db: Db;
  uow: UnitOfWork;
  guards: Guards;
  storage: Storage;
  categoryStore: CategoryStore;
  relay: Pick<OutboxRelay, 'kick'>;
  /** Detail views, written in batches. */
  views: Pick<ViewCounter, 'add'>;
  /** Payment providers (payments/provider.ts); built from the config when absent. */
  payments?: PaymentProviders;
  /** The listings' filter columns and shown rows in memory (PostgreSQL only); absent: every page from SQL. */
  listings?: Pick<ListingIndexFeed, 'select' | 'rows'>;
  /** BullMQ delayed jobs at subscriptions' ends; absent: the periodic sweep alone. */
  subscriptionJobs?: SubscriptionJobs;
}
