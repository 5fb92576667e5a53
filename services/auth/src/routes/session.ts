import {
  currentUserResponseSchema,
  loginAnswerSchema,
  loginRequestSchema,
  messageResponseSchema,
  messages,
} from '@cartable/contracts';
import { HttpError, recordEvent, unauthorized, unprocessable } from '@cartable/service-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthDeps } from '../deps.ts';
import { verifyPassword } from '../domain/passwords.ts';
import { recordRevokedToken } from '../domain/revocation.ts';
import { openSession } from '../domain/sessions.ts';
import { checkCode, issueCode, useRecoveryCode } from '../domain/two-factor.ts';
import { findUserByEmail, findUserById, toUserDto } from '../domain/users.ts';

const m = messages.auth;

const tags = ['session'];
const security = [{ bearer: [] }];

/** POST /login (with the e-mailed second step), POST /logout, GET /user. */
export const sessionRoutes: FastifyPluginAsyncZod<AuthDeps> = async (app, deps) => {
  const { db, guards, relay, revocation, throttle } = deps;

  app.post(
    '/login',
    { schema: { tags, body: loginRequestSchema, response: { 200: loginAnswerSchema } } },
    async (request, reply) => {
      const { email, password, code, recovery_code } = request.body;
      const row = await findUserByEmail(db, email);
      if (row) {
        // Counted before the password is checked: concurrent guesses cannot slip past the count.
        const admission = await throttle.admit(row.id, request.ip);
        if (!admission.admitted) {
          reply.header('retry-after', String(admission.retryAfterSeconds));
          throw new HttpError(429, messages.tooManyRequests, undefined, { retry_after: admission.retryAfterSeconds });
        }
      }
      const valid = await verifyPassword(row?.passwordHash ?? null, password);
      if (!row || !valid) throw new HttpError(401, m.invalidCredentials);
      await throttle.passwordAccepted(row.id);
      // Told only to whoever knows the password; before any second step is e-mailed.
      if (row.deactivatedAt) throw new HttpError(403, m.accountDeactivated, undefined, { deactivated: true });
      if (!row.emailVerifiedAt) {
        // SPEC.md section 3: the client reads email_verified and email to go to /register-success.
        throw new HttpError(403, messages.emailNotVerified, undefined, { email_verified: false, email: row.email });
      }

      if (row.twoFactorEnabledAt) {
        if (recovery_code) {
          if (!(await useRecoveryCode(db, row.id, recovery_code))) {
            await throttle.fail(row.id);
            throw unprocessable({ recovery_code: [m.recoveryCodeInvalid] }, m.recoveryCodeInvalid);
          }
        } else if (code) {
          const result = await checkCode(db, row.id, 'login', code);
          if (result !== 'ok') {
            await throttle.fail(row.id);
            const message = result === 'too_many' ? m.codeTooManyAttempts : m.codeInvalid;
            throw unprocessable({ code: [message] }, message);
          }
        } else {
          // Password accepted: e-mail a code and ask for it.
          await db.transaction(async (tx) => {
            const issued = await issueCode(tx, row.id, 'login');
            await recordEvent(tx, 'auth.two_factor.code_requested', {
              user_id: row.id,
              name: row.name,
              email: row.email,
              code: issued.code,
              purpose: 'login',
              expires_at: issued.expiresAt.toISOString(),
            });
          });
          relay.kick();
          return { two_factor_required: true as const, code_sent: true, message: m.codeSent, email: row.email };
        }
      }

      await throttle.succeeded(db, row.id, request.ip);
      return openSession(deps, db, row);
    },
  );

  app.post(
    '/logout',
    { preHandler: guards.requireUser, schema: { tags, security, response: { 200: messageResponseSchema } } },
    async (request) => {
      const claims = request.claims!;
      await recordRevokedToken(db, claims);
      await revocation.tokenRevoked(claims.jti, claims.exp);
      return { message: m.loggedOut };
    },
  );

  app.get(
    '/user',
    { preHandler: guards.requireUser, schema: { tags, security, response: { 200: currentUserResponseSchema } } },
    async (request) => {
      const row = await findUserById(db, request.claims!.sub);
      // The account was deleted after the token was issued.
      if (!row) throw unauthorized(messages.tokenInvalid);
      return { user: await toUserDto(db, row) };
    },
  );
};
