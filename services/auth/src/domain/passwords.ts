import { messages } from '@cartable/contracts';
import { DomainError, unavailable, unprocessable } from '@cartable/service-kit';
import { hash, verify } from '@node-rs/argon2';
import PQueue from 'p-queue';

// OWASP's argon2id baseline: 19 MiB, 2 iterations, 1 lane.
const options = {
  algorithm: 2 /* Algorithm.Argon2id (a const enum) */,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

/**
 * Every argon2 computation waits its turn here: at most `concurrency` at once (one per core by
 * default), logins before new hashes (registrations, password changes), and a bounded line
 * beyond which requests are turned away at once with 503 instead of piling up: a flood of
 * expensive requests cannot make a member's login wait seconds.
 */
const LOGIN = 1;
const NEW_HASH = 0;
let queue = new PQueue({ concurrency: 2 });
let maxWaiting = 64;

export function configurePasswordWork(settings: { concurrency: number; maxWaiting: number }) {
  queue = new PQueue({ concurrency: settings.concurrency });
  maxWaiting = settings.maxWaiting;
}

function inTurn<T>(priority: number, work: () => Promise<T>): Promise<T> {
  if (queue.size >= maxWaiting) return Promise.reject(unavailable(messages.serviceUnavailable));
  return queue.add(work, { priority }) as Promise<T>;
}

export const hashPassword = (password: string) => inTurn(NEW_HASH, () => hash(password, options));

/** A hash of a random password, verified against when the account does not exist (same timing). */
let decoy: Promise<string> | undefined;

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    decoy ??= hash(crypto.randomUUID(), options);
    const known = await decoy;
    await inTurn(LOGIN, () => verify(known, password)).catch(() => false);
    return false;
  }
  return inTurn(LOGIN, () => verify(passwordHash, password)).catch((err: unknown) => {
    if (err instanceof DomainError) throw err;
    return false;
  });
}

/** The member's password, asked again before a sensitive change: a wrong one is a 422 on its field. */
export async function requirePassword(
  row: { passwordHash: string },
  password: string,
  field = 'password',
  message: string = messages.auth.passwordWrong,
) {
  if (!(await verifyPassword(row.passwordHash, password))) throw unprocessable({ [field]: [message] }, message);
}
