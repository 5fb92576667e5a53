import { type AdminRole, type AdminUser, messages, type UserListQuery } from '@cartable/contracts';
import { conflict, type Db, HttpError, isUniqueViolation, notFound, recordEvent } from '@cartable/service-kit';
import { and, asc, count, desc, eq, gte, ilike, inArray, isNotNull, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import { permissions, rolePermissions, roles, userPermissions, userRoles, users } from '../db/schema.ts';
import type { AuthDeps } from '../deps.ts';
import { recordAudit } from './audit.ts';
import { revokeAllSessions } from './sessions.ts';
import { claimsFor, findUserById, toAdminUserDtos, toUserDtos } from './users.ts';

/**
 * Users, admin rights, roles and permissions (SPEC.md section 6), free of HTTP. Every change
 * emits auth.user.role_changed for each member whose rights it changed; rights taken away end
 * the holders' sessions (their token version goes up) in the transaction of the change, and
 * the gateway's cache learns it once committed. Whatever the number of members concerned, the
 * reads and the version bump are one query each. Every change writes its lines of the
 * administrators' trail (domain/audit.ts) in its transaction.
 */

const m = messages.auth;
type RightsDeps = Pick<AuthDeps, 'db' | 'relay' | 'revocation'>;

/** One auth.user.role_changed per member, with the claims their next token will carry. */
async function recordRoleChanges(tx: Db, userIds: string[], changedBy: string) {
  const ids = [...new Set(userIds)];
  if (!ids.length) return;
  const rows = await tx.select().from(users).where(inArray(users.id, ids));
  const dtos = await toUserDtos(tx, rows);
  for (const [i, row] of rows.entries()) {
    const claims = claimsFor(dtos[i]!, row.tokenVersion);
    await recordEvent(tx, 'auth.user.role_changed', {
      user_id: row.id,
      is_admin: claims.is_admin,
      roles: claims.roles,
      permissions: claims.permissions,
      changed_by: changedBy,
    });
  }
}

/** Ids of these permission slugs; an unknown slug is a 422 naming it. */
async function permissionIds(tx: Db, slugs: string[]) {
  if (!slugs.length) return [];
  const rows = await tx.select().from(permissions).where(inArray(permissions.slug, slugs));
  const unknown = slugs.filter((s) => !rows.some((r) => r.slug === s));
  if (unknown.length) throw new HttpError(422, messages.validation, { permissions: [m.unknownPermissions(unknown)] });
  return rows.map((r) => r.id);
}

/** Roles with their permissions (two queries), by slug. */
export async function listRoles(db: Db, where?: SQL): Promise<AdminRole[]> {
  const rows = await db.select().from(roles).where(where).orderBy(asc(roles.slug));
  const perms = rows.length
    ? await db
        .select({ roleId: rolePermissions.roleId, slug: permissions.slug })
        .from(rolePermissions)
        .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
        .where(
          inArray(
            rolePermissions.roleId,
            rows.map((r) => r.id),
          ),
        )
    : [];
  const held = rows.length
    ? await db
        .select({ roleId: userRoles.roleId, n: count() })
        .from(userRoles)
        .where(
          inArray(
            userRoles.roleId,
            rows.map((r) => r.id),
          ),
        )
        .groupBy(userRoles.roleId)
    : [];
  return rows.map((r) => ({
    ...r,
    permissions: perms.filter((p) => p.roleId === r.id).map((p) => ({ slug: p.slug })),
    holders_count: held.find((h) => h.roleId === r.id)?.n ?? 0,
  }));
}

export async function findRole(db: Db, id: string) {
  const [role] = await listRoles(db, eq(roles.id, id));
  return role!;
}

export const listPermissions = (db: Db) => db.select().from(permissions).orderBy(asc(permissions.slug));

const toAdminUserDto = async (db: Db, row: typeof users.$inferSelect) => (await toAdminUserDtos(db, [row]))[0]!;

/** A calendar day at midnight UTC, `days` later. */
const dayStart = (day: string, days = 0) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000);

/**
 * A page of users: name, e-mail or username containing `search`; verified or not, admin or not,
 * holding a role, joined between two days, active or deactivated; by name or date of joining.
 */
export async function listUsers(db: Db, query: UserListQuery) {
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
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(users).where(where);
  const rows = await db
    .select()
    .from(users)
    .where(where)
    .orderBy(...order)
    .limit(per_page)
    .offset((page - 1) * per_page);
  return {
    data: await toAdminUserDtos(db, rows),
    meta: { current_page: page, last_page: Math.max(1, Math.ceil(total / per_page)), total, per_page },
  };
}

