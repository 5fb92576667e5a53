/**
 * Class lists: the books of each level's list for a school year (official, or a school's own),
 * « Ma liste » (a list against the available listings), the lists families save and the alerts
 * when a book they miss is listed near them, members' proposals, and the back office. This file
 * is the only one of the module other modules may import.
 */
import type { FastifyPluginAsync } from 'fastify';
import { adminClassListRoutes } from './routes/admin.ts';
import { adminClassListCoverageRoutes } from './routes/admin-coverage.ts';
import { adminClassListItemRoutes } from './routes/admin-items.ts';
import type { ClassListRouteDeps } from './routes/deps.ts';
import { memberClassListRoutes } from './routes/members.ts';
import { publicClassListRoutes } from './routes/public.ts';

export { type ClassLists, createClassLists } from './class-lists.ts';
export { availableExactly, itemRelation, itemTitles, latestOfficialDemand, TITLE_PREFIX_MIN } from './db/queries.ts';
export { ILLUSTRATIVE_NOTE, SEED_SCHOOL_YEAR, seedClassListDefinitions, seedClassLists } from './db/seed.ts';
export { classListIsbnBooks } from './domain/isbn-books.ts';
export { classListLots } from './domain/lots.ts';
export type { ClassListRouteDeps };

export const classListRoutes: FastifyPluginAsync<ClassListRouteDeps> = async (app, deps) => {
  for (const routes of [
    publicClassListRoutes,
    memberClassListRoutes,
    adminClassListRoutes,
    adminClassListItemRoutes,
    adminClassListCoverageRoutes,
  ])
    await app.register(routes, deps);
};
