import {
  classListBasketsSchema,
  classListProposalRequestSchema,
  classListWriteResponseSchema,
  idParamsSchema,
  classListMessages as m,
  messageResponseSchema,
  savedClassListRequestSchema,
  savedClassListResponseSchema,
  savedClassListsResponseSchema,
} from '@cartable/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ClassListRouteDeps } from './deps.ts';

const tags = ['class-lists'];
const security = [{ bearer: [] }];

/** Members' proposals and saved lists (« Mes listes »). */
export const memberClassListRoutes: FastifyPluginAsyncZod<ClassListRouteDeps> = async (app, { guards, classLists }) => {
  const { families } = classLists;

  app.post(
    '/class-lists/proposals',
    {
      onRequest: guards.requireVerified,
      schema: { tags, security, body: classListProposalRequestSchema, response: { 201: classListWriteResponseSchema } },
    },
    async (request, reply) => {
      const list = await classLists.propose(request.claims!.sub, request.body);
      return reply.status(201).send({ message: m.proposed, list });
    },
  );

  app.get(
    '/my-class-lists',
    { onRequest: guards.requireUser, schema: { tags, security, response: { 200: savedClassListsResponseSchema } } },
    async (request) => ({ data: await families.savedLists(request.claims!.sub) }),
  );

  app.put(
    '/my-class-lists/:id',
    {
      onRequest: guards.requireUser,
      schema: {
        tags,
        security,
        params: idParamsSchema,
        body: savedClassListRequestSchema,
        response: { 200: savedClassListResponseSchema },
      },
    },
    async (request) => {
      const { city_id: cityId, owned_item_ids: owned } = request.body;
      const saved = await families.save(request.claims!.sub, request.params.id, cityId ?? null, owned);
      return { message: m.saved, saved };
    },
  );

  app.get(
    '/my-class-lists/:id/baskets',
    {
      onRequest: guards.requireUser,
      schema: { tags, security, params: idParamsSchema, response: { 200: classListBasketsSchema } },
    },
    async (request) => families.baskets(request.claims!.sub, request.params.id),
  );

  app.delete(
    '/my-class-lists/:id',
    {
      onRequest: guards.requireUser,
      schema: { tags, security, params: idParamsSchema, response: { 200: messageResponseSchema } },
    },
    async (request) => {
      await families.unsave(request.claims!.sub, request.params.id);
      return { message: m.unsaved };
    },
  );
};