/** Who holds a role, a page at a time, by name. */
export async function listRoleHolders(db: Db, roleId: string, { page, per_page }: { page: number; per_page: number }) {
  const [role] = await db.select({ id: roles.id }).from(roles).where(eq(roles.id, roleId));
  if (!role) throw notFound(m.roleNotFound);
  const where = eq(userRoles.roleId, roleId);
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(userRoles).where(where);
  const data = await db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(userRoles)
    .innerJoin(users, eq(users.id, userRoles.userId))
    .where(where)
    .orderBy(asc(users.name), asc(users.id))
    .limit(per_page)
    .offset((page - 1) * per_page);
  return { data, meta: { current_page: page, last_page: Math.max(1, Math.ceil(total / per_page)), total, per_page } };
}

/** Slugs of a member's roles and direct permissions, as they are before a change. */
async function heldSlugs(tx: Db, id: string) {
  const [roleRows, permRows] = await Promise.all([
    tx
      .select({ slug: roles.slug })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(eq(userRoles.userId, id)),
    tx
      .select({ slug: permissions.slug })
      .from(userPermissions)
      .innerJoin(permissions, eq(permissions.id, userPermissions.permissionId))
      .where(eq(userPermissions.userId, id)),
  ]);
  return { roles: roleRows.map((r) => r.slug).sort(), permissions: permRows.map((p) => p.slug).sort() };
}

/** The moment the members' rights changed: tokens issued before read the new ones. */
async function markRightsChanged(tx: Db, userIds: string[]) {
  if (userIds.length) await tx.update(users).set({ rightsChangedAt: sql`now()` }).where(inArray(users.id, userIds));
}

/** Promotes or demotes an administrator; never yourself. A demotion ends the member's sessions. */
export async function setAdmin(
  { db, relay, revocation }: RightsDeps,
  id: string,
  admin: boolean,
  by: string,
): Promise<{ message: string; user: AdminUser }> {
  if (!admin && id === by) throw new HttpError(422, m.cannotRevokeSelf);
  const { row, ended } = await db.transaction(async (tx) => {
    const [saved] = await tx
      .update(users)
      .set({ isAdmin: admin, updatedAt: new Date(), rightsChangedAt: sql`now()` })
      .where(eq(users.id, id))
      .returning();
    if (!saved) throw notFound(m.userNotFound);
    await recordRoleChanges(tx, [id], by);
    await recordAudit(tx, { actorId: by, action: admin ? 'user.promoted' : 'user.revoked', targets: [id] });
    return { row: saved, ended: admin ? null : await revokeAllSessions(tx, [id]) };
  });
  relay.kick();
  await ended?.publish({ revocation });
  // An open session of the member gets the new rights at once (the gateway and services read them).
  await revocation.rightsChanged([id]);
  return { message: admin ? m.promoted : m.revoked, user: await toAdminUserDto(db, row) };
}

/** Replaces a member's roles; their sessions end (they sign in again with the new claims). */
export async function setUserRoles(
  { db, relay, revocation }: RightsDeps,
  id: string,
  slugs: string[],
  by: string,
): Promise<{ message: string; user: AdminUser }> {
  const wanted = [...new Set(slugs)];
  const { user, ended } = await db.transaction(async (tx) => {
    if (!(await findUserById(tx, id))) throw notFound(m.userNotFound);
    const before = await heldSlugs(tx, id);
    const found = wanted.length ? await tx.select().from(roles).where(inArray(roles.slug, wanted)) : [];
    const unknown = wanted.filter((s) => !found.some((r) => r.slug === s));
    if (unknown.length) throw new HttpError(422, messages.validation, { roles: [m.unknownRoles(unknown)] });
    await markRightsChanged(tx, [id]);
    await tx.delete(userRoles).where(eq(userRoles.userId, id));
    if (found.length) await tx.insert(userRoles).values(found.map((r) => ({ userId: id, roleId: r.id })));
    await recordRoleChanges(tx, [id], by);
    await recordAudit(tx, {
      actorId: by,
      action: 'user.roles_set',
      targets: [id],
      details: { before: before.roles, after: found.map((r) => r.slug).sort() },
    });
    const ended = await revokeAllSessions(tx, [id]);
    return { user: ended.rows[0], ended };
  });
  relay.kick();
  await ended.publish({ revocation });
  await revocation.rightsChanged(ended.rows.map((r) => r.id));
  return { message: m.rolesUpdated, user: await toAdminUserDto(db, user!) };
}

/** Replaces a member's direct permissions; their sessions end. */
export async function setUserPermissions(
  { db, relay, revocation }: RightsDeps,
  id: string,
  slugs: string[],
  by: string,
): Promise<{ message: string; user: AdminUser }> {
  const { user, ended } = await db.transaction(async (tx) => {
    if (!(await findUserById(tx, id))) throw notFound(m.userNotFound);
    const before = await heldSlugs(tx, id);
    const wanted = [...new Set(slugs)];
    const ids = await permissionIds(tx, wanted);
    await markRightsChanged(tx, [id]);
    await tx.delete(userPermissions).where(eq(userPermissions.userId, id));
    if (ids.length) await tx.insert(userPermissions).values(ids.map((permissionId) => ({ userId: id, permissionId })));
    await recordRoleChanges(tx, [id], by);
    await recordAudit(tx, {
      actorId: by,
      action: 'user.permissions_set',
      targets: [id],
      details: { before: before.permissions, after: wanted.sort() },
    });
    const ended = await revokeAllSessions(tx, [id]);
    return { user: ended.rows[0], ended };
  });
  relay.kick();
  await ended.publish({ revocation });
  await revocation.rightsChanged(ended.rows.map((r) => r.id));
  return { message: m.permissionsUpdated, user: await toAdminUserDto(db, user!) };
}

