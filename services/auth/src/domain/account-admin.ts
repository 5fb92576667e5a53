import { type AdminUser, type AdminUserDetail, messages } from '@cartable/contracts';
import { HttpError, notFound, recordEvent } from '@cartable/service-kit';
import { desc, eq, sql } from 'drizzle-orm';
import { userActivities, userStats, users } from '../db/schema.ts';
import type { AuthDeps } from '../deps.ts';
import { requestVerificationEmail } from './account-events.ts';
import { auditPage, recordAudit } from './audit.ts';
import { revokeAllSessions } from './sessions.ts';
import { findUserById, toAdminUserDtos, type UserRow } from './users.ts';

/**
 * What the back office does to an account besides its rights (domain/rights.ts): look at it
 * whole, deactivate and reactivate it, send its verification link again. Each change writes
 * its line of the administrators' trail and its event in its transaction.
 */

const m = messages.auth;
type AdminDeps = Pick<AuthDeps, 'db' | 'relay' | 'revocation' | 'config'>;

const toAdminUser = async (deps: Pick<AuthDeps, 'db'>, row: UserRow): Promise<AdminUser> =>
  (await toAdminUserDtos(deps.db, [row]))[0]!;

/** The member, their counters, their latest activity and the first page of the trail about them. */
export async function userDetail({ db }: Pick<AuthDeps, 'db'>, id: string): Promise<AdminUserDetail> {
  const row = await findUserById(db, id);
  if (!row) throw notFound(m.userNotFound);
  const [[user], [stats], activities, audit] = await Promise.all([
    toAdminUserDtos(db, [row]),
    db.select().from(userStats).where(eq(userStats.userId, id)),
    db
      .select()
      .from(userActivities)
      .where(eq(userActivities.userId, id))
      .orderBy(desc(userActivities.occurredAt))
      .limit(20),
    auditPage(db, id, { limit: 20 }),
  ]);
  return {
    user: {
      ...user!,
      deactivation_reason: row.deactivationReason,
      updated_at: row.updatedAt.toISOString(),
      two_factor_enabled: row.twoFactorEnabledAt !== null,
    },
    stats: {
      books_total: stats?.booksTotal ?? 0,
      books_available: stats?.booksAvailable ?? 0,
      books_sold: stats?.booksSold ?? 0,
      conversations: stats?.conversations ?? 0,
      messages_received: stats?.messagesReceived ?? 0,
      comments: stats?.comments ?? 0,
    },
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

/**
 * Deactivates an account (never one's own): every token of the member is refused at once (their
 * version goes up), login answers 403 until reactivation, and catalog hides their listings
 * (auth.user.deactivated, carrying the member's version after the change).
 */
export async function deactivateUser(deps: AdminDeps, id: string, reason: string, by: string) {
  const { db, relay, revocation } = deps;
  if (id === by) throw new HttpError(422, m.cannotDeactivateSelf);
  const { row, ended } = await db.transaction(async (tx) => {
    // Locked: two administrators acting at once do not both deactivate.
    const [current] = await tx.select().from(users).where(eq(users.id, id)).for('update');
    if (!current) throw notFound(m.userNotFound);
    if (current.deactivatedAt) throw new HttpError(409, m.alreadyDeactivated);
    const ended = await revokeAllSessions(tx, [id]);
    // Last write of the member in this transaction: its version is the one the event carries.
    const [saved] = await tx
      .update(users)
      .set({ deactivatedAt: sql`now()`, deactivationReason: reason, updatedAt: new Date() })
      .where(eq(users.id, id))
      .returning();
    await recordAudit(tx, { actorId: by, action: 'user.deactivated', targets: [id], details: { reason } });
    await recordEvent(tx, 'auth.user.deactivated', {
      user_id: id,
      deactivated_at: saved!.deactivatedAt!.toISOString(),
      version: saved!.version,
    });
    return { row: saved!, ended };
  });
  relay.kick();
  await ended.publish({ revocation });
  return { message: m.deactivated, user: await toAdminUser(deps, row) };
}

/** The member may sign in again and their listings come back (auth.user.reactivated). */
export async function reactivateUser(deps: AdminDeps, id: string, by: string) {
  const { db, relay } = deps;
  const row = await db.transaction(async (tx) => {
    const [current] = await tx.select().from(users).where(eq(users.id, id)).for('update');
    if (!current) throw notFound(m.userNotFound);
    if (!current.deactivatedAt) throw new HttpError(409, m.notDeactivated);
    const [saved] = await tx
      .update(users)
      .set({ deactivatedAt: null, deactivationReason: null, updatedAt: new Date() })
      .where(eq(users.id, id))
      .returning();
    await recordAudit(tx, {
      actorId: by,
      action: 'user.reactivated',
      targets: [id],
      details: { previous_reason: current.deactivationReason },
    });
    await recordEvent(tx, 'auth.user.reactivated', {
      user_id: id,
      reactivated_at: saved!.updatedAt.toISOString(),
      version: saved!.version,
    });
    return saved!;
  });
  relay.kick();
  return { message: m.reactivated, user: await toAdminUser(deps, row) };
}

/** A new verification link for a member who has not verified their address yet (422 otherwise). */
export async function resendVerification(deps: AdminDeps, id: string, by: string) {
  const { db, relay, config } = deps;
  await db.transaction(async (tx) => {
    const row = await findUserById(tx, id);
    if (!row) throw notFound(m.userNotFound);
    if (row.emailVerifiedAt) throw new HttpError(422, m.alreadyVerified);
    await requestVerificationEmail(tx, row, config.EMAIL_VERIFICATION_TTL_HOURS * 60);
    await recordAudit(tx, { actorId: by, action: 'user.verification_resent', targets: [id] });
  });
  relay.kick();
  return { message: m.verificationResent };
}
