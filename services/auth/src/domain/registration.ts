import { messages, type RegisterRequest } from '@cartable/contracts';
import {
  badRequest,
  conflict,
  type Db,
  type FieldErrors,
  isUniqueViolation,
  type Transaction,
} from '@cartable/service-kit';
import * as queries from '../db/queries.ts';
import type { AuthDeps } from '../deps.ts';
import { userRegistered, userVerified, verificationRequested } from '../events/published.ts';
import { consumeAccountToken, issueAccountToken } from './account-tokens.ts';
import { refuseCommonPassword } from './common-passwords.ts';
import { hashPassword } from './passwords.ts';
import { toUserDto, type UserRow } from './users.ts';

/**
 * Signing up (SPEC.md section 3): an account waits for its address to be verified through an
 * e-mailed link before it may sign in.
 */

const m = messages.auth;
type Deps = Pick<AuthDeps, 'uow' | 'config' | 'signer'>;

const verificationTtlMinutes = (config: AuthDeps['config']) => config.EMAIL_VERIFICATION_TTL_HOURS * 60;

async function takenFields(db: Db, email: string, username: string): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  if (await queries.findUserByEmail(db, email)) errors.email = [m.emailTaken(email)];
  if (await queries.usernameTaken(db, username)) errors.username = [m.usernameTaken(username)];
  return errors;
}

const refuseTaken = (taken: FieldErrors) =>
  conflict(taken.email?.[0] ?? taken.username?.[0] ?? messages.conflict, taken);

/** A new verification link (earlier ones stop working), e-mailed by notifications. */
export async function requestVerificationEmail(
  t: Transaction,
  user: Pick<UserRow, 'id' | 'name' | 'email'>,
  ttlMinutes: number,
) {
  await verificationRequested(t, user, await issueAccountToken(t.db, user.id, 'verify_email', ttlMinutes));
}

export async function register({ uow, config, signer }: Deps, body: RegisterRequest) {
  const taken = await takenFields(uow.db, body.email, body.username);
  if (Object.keys(taken).length) throw refuseTaken(taken);
  refuseCommonPassword(body.password);
  const passwordHash = await hashPassword(body.password);
  try {
    const user = await uow.run(async (t) => {
      const row = await queries.insertUser(t.db, {
        name: body.name,
        email: body.email,
        username: body.username,
        passwordHash,
        countryId: body.country_id,
        cityId: body.city_id,
      });
      const verification = await issueAccountToken(t.db, row.id, 'verify_email', verificationTtlMinutes(config));
      await userRegistered(t, row, verification);
      return toUserDto(t.db, row);
    });
    return { message: m.registered, user, verification_check: verificationCheck(signer, body.email) };
  } catch (err) {
    // Two sign-ups with the same address at the same moment: the unique index decides.
    if (isUniqueViolation(err)) throw refuseTaken(await takenFields(uow.db, body.email, body.username));
    throw err;
  }
}

export async function verifyEmail({ uow }: Pick<AuthDeps, 'uow'>, token: string, email: string) {
  const verified = await uow.run(async (t) => {
    const userId = await consumeAccountToken(t.db, token, 'verify_email', email);
    if (!userId) return false;
    const now = new Date();
    await queries.markEmailVerified(t.db, userId, now);
    await userVerified(t, userId, now);
    return true;
  });
  if (!verified) throw badRequest(m.verificationLinkInvalid);
  return { message: m.emailVerified, verified: true as const };
}

/**
 * One answer whatever the address: this call must not tell who has an account, nor whose is
 * verified. Only an account waiting for its verification gets a new link.
 */
export async function resendVerificationEmail({ uow, config }: Deps, email: string) {
  const user = await queries.findUserByEmail(uow.db, email);
  if (user && !user.emailVerifiedAt)
    await uow.run((t) => requestVerificationEmail(t, user, verificationTtlMinutes(config)));
  return { message: m.verificationSentIfPending };
}

const CHECK = 'email-verification-check';

/** The proof, for whoever signed up with `email` or showed its password, that they hold it. */
export const verificationCheck = (signer: AuthDeps['signer'], email: string) => signer.mac(CHECK, email.toLowerCase());

/**
 * Whether the address is verified, told only to who proves they hold it: the proof the sign-up or
 * the login gave (`verification_check`), or a token of the account with that address. Anyone else
 * gets false, the same for an unknown, a waiting and a verified address: the call cannot tell who
 * has an account.
 */
export async function emailVerified(
  { uow, signer }: Pick<AuthDeps, 'uow' | 'signer'>,
  email: string,
  proof: { check?: string | undefined; userId?: string | undefined },
) {
  let holds = proof.check !== undefined && signer.macMatches(CHECK, email.toLowerCase(), proof.check);
  if (!holds && proof.userId) holds = (await queries.findUserById(uow.db, proof.userId))?.email === email;
  return { verified: holds && (await queries.isEmailVerified(uow.db, email)) };
}
