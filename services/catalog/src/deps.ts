import type { Db, Guards } from '@cartable/service-kit';
import type { CatalogConfig } from './config.ts';

export interface CatalogDeps {
  config: CatalogConfig;
  db: Db;
  guards: Guards;
}
