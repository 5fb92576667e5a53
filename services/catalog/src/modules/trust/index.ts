/**
 * Trust: deals between members (a sale, an exchange, a gift, confirmed by the buyer), the ratings
 * that follow them, favourites, and who wrote to whom about a listing (messaging's messages,
 * projected: a deal is proposed only to such a member). This file is the only one of the module
 * other modules may import.
 */
import type { FastifyPluginAsync } from 'fastify';
import { soldInConfirmedDeal, soldPrices } from './db/queries.ts';
import type { TrustRouteDeps } from './routes/deps.ts';
import { favouriteRoutes } from './routes/favourites.ts';
import { ratingRoutes } from './routes/ratings.ts';
import { transactionRoutes } from './routes/transactions.ts';

export { bookContactsProjection } from './events/book-contacts-projection.ts';
export { createTrust, type Trust } from './trust.ts';
export type { TrustRouteDeps };

/** For listings: whether a confirmed deal sold a listing (it then stays sold), and what a book sold for. */
export const dealSales = { soldInConfirmedDeal, soldPrices };
export const trustRoutes: FastifyPluginAsync<TrustRouteDeps> = async (app, deps) => {
  for (const routes of [transactionRoutes, ratingRoutes, favouriteRoutes]) await app.register(routes, deps);
};
