import { sharedHitsReportSchema, sharedHitsResponseSchema } from '@cartable/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ListingRouteDeps } from './deps.ts';

/** A book page's path as the gateway reports it: /books/{id}, with or without a query string. */
const BOOK_PAGE = /^\/books\/(\d+)(?:\?|$)/;

/**
 * POST /internal/shared-hits: the visitors the gateway served a book page it kept
 * (gateway/src/plugins/shared-answers.ts); each view counts as if this service had served it,
 * with the same rules (once per visitor, book and day; a limit per address). Not a path of the
 * gateway's route table, and only the gateway's pods reach this service (k8s NetworkPolicy
 * `catalog`): a browser cannot report views.
 */
export const sharedHitRoutes: FastifyPluginAsyncZod<ListingRouteDeps> = async (app, { listings }) => {
  const { views } = listings;
  app.post(
    '/internal/shared-hits',
    // One report a second at most per gateway: the access line would say nothing new.
    {
      logLevel: 'warn',
      schema: { tags: ['internal'], body: sharedHitsReportSchema, response: { 200: sharedHitsResponseSchema } },
    },
    async (request) => {
      for (const hit of request.body.hits) {
        const id = Number(BOOK_PAGE.exec(hit.path)?.[1]);
        // Another path is none of this service's views; an id past int4 is no book.
        if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) continue;
        views.add(id, { address: hit.ip, userAgent: hit.user_agent });
      }
      return { received: request.body.hits.length };
    },
  );
};
