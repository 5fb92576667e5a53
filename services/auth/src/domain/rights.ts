import { type AdminRole, messages, type User } from '@cartable/contracts';
import { conflict, type Db, HttpError, isUniqueViolation, notFound, recordEvent } from '@cartable/service-kit';
import { asc, count, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import { permissions, rolePermissions, roles, userPermissions, userRoles, users } from '../db/schema.ts';
import type { AuthDeps } from '../deps.ts';
import { revokeAllSessions } from './sessions.ts';
import { claimsFor, findUserById, toUserDto, toUserDtos } from './users.ts';

/**
 * Users, admin rights, roles and permissions (SPEC.md section 6), free of HTTP. Every change
 * emits auth.user.role_changed for each member whose rights it changed; rights taken away end
 * the holders' sessions (their token version goes up) in the transaction of the change, and
 * the gateway's cache learns it once committed. Whatever the number of members concerned, the
 * reads and the version bump are one query each.
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
  return rows.map((r) => ({
    ...r,
    permissions: perms.filter((p) => p.roleId === r.id).map((p) => ({ slug: p.slug })),
  }));
}

export async function findRole(db: Db, id: string) {
  const [role] = await listRoles(db, eq(roles.id, id));
  return role!;
}

export const listPermissions = (db: Db) => db.select().from(permissions).orderBy(asc(permissions.slug));

/** A page of users by name, optionally those whose name, e-mail or username contains `search`. */
export async function listUsers(
  db: Db,
  { page, per_page, search }: { page: number; per_page: number; search?: string },
) {
  const pattern = search ? `%${search.replace(/[%_\\]/g, (c) => `\\${c}`)}%` : undefined;
  const where = pattern
    ? or(ilike(users.name, pattern), ilike(users.email, pattern), ilike(users.username, pattern))
    : undefined;
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(users).where(where);
  const rows = await db
    .select()
    .from(users)
    .where(where)
    .orderBy(asc(users.name), asc(users.id))
    .limit(per_page)
    .offset((page - 1) * per_page);
  return {
    data: await toUserDtos(db, rows),
    meta: { current_page: page, last_page: Math.max(1, Math.ceil(total / per_page)), total, per_page },
  };
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
): Promise<{ message: string; user: User }> {
  if (!admin && id === by) throw new HttpError(422, m.cannotRevokeSelf);
  const { row, ended } = await db.transaction(async (tx) => {
    const [saved] = await tx
      .update(users)
      .set({ isAdmin: admin, updatedAt: new Date(), rightsChangedAt: sql`now()` })
      .where(eq(users.id, id))
      .returning();
    if (!saved) throw notFound(m.userNotFound);
    await recordRoleChanges(tx, [id], by);
    return { row: saved, ended: admin ? null : await revokeAllSessions(tx, [id]) };
  });
  relay.kick();
  await ended?.publish({ revocation });
  // An open session of the member gets the new rights at once (the gateway and services read them).
  await revocation.rightsChanged([id]);
  return { message: admin ? m.promoted : m.revoked, user: await toUserDto(db, row) };
}

/** Replaces a member's roles; their sessions end (they sign in again with the new claims). */
export async function setUserRoles(
  { db, relay, revocation }: RightsDeps,
  id: string,
  slugs: string[],
  by: string,
): Promise<{ message: string; user: User }> {
  const wanted = [...new Set(slugs)];
  const { user, ended } = await db.transaction(async (tx) => {
    if (!(await findUserById(tx, id))) throw notFound(m.userNotFound);
    const found = wanted.length ? await tx.select().from(roles).where(inArray(roles.slug, wanted)) : [];
    const unknown = wanted.filter((s) => !found.some((r) => r.slug === s));
    if (unknown.length) throw new HttpError(422, messages.validation, { roles: [m.unknownRoles(unknown)] });
    await markRightsChanged(tx, [id]);
    await tx.delete(userRoles).where(eq(userRoles.userId, id));
    if (found.length) await tx.insert(userRoles).values(found.map((r) => ({ userId: id, roleId: r.id })));
    await recordRoleChanges(tx, [id], by);
    const ended = await revokeAllSessions(tx, [id]);
    return { user: ended.rows[0], ended };
  });
  relay.kick();
  await ended.publish({ revocation });
  await revocation.rightsChanged(ended.rows.map((r) => r.id));
  return { message: m.rolesUpdated, user: await toUserDto(db, user!) };
}

/** Replaces a member's direct permissions; their sessions end. */
export async function setUserPermissions(
  { db, relay, revocation }: RightsDeps,
  id: string,
  slugs: string[],
  by: string,
): Promise<{ message: string; user: User }> {
  const { user, ended } = await db.transaction(async (tx) => {
    if (!(await findUserById(tx, id))) throw notFound(m.userNotFound);
    const ids = await permissionIds(tx, [...new Set(slugs)]);
    await markRightsChanged(tx, [id]);
    await tx.delete(userPermissions).where(eq(userPermissions.userId, id));
    if (ids.length) await tx.insert(userPermissions).values(ids.map((permissionId) => ({ userId: id, permissionId })));
    await recordRoleChanges(tx, [id], by);
    const ended = await revokeAllSessions(tx, [id]);
    return { user: ended.rows[0], ended };
  });
  relay.kick();
  await ended.publish({ revocation });
  await revocation.rightsChanged(ended.rows.map((r) => r.id));
  return { message: m.permissionsUpdated, user: await toUserDto(db, user!) };
}

export interface RoleFields {
  slug: string;
  name: string;
  permissions: string[];
}

export async function createRole(db: Db, fields: RoleFields) {
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
    return created;
  });
  return findRole(db, role.id);
}

/** Everyone holding the role now holds other permissions: their sessions end. */
export async function updateRole({ db, relay, revocation }: RightsDeps, id: string, fields: RoleFields, by: string) {
  const ended = await db.transaction(async (tx) => {
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
    return revokeAllSessions(tx, holders);
  });
  relay.kick();
  await ended.publish({ revocation });
  await revocation.rightsChanged(ended.rows.map((r) => r.id));
  return findRole(db, id);
}

/** The admin role stays; the holders of a deleted role lose its permissions and their sessions. */
export async function deleteRole({ db, relay, revocation }: RightsDeps, id: string, by: string) {
  const ended = await db.transaction(async (tx) => {
    const [role] = await tx.select().from(roles).where(eq(roles.id, id));
    if (!role) throw notFound(m.roleNotFound);
    if (role.slug === 'admin') throw new HttpError(422, m.adminRoleKept);
    const holders = (await tx.select({ userId: userRoles.userId }).from(userRoles).where(eq(userRoles.roleId, id))).map(
      (h) => h.userId,
    );
    await tx.delete(roles).where(eq(roles.id, id));
    await recordRoleChanges(tx, holders, by);
    await markRightsChanged(tx, holders);
    return revokeAllSessions(tx, holders);
  });
  relay.kick();
  await ended.publish({ revocation });
  await revocation.rightsChanged(ended.rows.map((r) => r.id));
  return { message: m.roleDeleted };
}
