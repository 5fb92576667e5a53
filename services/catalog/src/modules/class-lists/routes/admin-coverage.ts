import { classListCoverageQuerySchema, classListCoverageSchema, schoolYearOf } from '@cartable/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ClassListRouteDeps } from './deps.ts';
import { LISTS_PERMISSION } from './public.ts';

const tags = ['class-lists'];
const security = [{ bearer: [] }];

/**
 * « Couverture des listes » (lists.manage): per level and town, the saved lists the listings nearby
 * cover fully, their median saving and the missing titles most wanted. The permission is checked
 * on the request, before the school year is read.
 */
export const adminClassListCoverageRoutes: FastifyPluginAsyncZod<ClassListRouteDeps> = async (
  app,
  { guards, classLists },
) => {
  app.get(
    '/admin/class-lists/coverage',
    {
      onRequest: guards.requirePermission(LISTS_PERMISSION),
      schema: { tags, security, querystring: classListCoverageQuerySchema, response: { 200: classListCoverageSchema } },
    },
    async (request) => classLists.coverage(request.query.school_year ?? schoolYearOf()),
  );
};
