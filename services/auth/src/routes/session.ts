import { currentUserResponseSchema, loginRequestSchema, loginResponseSchema, messages } from '@cartable/contracts';
import { HttpError, revokeToken, unauthorized } from '@cartable/service-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuthDeps } from '../deps.ts';
import { verifyPassword } from '../domain/passwords.ts';
import { claimsFor, findUserByEmail, findUserById, toUserDto } from '../domain/users.ts';

/** POST /login, POST /logout, GET /user. */
export const sessionRoutes: FastifyPluginAsyncZod<AuthDeps> = async (app, deps) => {
  const { db, signer, config, guards, redis } = deps;

  app.post(
    '/login',
    { schema: { body: loginRequestSchema, response: { 200: loginResponseSchema } } },
    async (request) => {
      const { email, password } = request.body;
      const row = await findUserByEmail(db, email);
      const valid = await verifyPassword(row?.passwordHash ?? null, password);
      if (!row || !valid) throw new HttpError(401, messages.auth.invalidCredentials);
      const user = await toUserDto(db, row);
      if (!user.email_verified) {
        // SPEC.md section 3: the client reads email_verified and email to go to /register-success.
        throw new HttpError(403, messages.emailNotVerified, undefined, { email_verified: false, email: user.email });
      }
      const { token } = await signer.sign(claimsFor(user), config.ACCESS_TOKEN_TTL_SECONDS);
      return {
        access_token: token,
        token_type: 'Bearer' as const,
        expires_in: config.ACCESS_TOKEN_TTL_SECONDS,
        user,
        two_factor_required: false,
      };
    },
  );

  app.post(
    '/logout',
    { preHandler: guards.requireUser, schema: { response: { 200: z.object({ message: z.string() }) } } },
    async (request) => {
      const claims = request.claims!;
      await revokeToken(redis, config.REDIS_KEY_PREFIX, claims.jti, claims.exp);
      return { message: messages.auth.loggedOut };
    },
  );

  app.get(
    '/user',
    { preHandler: guards.requireUser, schema: { response: { 200: currentUserResponseSchema } } },
    async (request) => {
      const row = await findUserById(db, request.claims!.sub);
      // The account was deleted after the token was issued.
      if (!row) throw unauthorized(messages.tokenInvalid);
      return { user: await toUserDto(db, row) };
    },
  );
};
