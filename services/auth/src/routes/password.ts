import {
  changePasswordRequestSchema,
  changePasswordResponseSchema,
  emailRequestSchema,
  messageResponseSchema,
  messages,
  resetPasswordRequestSchema,
  tokenEmailSchema,
  validateResetTokenResponseSchema,
} from '@cartable/contracts';
import { HttpError, recordEvent, unprocessable } from '@cartable/service-kit';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { users } from '../db/schema.ts';
import type { AuthDeps } from '../deps.ts';
import { recordActivity } from '../domain/account-events.ts';
import {
  cancelAccountTokens,
  consumeAccountToken,
  findAccountToken,
  issueAccountToken,
} from '../domain/account-tokens.ts';
import { refuseCommonPassword } from '../domain/common-passwords.ts';
import { hashPassword, verifyPassword } from '../domain/passwords.ts';
import { openSession, revokeAllSessions } from '../domain/sessions.ts';
import { findUserByEmail, findUserById } from '../domain/users.ts';

const m = messages.auth;
const messageSchema = messageResponseSchema;
const tags = ['password'];

/** POST /forgot-password, /validate-reset-token, /reset-password; PUT /user/change-password. */
export const passwordRoutes: FastifyPluginAsyncZod<AuthDeps> = async (app, deps) => {
  const { db, config, relay, guards, throttle } = deps;

  app.post(
    '/forgot-password',
    { schema: { tags, body: emailRequestSchema, response: { 200: messageSchema } } },
    async (request) => {
      const user = await findUserByEmail(db, request.body.email);
      // SPEC.md section 8 asks for this answer; the gateway's rate limit keeps it from being a directory.
      if (!user) throw new HttpError(404, m.accountNotFound);
      await db.transaction(async (tx) => {
        const { token, expiresAt } = await issueAccountToken(
          tx,
          user.id,
          'reset_password',
          config.PASSWORD_RESET_TTL_MINUTES,
        );
        await recordEvent(tx, 'auth.password_reset.requested', {
          user_id: user.id,
          name: user.name,
          email: user.email,
          token,
          expires_at: expiresAt.toISOString(),
        });
      });
      relay.kick();
      return { message: m.resetEmailSent };
    },
  );

  app.post(
    '/validate-reset-token',
    { schema: { tags, body: tokenEmailSchema, response: { 200: validateResetTokenResponseSchema } } },
    async (request) => {
      const { token, email } = request.body;
      if (!(await findAccountToken(db, token, 'reset_password', email))) throw new HttpError(400, m.resetLinkInvalid);
      return { valid: true as const, email };
    },
  );

  app.post(
    '/reset-password',
    { schema: { tags, body: resetPasswordRequestSchema, response: { 200: messageSchema } } },
    async (request) => {
      const { token, email, password } = request.body;
      // The link first: an invented token costs a lookup, never an argon2 hash.
      if (!(await findAccountToken(db, token, 'reset_password', email))) throw new HttpError(400, m.resetLinkInvalid);
      refuseCommonPassword(password);
      const passwordHash = await hashPassword(password);
      const revoked = await db.transaction(async (tx) => {
        const userId = await consumeAccountToken(tx, token, 'reset_password', email);
        if (!userId) return null;
        const now = new Date();
        // Following the link proves the address, so it also counts as verifying it.
        const [row] = await tx
          .update(users)
          .set({
            passwordHash,
            updatedAt: now,
            emailVerifiedAt: (await findUserById(tx, userId))?.emailVerifiedAt ?? now,
          })
          .where(eq(users.id, userId))
          .returning();
        if (!row) return null;
        await recordEvent(tx, 'auth.password.changed', {
          user_id: row.id,
          name: row.name,
          email: row.email,
          changed_at: now.toISOString(),
          reason: 'reset',
        });
        await recordActivity(tx, row.id, 'password.reset', 'Mot de passe réinitialisé');
        // Every session ends and the account unlocks, with the new password.
        await throttle.clear(tx, row.id);
        return revokeAllSessions(tx, [row.id]);
      });
      if (!revoked) throw new HttpError(400, m.resetLinkInvalid);
      relay.kick();
      await revoked.publish(deps);
      return { message: m.passwordReset };
    },
  );

  app.put(
    '/user/change-password',
    {
      preHandler: guards.requireUser,
      schema: {
        tags,
        security: [{ bearer: [] }],
        body: changePasswordRequestSchema,
        response: { 200: changePasswordResponseSchema },
      },
    },
    async (request) => {
      const { current_password, password } = request.body;
      const row = await findUserById(db, request.claims!.sub);
      if (!row) throw new HttpError(401, messages.tokenInvalid);
      if (!(await verifyPassword(row.passwordHash, current_password))) {
        throw unprocessable({ current_password: [m.currentPasswordWrong] }, m.currentPasswordWrong);
      }
      if (current_password === password) throw unprocessable({ password: [m.samePassword] }, m.samePassword);
      refuseCommonPassword(password);
      const passwordHash = await hashPassword(password);
      const revoked = await db.transaction(async (tx) => {
        const now = new Date();
        await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, row.id));
        // A reset link sent before no longer resets anything: the password it was for is gone.
        await cancelAccountTokens(tx, row.id, 'reset_password');
        await recordEvent(tx, 'auth.password.changed', {
          user_id: row.id,
          name: row.name,
          email: row.email,
          changed_at: now.toISOString(),
          reason: 'change',
        });
        await recordActivity(tx, row.id, 'password.changed', 'Mot de passe modifié');
        // Every token in force stops working; the caller gets a fresh one with the new version.
        return revokeAllSessions(tx, [row.id]);
      });
      relay.kick();
      await revoked.publish(deps);
      const updated = revoked.rows[0];
      if (!updated) throw new HttpError(401, messages.tokenInvalid);
      const session = await openSession(deps, db, updated);
      return { message: m.passwordChanged, access_token: session.access_token };
    },
  );
};
