import {
  currentUserResponseSchema,
  loginAnswerSchema,
  loginRequestSchema,
  messageResponseSchema,
} from '@cartable/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthDeps } from '../deps.ts';
import { currentUser, login, logout } from '../domain/sessions.ts';

const tags = ['session'];
const security = [{ bearer: [] }];

/** POST /login (with the e-mailed second step), POST /logout, GET /user. */
export const sessionRoutes: FastifyPluginAsyncZod<AuthDeps> = async (app, deps) => {
  const { guards } = deps;

  app.post(
    '/login',
    { schema: { tags, body: loginRequestSchema, response: { 200: loginAnswerSchema } } },
    async (request) => login(deps, request.body, request.ip),
  );

  app.post(
    '/logout',
    { onRequest: guards.requireUser, schema: { tags, security, response: { 200: messageResponseSchema } } },
    async (request) => logout(deps, request.claims!),
  );

  app.get(
    '/user',
    { onRequest: guards.requireUser, schema: { tags, security, response: { 200: currentUserResponseSchema } } },
    async (request) => currentUser(deps, request.claims!.sub),
  );
};
