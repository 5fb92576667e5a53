import type { UserListQuery } from '@cartable/contracts';
import { type Db, dailyCounts, isNewer, type StatsWindow, trend } from '@cartable/service-kit';
import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  gte,
  ilike,
  inArray,
  isNotNull,
  isNull,
  lt,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  accountTokens,
  adminAuditLog,
  loginSources,
  memberBooks,
  memberConversations,
  permissions,
  recoveryCodes,
  revokedTokens,
  revokedUsers,
  rolePermissions,
  roles,
  twoFactorCodes,
  userActivities,
  userPermissions,
  userRoles,
  userStats,
  users,
} from './schema.ts';

/**
 * Every query of auth: the domain reads and writes through these functions and never names a
 * table. Each takes the database or the transaction it runs in.
 */

export type UserRow = typeof users.$inferSelect;
export type UserChanges = Partial<typeof users.$inferInsert>;
export type TokenPurpose = 'verify_email' | 'reset_password';
export type CodePurpose = 'login' | 'enable' | 'disable';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

// Members

export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
  return row;
}

export async function findUserById(db: Db, id: string) {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** Locked until the end of the transaction: two administrators acting at once wait for each other. */
export async function lockUser(tx: Db, id: string) {
  const [row] = await tx.select().from(users).where(eq(users.id, id)).for('update');
  return row;
}

export const usersByIds = (db: Db, ids: string[]) => db.select().from(users).where(inArray(users.id, ids));

export async function memberExists(db: Db, id: string) {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, id));
  return Boolean(row);
}

/** Whether a username (any case) belongs to someone, other than `except` if given. */
export async function usernameTaken(db: Db, username: string, except?: string) {
  const sameName = sql`lower(${users.username}) = ${username.toLowerCase()}`;
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(except ? and(sameName, sql`${users.id} <> ${except}`) : sameName)
    .limit(1);
  return Boolean(row);
}

export async function insertUser(tx: Db, values: typeof users.$inferInsert) {
  const [row] = await tx.insert(users).values(values).returning();
  if (!row) throw new Error('insert returned nothing');
  return row;
}

/** Inserts unless the id or address is there already; undefined then. */
export async function insertUserIfAbsent(tx: Db, values: typeof users.$inferInsert) {
  const [row] = await tx.insert(users).values(values).onConflictDoNothing().returning();
  return row;
}

export async function updateUser(tx: Db, id: string, changes: UserChanges) {
  const [row] = await tx.update(users).set(changes).where(eq(users.id, id)).returning();
  return row;
}

