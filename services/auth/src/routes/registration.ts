import {
  emailRequestSchema,
  emailVerifiedResponseSchema,
  messageResponseSchema,
  registerRequestSchema,
  registerResponseSchema,
  tokenEmailSchema,
  verifyEmailResponseSchema,
} from '@cartable/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthDeps } from '../deps.ts';
import { emailVerified, register, resendVerificationEmail, verifyEmail } from '../domain/registration.ts';

const tags = ['registration'];

/** POST /register, /verify-email, /resend-verification-email, /check-email-verification. */
export const registrationRoutes: FastifyPluginAsyncZod<AuthDeps> = async (app, deps) => {
  app.post(
    '/register',
    { schema: { tags, body: registerRequestSchema, response: { 201: registerResponseSchema } } },
    async (request, reply) => reply.status(201).send(await register(deps, request.body)),
  );

  app.post(
    '/verify-email',
    { schema: { tags, body: tokenEmailSchema, response: { 200: verifyEmailResponseSchema } } },
    async (request) => verifyEmail(deps, request.body.token, request.body.email),
  );

  app.post(
    '/resend-verification-email',
    { schema: { tags, body: emailRequestSchema, response: { 200: messageResponseSchema } } },
    async (request) => resendVerificationEmail(deps, request.body.email),
  );

  app.post(
    '/check-email-verification',
    { schema: { tags, body: emailRequestSchema, response: { 200: emailVerifiedResponseSchema } } },
    async (request) => emailVerified(deps, request.body.email),
  );
};
