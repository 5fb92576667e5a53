import { type AdminUserDetail, messages } from '@cartable/contracts';
import { conflict, invalid, notFound, type Transaction } from '@cartable/service-kit';
import * as queries from '../db/queries.ts';
import type { AuthDeps } from '../deps.ts';
import { userDeactivated, userReactivated } from '../events/published.ts';
import { auditPage, recordAudit } from './audit.ts';
import { statsOf } from './profile.ts';
import { requestVerificationEmail } from './registration.ts';
import { endSessions } from './revocation.ts';
import { toAdminUserDto, toAdminUserDtos } from './users.ts';

/**
 * What the back office does to an account besides its rights (domain/rights.ts): look at it
 * whole, deactivate and reactivate it, send its verification link again. Each change writes
 * its line of the administrators' trail and its event in its transaction.
 */

const m = messages.auth;
type AdminDeps = Pick<AuthDeps, 'uow' | 'revocation' | 'config'>;

/** The member, their counters, their latest activity and the first page of the trail about them. */
export async function userDetail({ uow }: Pick<AuthDeps, 'uow'>, id: string): Promise<AdminUserDetail> {
  const db = uow.db;
  const row = await queries.findUserById(db, id);
  if (!row) throw notFound(m.userNotFound);
  const [[user], stats, activities, audit] = await Promise.all([
    toAdminUserDtos(db, [row]),
    statsOf(db, id),
    queries.latestActivities(db, id, 20),
    auditPage(db, id, { limit: 20 }),
  ]);
  return {
    user: {
      ...user!,
      deactivation_reason: row.deactivationReason,
      updated_at: row.updatedAt.toISOString(),
      two_factor_enabled: row.twoFactorEnabledAt !== null,
    },
    stats,
    activities: activities.map((a) => ({
      id: a.id,
      type: a.type,
      title: a.title,
      link: a.link,
      occurred_at: a.occurredAt.toISOString(),
    })),
    audit,
  };
}

/** The trail about one member, a page at a time. */
export async function userAudit({ uow }: Pick<AuthDeps, 'uow'>, id: string, query: { cursor?: string; limit: number }) {
  if (!(await queries.findUserById(uow.db, id))) throw notFound(m.userNotFound);
  return auditPage(uow.db, id, query);
}

/**
 * Deactivates an account in the caller's transaction `t`: every token of the member is refused
 * at once (their version goes up), login answers 403 until reactivation, the administrators' trail
 * says who and why, and catalog hides their listings (auth.user.deactivated, carrying the member's
 * version after the change). `already` when it was deactivated, `gone` when there is no such
 * member; nothing is written then, so running it again changes nothing.
 */
export async function deactivateAccount(
  t: Transaction,
  revocation: AdminDeps['revocation'],
  id: string,
  reason: string,
  by: string,
) {
  // Locked: two administrators (or one and a report's decision) acting at once do not both deactivate.
  const current = await queries.lockUser(t.db, id);
  if (!current) return { outcome: 'gone' as const };
  if (current.deactivatedAt) return { outcome: 'already' as const };
  await endSessions(t, revocation, [id]);
  // Last write of the member in this transaction: its version is the one the event carries.
  const saved = (await queries.updateUser(t.db, id, {
    deactivatedAt: new Date(),
    deactivationReason: reason,
    updatedAt: new Date(),
  }))!;
  await recordAudit(t.db, { actorId: by, action: 'user.deactivated', targets: [id], details: { reason } });
  await userDeactivated(t, saved);
  return { outcome: 'applied' as const, user: saved };
}

/** The back office deactivates an account (never one's own). */
export async function deactivateUser({ uow, revocation }: AdminDeps, id: string, reason: string, by: string) {
  if (id === by) throw invalid(m.cannotDeactivateSelf);
  const row = await uow.run(async (t) => {
    const done = await deactivateAccount(t, revocation, id, reason, by);
    if (done.outcome === 'gone') throw notFound(m.userNotFound);
    if (done.outcome === 'already') throw conflict(m.alreadyDeactivated);
    return done.user;
  });
  return { message: m.deactivated, user: await toAdminUserDto(uow.db, row) };
}

/** The member may sign in again and their listings come back (auth.user.reactivated). */
export async function reactivateUser({ uow }: AdminDeps, id: string, by: string) {
  const row = await uow.run(async (t) => {
    const current = await queries.lockUser(t.db, id);
    if (!current) throw notFound(m.userNotFound);
    if (!current.deactivatedAt) throw conflict(m.notDeactivated);
    const saved = (await queries.updateUser(t.db, id, {
      deactivatedAt: null,
      deactivationReason: null,
      updatedAt: new Date(),
    }))!;
    await recordAudit(t.db, {
      actorId: by,
      action: 'user.reactivated',
      targets: [id],
      details: { previous_reason: current.deactivationReason },
    });
    await userReactivated(t, saved);
    return saved;
  });
  return { message: m.reactivated, user: await toAdminUserDto(uow.db, row) };
}

/** A new verification link for a member who has not verified their address yet (422 otherwise). */
export async function resendVerification({ uow, config }: AdminDeps, id: string, by: string) {
  await uow.run(async (t) => {
    const row = await queries.findUserById(t.db, id);
    if (!row) throw notFound(m.userNotFound);
    if (row.emailVerifiedAt) throw invalid(m.alreadyVerified);
    await requestVerificationEmail(t, row, config.EMAIL_VERIFICATION_TTL_HOURS * 60);
    await recordAudit(t.db, { actorId: by, action: 'user.verification_resent', targets: [id] });
  });
  return { message: m.verificationResent };
}
