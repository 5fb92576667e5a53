import { type LoginRequest, messages } from '@cartable/contracts';
import { type Db, forbidden, tooManyRequests, unauthorized, unprocessable } from '@cartable/service-kit';
import * as queries from '../db/queries.ts';
import type { AuthDeps } from '../deps.ts';
import { verifyPassword } from './passwords.ts';
import { verificationCheck } from './registration.ts';
import { checkCode, codeRefused, sendCode, useRecoveryCode } from './two-factor.ts';
import { claimsFor, signedInMember, toUserDto, type UserRow } from './users.ts';

const m = messages.auth;

/** Signs an access token for a user, with the claims of their current roles and permissions. */
export async function openSession(deps: Pick<AuthDeps, 'signer' | 'config'>, db: Db, row: UserRow) {
  // Whatever the way in (login, a password change racing the deactivation): no new token.
  if (row.deactivatedAt) throw forbidden(m.accountDeactivated);
  const user = await toUserDto(db, row);
  const { token } = await deps.signer.sign(claimsFor(user, row.tokenVersion), deps.config.ACCESS_TOKEN_TTL_SECONDS);
  return {
    access_token: token,
    token_type: 'Bearer' as const,
    expires_in: deps.config.ACCESS_TOKEN_TTL_SECONDS,
    user,
    two_factor_required: false as const,
  };
}

/**
 * POST /login: the password, then the e-mailed second step when the member turned it on. Each
 * attempt on an account is counted before the password is checked (domain/login-throttle.ts).
 */
export async function login(
  deps: Pick<AuthDeps, 'uow' | 'throttle' | 'signer' | 'config'>,
  { email, password, code, recovery_code }: LoginRequest,
  address: string,
) {
  const { uow, throttle } = deps;
  const row = await queries.findUserByEmail(uow.db, email);
  if (row) {
    // Counted before the password is checked: concurrent guesses cannot slip past the count.
    const admission = await throttle.admit(row.id, address);
    if (!admission.admitted) throw tooManyRequests(messages.tooManyRequests, admission.retryAfterSeconds);
  }
  const valid = await verifyPassword(row?.passwordHash ?? null, password);
  if (!row || !valid) throw unauthorized(m.invalidCredentials);
  await throttle.passwordAccepted(row.id);
  // Told only to whoever knows the password; before any second step is e-mailed.
  if (row.deactivatedAt) throw forbidden(m.accountDeactivated, { deactivated: true });
  // SPEC.md section 3: the client reads email_verified and email to go to /register-success.
  if (!row.emailVerifiedAt)
    throw forbidden(messages.emailNotVerified, {
      email_verified: false,
      email: row.email,
      // The password was right: this browser may ask whether the address got verified meanwhile.
      verification_check: verificationCheck(deps.signer, row.email),
    });

  if (row.twoFactorEnabledAt) {
    if (recovery_code) {
      if (!(await useRecoveryCode(uow.db, row.id, recovery_code))) {
        await throttle.fail(row.id);
        throw unprocessable({ recovery_code: [m.recoveryCodeInvalid] }, m.recoveryCodeInvalid);
      }
    } else if (code) {
      const result = await checkCode(uow.db, row.id, 'login', code);
      if (result !== 'ok') {
        await throttle.fail(row.id);
        throw codeRefused(result);
      }
    } else {
      // Password accepted: e-mail a code and ask for it.
      await uow.run((t) => sendCode(t, row, 'login'));
      return { two_factor_required: true as const, code_sent: true, message: m.codeSent, email: row.email };
    }
  }

  await throttle.succeeded(uow.db, row.id, address);
  return openSession(deps, uow.db, row);
}

/** This token is refused from now until it expires, by auth at once and by the gateway's copy. */
export async function logout(
  { uow, revocation }: Pick<AuthDeps, 'uow' | 'revocation'>,
  claims: { jti: string; sub: string; exp: number },
) {
  await uow.run(async (t) => {
    await queries.insertRevokedToken(t.db, {
      jti: claims.jti,
      userId: claims.sub,
      expiresAt: new Date(claims.exp * 1000),
    });
    t.afterCommit(() => revocation.tokenRevoked(claims.jti, claims.exp));
  });
  return { message: m.loggedOut };
}

export async function currentUser({ uow }: Pick<AuthDeps, 'uow'>, userId: string) {
  return { user: await toUserDto(uow.db, await signedInMember(uow.db, userId)) };
}
