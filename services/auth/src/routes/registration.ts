import {
  checkEmailVerificationRequestSchema,
  emailRequestSchema,
  emailVerifiedResponseSchema,
  messageResponseSchema,
  passwordCheckRequestSchema,
  passwordCheckResponseSchema,
  registerRequestSchema,
  registerResponseSchema,
  tokenEmailSchema,
  verifyEmailResponseSchema,
} from '@cartable/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthDeps } from '../deps.ts';
import { isCommonPassword } from '../domain/common-passwords.ts';
import { emailVerified, register, resendVerificationEmail, verifyEmail } from '../domain/registration.ts';

const tags = ['registration'];

/** POST /register, /verify-email, /resend-verification-email, /check-email-verification, /password-check. */
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
    {
      onRequest: deps.guards.optionalUser,
      schema: { tags, body: checkEmailVerificationRequestSchema, response: { 200: emailVerifiedResponseSchema } },
    },
    async (request) =>
      emailVerified(deps, request.body.email, {
        check: request.body.verification_check,
        userId: request.claims?.sub,
      }),
  );

  // The forms' strength meter asks while the member types: the list is too big for a phone.
  app.post(
    '/password-check',
    { schema: { tags, body: passwordCheckRequestSchema, response: { 200: passwordCheckResponseSchema } } },
    async (request) => ({ common: isCommonPassword(request.body.password) }),
  );
};