/** The address is proven: the first verification's date stays. */
export async function markEmailVerified(tx: Db, id: string, at: Date) {
  await tx
    .update(users)
    .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`, updatedAt: at })
    .where(eq(users.id, id));
}

export async function isEmailVerified(db: Db, email: string) {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, email.toLowerCase()), isNotNull(users.emailVerifiedAt)))
    .limit(1);
  return Boolean(row);
}

export async function deleteUser(tx: Db, id: string) {
  const [gone] = await tx.delete(users).where(eq(users.id, id)).returning({ version: users.version });
  return gone;
}

export const demoMembersPresent = async (db: Db, ids: string[]) =>
  (await db.select({ id: users.id }).from(users).where(inArray(users.id, ids))).length;

// Roles and permissions

/** The roles of these members, by member. */
export const rolesOfUsers = (db: Db, ids: string[]) =>
  db
    .select({ userId: userRoles.userId, id: roles.id, slug: roles.slug, name: roles.name })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(inArray(userRoles.userId, ids));

/** The permissions these members hold directly, by member. */
export const directPermissionsOfUsers = (db: Db, ids: string[]) =>
  db
    .select({ userId: userPermissions.userId, slug: permissions.slug })
    .from(userPermissions)
    .innerJoin(permissions, eq(permissions.id, userPermissions.permissionId))
    .where(inArray(userPermissions.userId, ids));

/** The permissions of these roles, by role. */
export const permissionsOfRoles = (db: Db, roleIds: string[]) =>
  roleIds.length
    ? db
        .select({ roleId: rolePermissions.roleId, slug: permissions.slug })
        .from(rolePermissions)
        .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
        .where(inArray(rolePermissions.roleId, roleIds))
    : Promise.resolve([]);

/** How many members hold each of these roles. */
export const holderCounts = (db: Db, roleIds: string[]) =>
  roleIds.length
    ? db
        .select({ roleId: userRoles.roleId, n: count() })
        .from(userRoles)
        .where(inArray(userRoles.roleId, roleIds))
        .groupBy(userRoles.roleId)
    : Promise.resolve([]);

/** Roles by slug; only the one with this id if given. */
export const roleRows = (db: Db, id?: string) =>
  db
    .select()
    .from(roles)
    .where(id ? eq(roles.id, id) : undefined)
    .orderBy(asc(roles.slug));

export async function lockRole(tx: Db, id: string) {
  const [role] = await tx.select().from(roles).where(eq(roles.id, id)).for('update');
  return role;
}

export const rolesBySlugs = (db: Db, slugs: string[]) =>
  slugs.length ? db.select().from(roles).where(inArray(roles.slug, slugs)) : Promise.resolve([]);

export const permissionsBySlugs = (db: Db, slugs: string[]) =>
  slugs.length ? db.select().from(permissions).where(inArray(permissions.slug, slugs)) : Promise.resolve([]);

export const allPermissions = (db: Db) => db.select().from(permissions).orderBy(asc(permissions.slug));

/** Slugs of a member's roles and direct permissions. */
export async function heldSlugs(db: Db, id: string) {
  const [roleRows, permissionRows] = await Promise.all([
    db
      .select({ slug: roles.slug })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(eq(userRoles.userId, id)),
    db
      .select({ slug: permissions.slug })
      .from(userPermissions)
      .innerJoin(permissions, eq(permissions.id, userPermissions.permissionId))
      .where(eq(userPermissions.userId, id)),
  ]);
  return { roles: roleRows.map((r) => r.slug).sort(), permissions: permissionRows.map((p) => p.slug).sort() };
}

/** The moment these members' rights changed: tokens issued before read the new ones. */
export async function markRightsChanged(tx: Db, ids: string[]) {
  if (ids.length) await tx.update(users).set({ rightsChangedAt: sql`now()` }).where(inArray(users.id, ids));
}

export async function setAdminFlag(tx: Db, id: string, admin: boolean) {
  const [row] = await tx
    .update(users)
    .set({ isAdmin: admin, updatedAt: new Date(), rightsChangedAt: sql`now()` })
    .where(eq(users.id, id))
    .returning();
  return row;
}

export async function replaceUserRoles(tx: Db, userId: string, roleIds: string[]) {
  await tx.delete(userRoles).where(eq(userRoles.userId, userId));
  if (roleIds.length) await tx.insert(userRoles).values(roleIds.map((roleId) => ({ userId, roleId })));
}

export async function replaceUserPermissions(tx: Db, userId: string, permissionIds: string[]) {
  await tx.delete(userPermissions).where(eq(userPermissions.userId, userId));
  if (permissionIds.length)
    await tx.insert(userPermissions).values(permissionIds.map((permissionId) => ({ userId, permissionId })));
}

export async function replaceRolePermissions(tx: Db, roleId: string, permissionIds: string[]) {
  await tx.delete(rolePermissions).where(eq(rolePermissions.roleId, roleId));
  if (permissionIds.length)
    await tx.insert(rolePermissions).values(permissionIds.map((permissionId) => ({ roleId, permissionId })));
}

export async function giveRole(tx: Db, userId: string, roleId: string) {
  await tx.insert(userRoles).values({ userId, roleId }).onConflictDoNothing();
}

/** A new role; undefined when the slug is taken. */
export async function insertRole(tx: Db, slug: string, name: string) {
  const [role] = await tx.insert(roles).values({ slug, name }).onConflictDoNothing().returning();
  return role;
}

export async function updateRole(tx: Db, id: string, slug: string, name: string) {
  const [role] = await tx.update(roles).set({ slug, name }).where(eq(roles.id, id)).returning();
  return role;
}

export async function deleteRole(tx: Db, id: string) {
  await tx.delete(roles).where(eq(roles.id, id));
}

export const roleHolderIds = async (db: Db, roleId: string) =>
  (await db.select({ userId: userRoles.userId }).from(userRoles).where(eq(userRoles.roleId, roleId))).map(
    (h) => h.userId,
  );

/** Reference data (idempotent): these permissions, and a role holding one of them. */
export async function ensurePermissions(db: Db, list: Array<{ slug: string; name: string }>) {
  for (const permission of list) await db.insert(permissions).values(permission).onConflictDoNothing();
}

export async function ensureRoleWithPermission(db: Db, role: { slug: string; name: string }, permissionSlug: string) {
  await db.insert(roles).values(role).onConflictDoNothing();
  const [saved] = await db.select().from(roles).where(eq(roles.slug, role.slug));
  const [permission] = await db.select().from(permissions).where(eq(permissions.slug, permissionSlug));
  if (saved && permission)
    await db.insert(rolePermissions).values({ roleId: saved.id, permissionId: permission.id }).onConflictDoNothing();
  return saved;
}

// The back office's lists

/** A calendar day at midnight UTC, `days` later. */
const dayStart = (day: string, days = 0) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000);

/**
 * A page of users: name, e-mail or username containing `search`; verified or not, admin or not,
 * holding a role, joined between two days, active or deactivated; by name or date of joining.
 */
export async function userPage(db: Db, query: UserListQuery) {
  const { page, per_page, search } = query;
  const conditions: SQL[] = [];
  if (search) {
    const pattern = `%${search.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
    conditions.push(or(ilike(users.name, pattern), ilike(users.email, pattern), ilike(users.username, pattern))!);
  }
  if (query.verified !== undefined)
    conditions.push(query.verified ? isNotNull(users.emailVerifiedAt) : isNull(users.emailVerifiedAt));
  if (query.admin !== undefined) conditions.push(eq(users.isAdmin, query.admin));
  if (query.role) {
    conditions.push(
      sql`exists (select 1 from ${userRoles} join ${roles} on ${roles.id} = ${userRoles.roleId} where ${userRoles.userId} = ${users.id} and ${roles.slug} = ${query.role})`,
    );
  }
  if (query.created_from) conditions.push(gte(users.createdAt, dayStart(query.created_from)));
  if (query.created_to) conditions.push(lt(users.createdAt, dayStart(query.created_to, 1)));
  if (query.status)
    conditions.push(query.status === 'active' ? isNull(users.deactivatedAt) : isNotNull(users.deactivatedAt));
  const where = conditions.length ? and(...conditions) : undefined;
  const direction = query.direction ?? (query.sort === 'created_at' ? 'desc' : 'asc');
  const dir = direction === 'asc' ? asc : desc;
  const order = query.sort === 'created_at' ? [dir(users.createdAt), dir(users.id)] : [dir(users.name), dir(users.id)];
  const [[{ total } = { total: 0 }], rows] = await Promise.all([
    db.select({ total: count() }).from(users).where(where),
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(...order)
      .limit(per_page)
      .offset((page - 1) * per_page),
  ]);
  return { rows, total };
}

