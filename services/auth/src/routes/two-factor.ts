import {
  messageResponseSchema,
  messages,
  passwordOnlySchema,
  recoveryCodesResponseSchema,
  twoFactorConfirmSchema,
  twoFactorDisableSchema,
  twoFactorEnableResponseSchema,
  twoFactorResendSchema,
} from '@cartable/contracts';
import { type Db, HttpError, recordEvent, unprocessable } from '@cartable/service-kit';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { recoveryCodes, users } from '../db/schema.ts';
import type { AuthDeps } from '../deps.ts';
import { recordActivity } from '../domain/account-events.ts';
import { verifyPassword } from '../domain/passwords.ts';
import { type CodePurpose, checkCode, hasPendingCode, issueCode, replaceRecoveryCodes } from '../domain/two-factor.ts';
import { findUserByEmail, findUserById, type UserRow } from '../domain/users.ts';

const m = messages.auth;
const messageSchema = messageResponseSchema;
const codesSchema = recoveryCodesResponseSchema;
const tags = ['two-factor'];
const security = [{ bearer: [] }];

/** The e-mailed second step: enable, confirm, disable, resend, regenerate recovery codes. */
export const twoFactorRoutes: FastifyPluginAsyncZod<AuthDeps> = async (app, deps) => {
  const { db, guards, relay } = deps;
  const authed = { preHandler: guards.requireVerified };

  async function sendCode(tx: Db, row: UserRow, purpose: CodePurpose) {
    const { code, expiresAt } = await issueCode(tx, row.id, purpose);
    await recordEvent(tx, 'auth.two_factor.code_requested', {
      user_id: row.id,
      name: row.name,
      email: row.email,
      code,
      purpose,
      expires_at: expiresAt.toISOString(),
    });
  }

  async function currentRow(userId: string) {
    const row = await findUserById(db, userId);
    if (!row) throw new HttpError(401, messages.tokenInvalid);
    return row;
  }

  function refuseCode(result: Awaited<ReturnType<typeof checkCode>>) {
    const message = result === 'too_many' ? m.codeTooManyAttempts : m.codeInvalid;
    return unprocessable({ code: [message] }, message);
  }

  app.post(
    '/two-factor/enable',
    { ...authed, schema: { tags, security, response: { 200: twoFactorEnableResponseSchema } } },
    async (request) => {
      const row = await currentRow(request.claims!.sub);
      if (row.twoFactorEnabledAt) throw new HttpError(409, m.twoFactorAlreadyOn);
      await db.transaction((tx) => sendCode(tx, row, 'enable'));
      relay.kick();
      return { message: m.codeSent, code_sent: true as const };
    },
  );

  app.post(
    '/two-factor/confirm',
    { ...authed, schema: { tags, security, body: twoFactorConfirmSchema, response: { 200: codesSchema } } },
    async (request) => {
      const row = await currentRow(request.claims!.sub);
      if (row.twoFactorEnabledAt) throw new HttpError(409, m.twoFactorAlreadyOn);
      const result = await checkCode(db, row.id, 'enable', request.body.code);
      if (result !== 'ok') throw refuseCode(result);
      const codes = await db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({ twoFactorEnabledAt: new Date(), updatedAt: new Date() })
          .where(eq(users.id, row.id));
        await recordActivity(tx, row.id, 'two_factor.enabled', 'Vérification en deux étapes activée', '/profile');
        return replaceRecoveryCodes(tx, row.id);
      });
      return { message: m.twoFactorEnabled, recovery_codes: codes };
    },
  );

  app.post(
    '/two-factor/disable',
    { ...authed, schema: { tags, security, body: twoFactorDisableSchema, response: { 200: messageSchema } } },
    async (request) => {
      const row = await currentRow(request.claims!.sub);
      if (!row.twoFactorEnabledAt) throw new HttpError(409, m.twoFactorOff);
      if (!(await verifyPassword(row.passwordHash, request.body.password))) {
        throw unprocessable({ password: [m.passwordWrong] }, m.passwordWrong);
      }
      // The code is optional (SPEC.md section 5); when given it must be right.
      if (request.body.code) {
        const result = await checkCode(db, row.id, 'disable', request.body.code);
        if (result !== 'ok') throw refuseCode(result);
      }
      await db.transaction(async (tx) => {
        await tx.update(users).set({ twoFactorEnabledAt: null, updatedAt: new Date() }).where(eq(users.id, row.id));
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, row.id));
        await recordActivity(tx, row.id, 'two_factor.disabled', 'Vérification en deux étapes désactivée', '/profile');
      });
      return { message: m.twoFactorDisabled };
    },
  );

  app.post(
    '/two-factor/resend',
    { schema: { tags, body: twoFactorResendSchema, response: { 200: messageSchema } } },
    async (request) => {
      const { email, type } = request.body;
      const row = await findUserByEmail(db, email);
      // Only an account that is waiting for a code gets a new one: this cannot be used to mail anyone.
      if (type === 'login') {
        if (!row || !(await hasPendingCode(db, row.id, 'login')))
          throw unprocessable({ code: [m.noPendingCode] }, m.noPendingCode);
      } else {
        // Turning two-factor on or off: only for the signed-in owner of the address.
        await guards.authenticate(request);
        if (!row || row.id !== request.claims!.sub) throw new HttpError(403, messages.forbidden);
        if (type === 'disable' && !row.twoFactorEnabledAt) throw new HttpError(409, m.twoFactorOff);
        if (type === 'enable' && row.twoFactorEnabledAt) throw new HttpError(409, m.twoFactorAlreadyOn);
      }
      await db.transaction((tx) => sendCode(tx, row, type));
      relay.kick();
      return { message: m.codeResent };
    },
  );

  app.post(
    '/two-factor/regenerate-codes',
    { ...authed, schema: { tags, security, body: passwordOnlySchema, response: { 200: codesSchema } } },
    async (request) => {
      const row = await currentRow(request.claims!.sub);
      if (!row.twoFactorEnabledAt) throw new HttpError(409, m.twoFactorOff);
      if (!(await verifyPassword(row.passwordHash, request.body.password))) {
        throw unprocessable({ password: [m.passwordWrong] }, m.passwordWrong);
      }
      const codes = await db.transaction((tx) => replaceRecoveryCodes(tx, row.id));
      return { message: m.recoveryCodesRegenerated, recovery_codes: codes };
    },
  );
};
