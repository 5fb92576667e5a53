import { type AdminRole, type AdminUser, messages, type UserListQuery } from '@cartable/contracts';
import {
  conflict,
  type Db,
  invalid,
  isUniqueViolation,
  notFound,
  type Transaction,
  unprocessable,
} from '@cartable/service-kit';
import * as queries from '../db/queries.ts';
import type { AuthDeps } from '../deps.ts';
import { roleChanged } from '../events/published.ts';
import { recordAudit } from './audit.ts';
import { endSessions } from './revocation.ts';
import { claimsFor, toAdminUserDto, toAdminUserDtos, toUserDtos } from './users.ts';

/**
 * Users, admin rights, roles and permissions (SPEC.md section 6). Every change records
 * auth.user.role_changed for each member whose rights it changed; rights taken away end the
 * holders' sessions (their token version goes up) in the transaction of the change, and the
 * gateway's copy learns it once committed. Whatever the number of members concerned, the reads
 * and the version bump are one query each. Every change writes its lines of the administrators'
 * trail (domain/audit.ts) in its transaction.
 */

const m = messages.auth;
type RightsDeps = Pick<AuthDeps, 'uow' | 'revocation'>;

/** One auth.user.role_changed per member, with the claims their next token will carry. */
async function recordRoleChanges(t: Transaction, userIds: string[], changedBy: string) {
  const ids = [...new Set(userIds)];
  if (!ids.length) return;
  const rows = await queries.usersByIds(t.db, ids);
  const dtos = await toUserDtos(t.db, rows);
  for (const [i, row] of rows.entries()) await roleChanged(t, row.id, claimsFor(dtos[i]!, row.tokenVersion), changedBy);
}

/**
 * Rights changed for these members: their sessions end, and once committed the gateway's copy
 * holds their current rights (an open session reads them at once).
 */
async function rightsTakenAway(t: Transaction, revocation: RightsDeps['revocation'], ids: string[]) {
  const rows = await endSessions(t, revocation, ids);
  t.afterCommit(() => revocation.rightsChanged(rows.map((r) => r.id)));
  return rows;
}

/** Ids of these permission slugs; an unknown slug is a 422 naming it. */
async function permissionIds(db: Db, slugs: string[]) {
  const rows = await queries.permissionsBySlugs(db, slugs);
  const unknown = slugs.filter((s) => !rows.some((r) => r.slug === s));
  if (unknown.length) throw unprocessable({ permissions: [m.unknownPermissions(unknown)] });
  return rows.map((r) => r.id);
}

/** Roles with their permissions and how many hold each, by slug. */
async function listRoles(db: Db, id?: string): Promise<AdminRole[]> {
  const rows = await queries.roleRows(db, id);
  const ids = rows.map((r) => r.id);
  const [perms, held] = await Promise.all([queries.permissionsOfRoles(db, ids), queries.holderCounts(db, ids)]);
  return rows.map((r) => ({
    ...r,
    permissions: perms.filter((p) => p.roleId === r.id).map((p) => ({ slug: p.slug })),
    holders_count: held.find((h) => h.roleId === r.id)?.n ?? 0,
  }));
}

async function findRole(db: Db, id: string) {
  const [role] = await listRoles(db, id);
  return role!;
}

type Reader = Pick<AuthDeps, 'uow'>;

export async function allRoles({ uow }: Reader) {
  return { roles: await listRoles(uow.db) };
}

export async function allPermissions({ uow }: Reader) {
  return { permissions: await queries.allPermissions(uow.db) };
}

/** A page of users as the back office filters them (libs/contracts: UserListQuery). */
export async function listUsers({ uow }: Reader, query: UserListQuery) {
  const db = uow.db;
  const { rows, total } = await queries.userPage(db, query);
  return {
    data: await toAdminUserDtos(db, rows),
    meta: {
      current_page: query.page,
      last_page: Math.max(1, Math.ceil(total / query.per_page)),
      total,
      per_page: query.per_page,
    },
  };
}

/** Who holds a role, a page at a time, by name. */
export async function listRoleHolders({ uow }: Reader, roleId: string, paging: { page: number; per_page: number }) {
  const db = uow.db;
  if (!(await queries.roleRows(db, roleId)).length) throw notFound(m.roleNotFound);
  const { rows, total } = await queries.roleHolderPage(db, roleId, paging);
  const { page, per_page } = paging;
  return {
    data: rows,
    meta: { current_page: page, last_page: Math.max(1, Math.ceil(total / per_page)), total, per_page },
  };
}

/** Promotes or demotes an administrator; never yourself. A demotion ends the member's sessions. */
export async function setAdmin(
  { uow, revocation }: RightsDeps,
  id: string,
  admin: boolean,
  by: string,
): Promise<{ message: string; user: AdminUser }> {
  if (!admin && id === by) throw invalid(m.cannotRevokeSelf);
  const row = await uow.run(async (t) => {
    const saved = await queries.setAdminFlag(t.db, id, admin);
    if (!saved) throw notFound(m.userNotFound);
    await recordRoleChanges(t, [id], by);
    await recordAudit(t.db, { actorId: by, action: admin ? 'user.promoted' : 'user.revoked', targets: [id] });
    if (!admin) await endSessions(t, revocation, [id]);
    // An open session of the member gets the new rights at once (the gateway and services read them).
    t.afterCommit(() => revocation.rightsChanged([id]));
    return saved;
  });
  return { message: admin ? m.promoted : m.revoked, user: await toAdminUserDto(uow.db, row) };
}