/** Who holds a role, a page at a time, by name. */
export async function roleHolderPage(db: Db, roleId: string, { page, per_page }: { page: number; per_page: number }) {
  const where = eq(userRoles.roleId, roleId);
  const [[{ total } = { total: 0 }], rows] = await Promise.all([
    db.select({ total: count() }).from(userRoles).where(where),
    db
      .select({ id: users.id, name: users.name, email: users.email })
      .from(userRoles)
      .innerJoin(users, eq(users.id, userRoles.userId))
      .where(where)
      .orderBy(asc(users.name), asc(users.id))
      .limit(per_page)
      .offset((page - 1) * per_page),
  ]);
  return { rows, total };
}

/** Members, verified members and administrators. */
export async function memberTotals(db: Db) {
  const result = await db.execute(sql`select count(*)::int as total,
                                             count(email_verified_at)::int as verified,
                                             count(*) filter (where is_admin)::int as admins
                                      from users`);
  return rowsOf<{ total: number; verified: number; admins: number }>(result)[0]!;
}

const signups = { from: sql`users`, at: sql`created_at` };
export const signupTrend = (db: Db, window: Pick<StatsWindow, 'from' | 'to' | 'previousFrom'>) =>
  trend(db, signups, window);
export const signupsPerDay = (db: Db, window: StatsWindow) => dailyCounts(db, signups, window);

