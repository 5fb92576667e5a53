/**
 * Saved searches: a member's catalogue searches kept with an alert (at once, daily or weekly),
 * matched against every listing that becomes available, and their one-click unsubscribe. This
 * file is the only one of the module other modules may import.
 */
export { alertSavedSearches, resolveFilters, summarize, unsubscribeTokenOf } from './domain/saved-searches.ts';
export type { SavedSearchRouteDeps } from './routes/deps.ts';
export { savedSearchRoutes } from './routes/saved-searches.ts';
export { createSavedSearches, type SavedSearches } from './saved-searches.ts';
