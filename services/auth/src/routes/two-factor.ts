import {
  messageResponseSchema,
  passwordOnlySchema,
  recoveryCodesResponseSchema,
  twoFactorConfirmSchema,
  twoFactorDisableSchema,
  twoFactorEnableResponseSchema,
  twoFactorResendSchema,
} from '@cartable/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthDeps } from '../deps.ts';
import {
  confirmTwoFactor,
  disableTwoFactor,
  enableTwoFactor,
  regenerateRecoveryCodes,
  resendCode,
} from '../domain/two-factor.ts';

const tags = ['two-factor'];
const security = [{ bearer: [] }];

/** The e-mailed second step: enable, confirm, disable, resend, regenerate recovery codes. */
export const twoFactorRoutes: FastifyPluginAsyncZod<AuthDeps> = async (app, deps) => {
  const { guards } = deps;
  const authed = { onRequest: guards.requireVerified };

  app.post(
    '/two-factor/enable',
    { ...authed, schema: { tags, security, response: { 200: twoFactorEnableResponseSchema } } },
    async (request) => enableTwoFactor(deps, request.claims!.sub),
  );

  app.post(
    '/two-factor/confirm',
    {
      ...authed,
      schema: { tags, security, body: twoFactorConfirmSchema, response: { 200: recoveryCodesResponseSchema } },
    },
    async (request) => confirmTwoFactor(deps, request.claims!.sub, request.body.code),
  );

  app.post(
    '/two-factor/disable',
    { ...authed, schema: { tags, security, body: twoFactorDisableSchema, response: { 200: messageResponseSchema } } },
    async (request) => disableTwoFactor(deps, request.claims!.sub, request.body.password, request.body.code),
  );

  app.post(
    '/two-factor/resend',
    { schema: { tags, body: twoFactorResendSchema, response: { 200: messageResponseSchema } } },
    async (request) => {
      // At login nobody is signed in yet; turning two-factor on or off needs the owner's token.
      if (request.body.type !== 'login') await guards.authenticate(request);
      return resendCode(deps, request.body.email, request.body.type, request.claims?.sub ?? null);
    },
  );

  app.post(
    '/two-factor/regenerate-codes',
    { ...authed, schema: { tags, security, body: passwordOnlySchema, response: { 200: recoveryCodesResponseSchema } } },
    async (request) => regenerateRecoveryCodes(deps, request.claims!.sub, request.body.password),
  );
};
