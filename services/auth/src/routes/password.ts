import {
  changePasswordRequestSchema,
  changePasswordResponseSchema,
  emailRequestSchema,
  messageResponseSchema,
  resetPasswordRequestSchema,
  tokenEmailSchema,
  validateResetTokenResponseSchema,
} from '@cartable/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthDeps } from '../deps.ts';
import { changePassword, forgotPassword, resetPassword, validateResetToken } from '../domain/password-changes.ts';

const tags = ['password'];

/** POST /forgot-password, /validate-reset-token, /reset-password; PUT /user/change-password. */
export const passwordRoutes: FastifyPluginAsyncZod<AuthDeps> = async (app, deps) => {
  app.post(
    '/forgot-password',
    { schema: { tags, body: emailRequestSchema, response: { 200: messageResponseSchema } } },
    async (request) => forgotPassword(deps, request.body.email),
  );

  app.post(
    '/validate-reset-token',
    { schema: { tags, body: tokenEmailSchema, response: { 200: validateResetTokenResponseSchema } } },
    async (request) => validateResetToken(deps, request.body.token, request.body.email),
  );

  app.post(
    '/reset-password',
    { schema: { tags, body: resetPasswordRequestSchema, response: { 200: messageResponseSchema } } },
    async (request) => resetPassword(deps, request.body),
  );

  app.put(
    '/user/change-password',
    {
      onRequest: deps.guards.requireUser,
      schema: {
        tags,
        security: [{ bearer: [] }],
        body: changePasswordRequestSchema,
        response: { 200: changePasswordResponseSchema },
      },
    },
    async (request) => changePassword(deps, request.claims!.sub, request.body),
  );
};