export interface RoleFields {
  slug: string;
  name: string;
  permissions: string[];
}

export async function createRole(db: Db, fields: RoleFields, by: string) {
  const role = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(roles)
      .values({ slug: fields.slug, name: fields.name })
      .onConflictDoNothing()
      .returning();
    if (!created) throw conflict(m.roleExists(fields.slug), { slug: [m.roleExists(fields.slug)] });
    const ids = await permissionIds(tx, fields.permissions);
    if (ids.length)
      await tx.insert(rolePermissions).values(ids.map((permissionId) => ({ roleId: created.id, permissionId })));
    await recordAudit(tx, {
      actorId: by,
      action: 'role.created',
      targets: [null],
      details: {
        role_id: created.id,
        slug: created.slug,
        name: created.name,
        permissions: [...new Set(fields.permissions)].sort(),
      },
    });
    return created;
  });
  return findRole(db, role.id);
}

/** Everyone holding the role now holds other permissions: their sessions end. */
export async function updateRole({ db, relay, revocation }: RightsDeps, id: string, fields: RoleFields, by: string) {
  const ended = await db.transaction(async (tx) => {
    const [previous] = await listRoles(tx, eq(roles.id, id));
    const [saved] = await tx
      .update(roles)
      .set({ slug: fields.slug, name: fields.name })
      .where(eq(roles.id, id))
      .returning()
      .catch((err) => {
        // Drizzle wraps the database error: isUniqueViolation looks inside.
        if (isUniqueViolation(err)) throw conflict(m.roleExists(fields.slug));
        throw err;
      });
    if (!saved) throw notFound(m.roleNotFound);
    const ids = await permissionIds(tx, fields.permissions);
    await tx.delete(rolePermissions).where(eq(rolePermissions.roleId, id));
    if (ids.length) await tx.insert(rolePermissions).values(ids.map((permissionId) => ({ roleId: id, permissionId })));
    const holders = (await tx.select({ userId: userRoles.userId }).from(userRoles).where(eq(userRoles.roleId, id))).map(
      (h) => h.userId,
    );
    await recordRoleChanges(tx, holders, by);
    await markRightsChanged(tx, holders);
    // The role as a whole, and each holder, whose rights changed with it.
    await recordAudit(tx, {
      actorId: by,
      action: 'role.updated',
      targets: [null, ...holders],
      details: {
        role_id: id,
        before: {
          slug: previous!.slug,
          name: previous!.name,
          permissions: previous!.permissions.map((p) => p.slug).sort(),
        },
        after: { slug: saved.slug, name: saved.name, permissions: [...new Set(fields.permissions)].sort() },
      },
    });
    return revokeAllSessions(tx, holders);
  });
  relay.kick();
  await ended.publish({ revocation });
  await revocation.rightsChanged(ended.rows.map((r) => r.id));
  return findRole(db, id);
}

/**
 * The admin role stays. A role still held is refused (409, with how many hold it) unless
 * `force`: then its holders lose it, their permissions and their sessions.
 */
export async function deleteRole({ db, relay, revocation }: RightsDeps, id: string, by: string, force = false) {
  const ended = await db.transaction(async (tx) => {
    // Locked: nobody is given the role between the count and the deletion.
    const [role] = await tx.select().from(roles).where(eq(roles.id, id)).for('update');
    if (!role) throw notFound(m.roleNotFound);
    if (role.slug === 'admin') throw new HttpError(422, m.adminRoleKept);
    const holders = (await tx.select({ userId: userRoles.userId }).from(userRoles).where(eq(userRoles.roleId, id))).map(
      (h) => h.userId,
    );
    if (holders.length && !force) {
      throw new HttpError(409, m.roleHeld(holders.length), undefined, { holders_count: holders.length });
    }
    await tx.delete(roles).where(eq(roles.id, id));
    await recordRoleChanges(tx, holders, by);
    await markRightsChanged(tx, holders);
    await recordAudit(tx, {
      actorId: by,
      action: 'role.deleted',
      targets: [null, ...holders],
      details: { role_id: id, slug: role.slug, name: role.name, holders_count: holders.length },
    });
    return revokeAllSessions(tx, holders);
  });
  relay.kick();
  await ended.publish({ revocation });
  await revocation.rightsChanged(ended.rows.map((r) => r.id));
  return { message: m.roleDeleted };
}
