import type { UnitOfWork } from '@cartable/service-kit';
import type { Logger } from 'pino';
import type { CategoryStore } from '../taxonomy/index.ts';
import { alertSavedSearches, savedSearchService } from './domain/saved-searches.ts';

/**
 * The saved searches module's services, built once per process. It reacts to listings' events in
 * their transactions (a listing new, edited, or available again alerts each matching search
 * once), and hears the hierarchy's changes after their commit (the searches' resolved categories
 * are computed again, in the background).
 */
export function createSavedSearches(options: {
  uow: UnitOfWork;
  categories: CategoryStore;
  log: Pick<Logger, 'warn'>;
}) {
  const { uow } = options;
  uow.react('catalog.book.created', async (t, { data }) => {
    await alertSavedSearches(t, data.book_id, data.thumbnail);
  });
  uow.react('catalog.book.updated', async (t, { data }) => {
    await alertSavedSearches(t, data.book_id, data.thumbnail);
  });
  uow.react('catalog.book.status_changed', async (t, { data }) => {
    if (data.status === 'disponible' && data.previous_status !== 'disponible')
      await alertSavedSearches(t, data.book_id, data.thumbnail);
  });
  const service = savedSearchService(uow, options.categories);
  uow.listen(['catalog.categories.changed'], () => {
    service
      .refresh()
      .catch((err: unknown) => options.log.warn({ err }, 'saved searches not refreshed after a category change'));
  });
  return service;
}
export type SavedSearches = ReturnType<typeof createSavedSearches>;
