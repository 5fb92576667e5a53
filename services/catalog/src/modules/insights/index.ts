/**
 * Insights: the back office's figures of the catalogue, each module answering for its own data.
 * It owns no table. This file is the only one of the module other modules may import.
 */
export { catalogFigures } from './domain/catalog-figures.ts';
export { type InsightRouteDeps, insightRoutes } from './routes/admin-stats.ts';