/** Replaces a member's roles; their sessions end (they sign in again with the new claims). */
export async function setUserRoles(
  { uow, revocation }: RightsDeps,
  id: string,
  slugs: string[],
  by: string,
): Promise<{ message: string; user: AdminUser }> {
  const wanted = [...new Set(slugs)];
  const user = await uow.run(async (t) => {
    if (!(await queries.findUserById(t.db, id))) throw notFound(m.userNotFound);
    const before = await queries.heldSlugs(t.db, id);
    const found = await queries.rolesBySlugs(t.db, wanted);
    const unknown = wanted.filter((s) => !found.some((r) => r.slug === s));
    if (unknown.length) throw unprocessable({ roles: [m.unknownRoles(unknown)] });
    await queries.markRightsChanged(t.db, [id]);
    await queries.replaceUserRoles(
      t.db,
      id,
      found.map((r) => r.id),
    );
    await recordRoleChanges(t, [id], by);
    await recordAudit(t.db, {
      actorId: by,
      action: 'user.roles_set',
      targets: [id],
      details: { before: before.roles, after: found.map((r) => r.slug).sort() },
    });
    return (await rightsTakenAway(t, revocation, [id]))[0]!;
  });
  return { message: m.rolesUpdated, user: await toAdminUserDto(uow.db, user) };
}

/** Replaces a member's direct permissions; their sessions end. */
export async function setUserPermissions(
  { uow, revocation }: RightsDeps,
  id: string,
  slugs: string[],
  by: string,
): Promise<{ message: string; user: AdminUser }> {
  const user = await uow.run(async (t) => {
    if (!(await queries.findUserById(t.db, id))) throw notFound(m.userNotFound);
    const before = await queries.heldSlugs(t.db, id);
    const wanted = [...new Set(slugs)];
    await queries.markRightsChanged(t.db, [id]);
    await queries.replaceUserPermissions(t.db, id, await permissionIds(t.db, wanted));
    await recordRoleChanges(t, [id], by);
    await recordAudit(t.db, {
      actorId: by,
      action: 'user.permissions_set',
      targets: [id],
      details: { before: before.permissions, after: wanted.sort() },
    });
    return (await rightsTakenAway(t, revocation, [id]))[0]!;
  });
  return { message: m.permissionsUpdated, user: await toAdminUserDto(uow.db, user) };
}

export interface RoleFields {
  slug: string;
  name: string;
  permissions: string[];
}

export async function createRole({ uow }: Pick<AuthDeps, 'uow'>, fields: RoleFields, by: string) {
  const role = await uow.run(async (t) => {
    const created = await queries.insertRole(t.db, fields.slug, fields.name);
    if (!created) throw conflict(m.roleExists(fields.slug), { slug: [m.roleExists(fields.slug)] });
    await queries.replaceRolePermissions(t.db, created.id, await permissionIds(t.db, fields.permissions));
    await recordAudit(t.db, {
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
  return { message: m.roleCreated, role: await findRole(uow.db, role.id) };
}

/** Everyone holding the role now holds other permissions: their sessions end. */
export async function updateRole({ uow, revocation }: RightsDeps, id: string, fields: RoleFields, by: string) {
  await uow.run(async (t) => {
    const [previous] = await listRoles(t.db, id);
    const saved = await queries.updateRole(t.db, id, fields.slug, fields.name).catch((err) => {
      // Drizzle wraps the database error: isUniqueViolation looks inside.
      if (isUniqueViolation(err)) throw conflict(m.roleExists(fields.slug));
      throw err;
    });
    if (!saved) throw notFound(m.roleNotFound);
    await queries.replaceRolePermissions(t.db, id, await permissionIds(t.db, fields.permissions));
    const holders = await queries.roleHolderIds(t.db, id);
    await recordRoleChanges(t, holders, by);
    await queries.markRightsChanged(t.db, holders);
    // The role as a whole, and each holder, whose rights changed with it.
    await recordAudit(t.db, {
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
    await rightsTakenAway(t, revocation, holders);
  });
  return { message: m.roleUpdated, role: await findRole(uow.db, id) };
}

/**
 * The admin role stays. A role still held is refused (409, with how many hold it) unless
 * `force`: then its holders lose it, their permissions and their sessions.
 */
export async function deleteRole({ uow, revocation }: RightsDeps, id: string, by: string, force = false) {
  await uow.run(async (t) => {
    // Locked: nobody is given the role between the count and the deletion.
    const role = await queries.lockRole(t.db, id);
    if (!role) throw notFound(m.roleNotFound);
    if (role.slug === 'admin') throw invalid(m.adminRoleKept);
    const holders = await queries.roleHolderIds(t.db, id);
    if (holders.length && !force) {
      throw conflict(m.roleHeld(holders.length), undefined, { holders_count: holders.length });
    }
    await queries.deleteRole(t.db, id);
    await recordRoleChanges(t, holders, by);
    await queries.markRightsChanged(t.db, holders);
    await recordAudit(t.db, {
      actorId: by,
      action: 'role.deleted',
      targets: [null, ...holders],
      details: { role_id: id, slug: role.slug, name: role.name, holders_count: holders.length },
    });
    await rightsTakenAway(t, revocation, holders);
  });
  return { message: m.roleDeleted };
}
