/**
 * Exchanges: members' wishes (a class list's book, or a level and subject), matched against the
 * listings open to exchange into pairs and cycles of three, near each other; the suggestions and
 * their answers. This file is the only one of the module other modules may import.
 */
export { sellersWishingItems, wishesForItems } from './db/queries.ts';
export { type ExchangeService, exchangeService as createExchanges, startExchangeMatcher } from './domain/exchanges.ts';
export { findExchanges } from './domain/matcher.ts';
export type { ExchangeRouteDeps } from './routes/deps.ts';
export { exchangeRoutes } from './routes/exchanges.ts';