// The administrators' trail

export async function insertAuditLines(
  tx: Db,
  lines: Array<{ actorId: string | null; targetUserId: string | null; action: string; details: object }>,
) {
  if (lines.length) await tx.insert(adminAuditLog).values(lines);
}

/**
 * Lines about a member (or, with `null`, about roles as a whole), newest first, `limit + 1` of
 * them from after the line `cursor` ((created_at, id) ordered), with the names of who and whom.
 */
export function auditLines(db: Db, targetUserId: string | null, limit: number, cursor?: string) {
  const actor = alias(users, 'actor');
  const target = alias(users, 'target');
  const conditions: SQL[] = [
    targetUserId ? eq(adminAuditLog.targetUserId, targetUserId) : isNull(adminAuditLog.targetUserId),
  ];
  if (cursor) {
    conditions.push(
      sql`(${adminAuditLog.createdAt}, ${adminAuditLog.id}) < (select a.created_at, a.id from admin_audit_log a where a.id = ${cursor})`,
    );
  }
  return db
    .select({ entry: adminAuditLog, actorName: actor.name, targetName: target.name })
    .from(adminAuditLog)
    .leftJoin(actor, eq(actor.id, adminAuditLog.actorId))
    .leftJoin(target, eq(target.id, adminAuditLog.targetUserId))
    .where(and(...conditions))
    .orderBy(desc(adminAuditLog.createdAt), desc(adminAuditLog.id))
    .limit(limit + 1);
}

// Links sent by e-mail (verification, password reset): only their hash is stored

/** Every unused link of this purpose stops working. */
export async function cancelAccountTokens(tx: Db, userId: string, purpose: TokenPurpose) {
  await tx
    .update(accountTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, purpose), isNull(accountTokens.usedAt)));
}

export async function insertAccountToken(
  tx: Db,
  values: { tokenHash: string; purpose: TokenPurpose; userId: string; expiresAt: Date },
) {
  await tx.insert(accountTokens).values(values);
}

/** The user of a live link, checked against the address it was sent to. */
export async function liveAccountToken(db: Db, tokenHash: string, purpose: TokenPurpose, email: string) {
  const [row] = await db
    .select({ userId: accountTokens.userId })
    .from(accountTokens)
    .innerJoin(users, eq(users.id, accountTokens.userId))
    .where(
      and(
        eq(accountTokens.tokenHash, tokenHash),
        eq(accountTokens.purpose, purpose),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, new Date()),
        eq(users.email, email.toLowerCase()),
      ),
    )
    .limit(1);
  return row?.userId ?? null;
}

/** Marks the link used; of two clicks at the same moment, only one gets the user id. */
export async function useAccountToken(tx: Db, tokenHash: string) {
  const [used] = await tx
    .update(accountTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(accountTokens.tokenHash, tokenHash), isNull(accountTokens.usedAt)))
    .returning({ userId: accountTokens.userId });
  return used?.userId ?? null;
}

// The e-mailed second step

const liveCode = (userId: string, purpose: CodePurpose) =>
  and(
    eq(twoFactorCodes.userId, userId),
    eq(twoFactorCodes.purpose, purpose),
    isNull(twoFactorCodes.usedAt),
    gt(twoFactorCodes.expiresAt, new Date()),
  );

export async function cancelCodes(tx: Db, userId: string, purpose: CodePurpose) {
  await tx
    .update(twoFactorCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(twoFactorCodes.userId, userId), eq(twoFactorCodes.purpose, purpose), isNull(twoFactorCodes.usedAt)));
}

export async function insertCode(
  tx: Db,
  values: { userId: string; purpose: CodePurpose; codeHash: string; expiresAt: Date },
) {
  await tx.insert(twoFactorCodes).values(values);
}

