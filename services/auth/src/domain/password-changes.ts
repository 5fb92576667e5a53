import { messages } from '@cartable/contracts';
import { badRequest, notFound, unauthorized, unprocessable } from '@cartable/service-kit';
import * as queries from '../db/queries.ts';
import type { AuthDeps } from '../deps.ts';
import { passwordChanged, passwordResetRequested } from '../events/published.ts';
import { consumeAccountToken, findAccountToken, issueAccountToken } from './account-tokens.ts';
import { recordActivity } from './activity.ts';
import { refuseCommonPassword } from './common-passwords.ts';
import { hashPassword, requirePassword } from './passwords.ts';
import { endSessions } from './revocation.ts';
import { openSession } from './sessions.ts';
import { signedInMember } from './users.ts';

/**
 * A forgotten password reset through an e-mailed link, and a known one changed (SPEC.md
 * section 8). Either way every session of the member ends: their token version goes up.
 */

const m = messages.auth;

export async function forgotPassword({ uow, config }: Pick<AuthDeps, 'uow' | 'config'>, email: string) {
  const user = await queries.findUserByEmail(uow.db, email);
  // SPEC.md section 8 asks for this answer; the gateway's rate limit keeps it from being a directory.
  if (!user) throw notFound(m.accountNotFound);
  await uow.run(async (t) => {
    const link = await issueAccountToken(t.db, user.id, 'reset_password', config.PASSWORD_RESET_TTL_MINUTES);
    await passwordResetRequested(t, user, link);
  });
  return { message: m.resetEmailSent };
}

export async function validateResetToken({ uow }: Pick<AuthDeps, 'uow'>, token: string, email: string) {
  if (!(await findAccountToken(uow.db, token, 'reset_password', email))) throw badRequest(m.resetLinkInvalid);
  return { valid: true as const, email };
}

export async function resetPassword(
  { uow, throttle, revocation }: Pick<AuthDeps, 'uow' | 'throttle' | 'revocation'>,
  { token, email, password }: { token: string; email: string; password: string },
) {
  // The link first: an invented token costs a lookup, never an argon2 hash.
  if (!(await findAccountToken(uow.db, token, 'reset_password', email))) throw badRequest(m.resetLinkInvalid);
  refuseCommonPassword(password);
  const passwordHash = await hashPassword(password);
  const done = await uow.run(async (t) => {
    const userId = await consumeAccountToken(t.db, token, 'reset_password', email);
    const current = userId ? await queries.findUserById(t.db, userId) : undefined;
    if (!current) return false;
    const now = new Date();
    // Following the link proves the address, so it also counts as verifying it.
    const row = (await queries.updateUser(t.db, current.id, {
      passwordHash,
      updatedAt: now,
      emailVerifiedAt: current.emailVerifiedAt ?? now,
    }))!;
    await passwordChanged(t, row, 'reset', now);
    await recordActivity(t.db, row.id, 'password.reset', 'Mot de passe réinitialisé');
    // Every session ends and the account unlocks, with the new password.
    await throttle.clear(t.db, row.id);
    await endSessions(t, revocation, [row.id]);
    return true;
  });
  if (!done) throw badRequest(m.resetLinkInvalid);
  return { message: m.passwordReset };
}

/** The caller's other sessions end; they get a fresh token carrying the new version. */
export async function changePassword(
  deps: Pick<AuthDeps, 'uow' | 'revocation' | 'signer' | 'config'>,
  userId: string,
  { current_password, password }: { current_password: string; password: string },
) {
  const { uow, revocation } = deps;
  const row = await signedInMember(uow.db, userId);
  await requirePassword(row, current_password, 'current_password', m.currentPasswordWrong);
  if (current_password === password) throw unprocessable({ password: [m.samePassword] }, m.samePassword);
  refuseCommonPassword(password);
  const passwordHash = await hashPassword(password);
  const [updated] = await uow.run(async (t) => {
    const now = new Date();
    await queries.updateUser(t.db, row.id, { passwordHash, updatedAt: now });
    // A reset link sent before no longer resets anything: the password it was for is gone.
    await queries.cancelAccountTokens(t.db, row.id, 'reset_password');
    await passwordChanged(t, row, 'change', now);
    await recordActivity(t.db, row.id, 'password.changed', 'Mot de passe modifié');
    return endSessions(t, revocation, [row.id]);
  });
  if (!updated) throw unauthorized(messages.tokenInvalid);
  const session = await openSession(deps, uow.db, updated);
  return { message: m.passwordChanged, access_token: session.access_token };
}