export async function hasLiveCode(db: Db, userId: string, purpose: CodePurpose) {
  const [row] = await db
    .select({ id: twoFactorCodes.id })
    .from(twoFactorCodes)
    .where(liveCode(userId, purpose))
    .limit(1);
  return Boolean(row);
}

/** The newest live code, locked until the end of the transaction. */
export async function lockLatestCode(tx: Db, userId: string, purpose: CodePurpose) {
  const [row] = await tx
    .select()
    .from(twoFactorCodes)
    .where(liveCode(userId, purpose))
    .orderBy(desc(twoFactorCodes.createdAt))
    .limit(1)
    .for('update');
  return row;
}

export async function updateCode(tx: Db, id: string, changes: { attempts?: number; usedAt?: Date }) {
  await tx.update(twoFactorCodes).set(changes).where(eq(twoFactorCodes.id, id));
}

export async function replaceRecoveryCodes(tx: Db, userId: string, codeHashes: string[]) {
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  if (codeHashes.length) await tx.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
}

export async function deleteRecoveryCodes(tx: Db, userId: string) {
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
}

/** Uses an unused recovery code once; whether there was one. */
export async function useRecoveryCode(db: Db, userId: string, codeHash: string) {
  const [used] = await db
    .update(recoveryCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return Boolean(used);
}

export async function recoveryCodesLeft(db: Db, userId: string) {
  const [row] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row?.n ?? 0;
}

// Login throttling (domain/login-throttle.ts says the policy)

export interface ThrottleSql {
  windowMinutes: number;
  freeAttempts: number;
  maxDelaySeconds: number;
  knownSourceMaxDelaySeconds: number;
}

function throttleTerms(settings: ThrottleSql) {
  const windowOver = sql`(${users.failedLoginsSince} is null or ${users.failedLoginsSince} <= now() - make_interval(mins => ${settings.windowMinutes}))`;
  const attempts = sql`(case when ${windowOver} then 1 else ${users.failedLogins} + 1 end)`;
  const delay = sql`least(${settings.maxDelaySeconds}, case when ${attempts} < ${settings.freeAttempts} then 0 else power(2, ${attempts} - ${settings.freeAttempts}) end)`;
  return {
    failedLogins: attempts,
    failedLoginsSince: sql`(case when ${windowOver} then now() else ${users.failedLoginsSince} end)`,
    lockedUntil: sql`now() + make_interval(secs => ${delay})`,
  };
}

/** Whether the member signed in from this (hashed) source within 90 days. */
export async function isKnownLoginSource(db: Db, userId: string, source: string) {
  const [row] = await db
    .select({ source: loginSources.source })
    .from(loginSources)
    .where(
      and(
        eq(loginSources.userId, userId),
        eq(loginSources.source, source),
        gt(loginSources.lastSuccessAt, sql`now() - interval '90 days'`),
      ),
    );
  return Boolean(row);
}

/**
 * Counts an attempt if the account may be tried now, in one statement that also enforces the
 * wait; from a known source, the wait since the last attempt let through is capped.
 */
export async function admitLoginAttempt(db: Db, userId: string, settings: ThrottleSql, knownSource: boolean) {
  const knownCap = sql`make_interval(secs => ${settings.knownSourceMaxDelaySeconds})`;
  const mayTry = knownSource
    ? sql`(${users.lockedUntil} is null or ${users.lockedUntil} <= now() or ${users.lastLoginAttemptAt} <= now() - ${knownCap})`
    : sql`(${users.lockedUntil} is null or ${users.lockedUntil} <= now())`;
  const admitted = await db
    .update(users)
    .set({ ...throttleTerms(settings), lastLoginAttemptAt: sql`now()` })
    .where(and(eq(users.id, userId), mayTry))
    .returning({ id: users.id });
  return admitted.length > 0;
}

export async function loginWait(db: Db, userId: string) {
  const [row] = await db
    .select({ lockedUntil: users.lockedUntil, lastAttemptAt: users.lastLoginAttemptAt })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

/** A wrong second factor after a right password: counted like a wrong password. */
export async function countFailedLogin(db: Db, userId: string, settings: ThrottleSql) {
  await db.update(users).set(throttleTerms(settings)).where(eq(users.id, userId));
}

export async function giveLoginAttemptBack(db: Db, userId: string) {
  await db
    .update(users)
    .set({ failedLogins: sql`greatest(${users.failedLogins} - 1, 0)`, lockedUntil: null })
    .where(eq(users.id, userId));
}

export async function clearFailedLogins(tx: Db, userId: string) {
  await tx
    .update(users)
    .set({ failedLogins: 0, failedLoginsSince: null, lockedUntil: null })
    .where(eq(users.id, userId));
}

export async function rememberLoginSource(tx: Db, userId: string, source: string) {
  await tx
    .insert(loginSources)
    .values({ userId, source })
    .onConflictDoUpdate({ target: [loginSources.userId, loginSources.source], set: { lastSuccessAt: sql`now()` } });
}

// Revocation: the source of truth (the Redis copy is rebuilt from it)

/** Logout: this token is refused until it expires. */
export async function insertRevokedToken(tx: Db, token: { jti: string; userId: string; expiresAt: Date }) {
  await tx.insert(revokedTokens).values(token).onConflictDoNothing();
}

/** Every token these users hold now is refused: their versions go up, in one statement. */
export function bumpTokenVersions(tx: Db, userIds: string[]): Promise<UserRow[]> {
  if (!userIds.length) return Promise.resolve([]);
  return tx
    .update(users)
    .set({ tokenVersion: sql`${users.tokenVersion} + 1`, tokenVersionChangedAt: sql`now()` })
    .where(inArray(users.id, [...new Set(userIds)]))
    .returning();
}

/** Account deletion: every token of the user is refused by this row while one may live. */
export async function insertRevokedUser(tx: Db, userId: string, tokenTtlSeconds: number) {
  const expiresAt = sql`now() + make_interval(secs => ${tokenTtlSeconds})`;
  await tx
    .insert(revokedUsers)
    .values({ userId, expiresAt })
    .onConflictDoUpdate({ target: revokedUsers.userId, set: { expiresAt } });
}

/** What the database holds against a token: its id revoked, its user deleted, the user's version. */
export async function revocationFacts(db: Db, claims: { jti: string; sub: string }) {
  const [row] = await db
    .select({
      revokedToken: sql<boolean>`exists (select 1 from ${revokedTokens} where ${revokedTokens.jti} = ${claims.jti})`,
      deleted: sql<boolean>`exists (select 1 from ${revokedUsers} where ${revokedUsers.userId} = ${claims.sub})`,
      version: sql<number | null>`(select ${users.tokenVersion} from ${users} where ${users.id} = ${claims.sub})`,
    })
    .from(sql`(select 1) as one`);
  return row;
}

/** Same key for every replica: one rebuilds the Redis copy at a time, the others skip. */
export async function tryRevocationRebuildLock(tx: Db) {
  const lock = await tx.execute(sql`select pg_try_advisory_xact_lock(hashtext('cartable:revocation-cache')) as locked`);
  return Boolean(rowsOf<{ locked: boolean }>(lock)[0]?.locked);
}

/** Revocations that outlived every token they could refuse go; how many. */
export async function pruneExpiredRevocations(tx: Db) {
  const tokens = await tx
    .delete(revokedTokens)
    .where(lt(revokedTokens.expiresAt, sql`now()`))
    .returning({ jti: revokedTokens.jti });
  const deleted = await tx
    .delete(revokedUsers)
    .where(lt(revokedUsers.expiresAt, sql`now()`))
    .returning({ id: revokedUsers.userId });
  return tokens.length + deleted.length;
}

/**
 * Everything a token may still be refused for: revoked token ids, versions bumped within a
 * token lifetime (with how long each must be remembered), deleted accounts, and the members
 * whose rights changed within a token lifetime.
 */
export async function revocationSnapshot(tx: Db, tokenTtlSeconds: number) {
  const lifetime = sql`make_interval(secs => ${tokenTtlSeconds})`;
  const tokens = await tx.select({ jti: revokedTokens.jti, expiresAt: revokedTokens.expiresAt }).from(revokedTokens);
  const bumped = await tx
    .select({
      id: users.id,
      version: users.tokenVersion,
      ttl: sql<number>`extract(epoch from coalesce(${users.tokenVersionChangedAt}, now()) + ${lifetime} - now())`,
    })
    .from(users)
    .where(
      and(
        gt(users.tokenVersion, 0),
        // A bump older than a token lifetime refuses nothing that has not expired already.
        or(isNull(users.tokenVersionChangedAt), gt(users.tokenVersionChangedAt, sql`now() - ${lifetime}`)),
      ),
    );
  const deleted = await tx
    .select({ id: revokedUsers.userId, ttl: sql<number>`extract(epoch from ${revokedUsers.expiresAt} - now())` })
    .from(revokedUsers);
  const rightsChanged = await tx
    .select({ id: users.id })
    .from(users)
    .where(gt(users.rightsChangedAt, sql`now() - ${lifetime}`));
  return { tokens, bumped, deleted, rightsChanged: rightsChanged.map((r) => r.id) };
}

// The member's dashboard: activity, counters, and the projections that feed them

export async function insertActivity(
  tx: Db,
  line: { userId: string; type: string; title: string; link: string | null; occurredAt?: Date },
) {
  await tx.insert(userActivities).values(line);
}

export const latestActivities = (db: Db, userId: string, limit: number) =>
  db
    .select()
    .from(userActivities)
    .where(eq(userActivities.userId, userId))
    .orderBy(desc(userActivities.occurredAt))
    .limit(limit);

export async function statsOf(db: Db, userId: string) {
  const [row] = await db.select().from(userStats).where(eq(userStats.userId, userId));
  return row;
}

/** Keeps a member's book at its latest version (an older event changes nothing). */
export async function keepMemberBook(
  tx: Db,
  book: { bookId: number; userId: string; status: string; deleted: boolean; version: number },
) {
  const { bookId, ...row } = book;
  await tx
    .insert(memberBooks)
    .values(book)
    .onConflictDoUpdate({ target: memberBooks.bookId, set: row, setWhere: isNewer(memberBooks.version) });
}

/** The member's book counters counted again from their books. */
export async function recountBooks(tx: Db, userId: string) {
  const [counts] = await tx
    .select({
      total: sql<number>`count(*)::int`,
      // « Manuels disponibles »: what a buyer can still get, not the reserved ones.
      available: sql<number>`count(*) filter (where ${memberBooks.status} = 'disponible')::int`,
      sold: sql<number>`count(*) filter (where ${memberBooks.status} = 'vendu')::int`,
    })
    .from(memberBooks)
    .where(and(eq(memberBooks.userId, userId), eq(memberBooks.deleted, false)));
  const values = {
    booksTotal: counts?.total ?? 0,
    booksAvailable: counts?.available ?? 0,
    booksSold: counts?.sold ?? 0,
  };
  await tx
    .insert(userStats)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: userStats.userId, set: { ...values, updatedAt: new Date() } });
}

/** Adds to a member's counters (a row is created at 0 first). */
export async function addToStats(tx: Db, userId: string, change: { messagesReceived?: number; comments?: number }) {
  await tx
    .insert(userStats)
    .values({ userId, messagesReceived: change.messagesReceived ?? 0, comments: change.comments ?? 0 })
    .onConflictDoUpdate({
      target: userStats.userId,
      set: {
        messagesReceived: sql`${userStats.messagesReceived} + ${change.messagesReceived ?? 0}`,
        comments: sql`${userStats.comments} + ${change.comments ?? 0}`,
        updatedAt: new Date(),
      },
    });
}

/** Holds the (member, conversation) pair and counts the member's conversations again from the pairs. */
export async function recountConversations(tx: Db, userId: string, conversationId: string) {
  await tx.insert(memberConversations).values({ userId, conversationId }).onConflictDoNothing();
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(memberConversations)
    .where(eq(memberConversations.userId, userId));
  const conversations = row?.n ?? 0;
  await tx
    .insert(userStats)
    .values({ userId, conversations })
    .onConflictDoUpdate({ target: userStats.userId, set: { conversations, updatedAt: new Date() } });
}

/** messaging's blocks, as every service that respects them reads them. */
export { blockBetween } from '@cartable/service-kit';
