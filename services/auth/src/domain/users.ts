import type { AdminUser, ClaimsToSign, User } from '@cartable/contracts';
import type { Db } from '@cartable/service-kit';
import { eq, inArray } from 'drizzle-orm';
import { permissions, rolePermissions, roles, userPermissions, userRoles, users } from '../db/schema.ts';

export type UserRow = typeof users.$inferSelect;

/**
 * Users as SPEC.md section 3 shows them, roles with their permissions and direct permissions:
 * three queries for any number of users.
 */
export async function toUserDtos(db: Db, rows: UserRow[]): Promise<User[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const [roleRows, direct] = await Promise.all([
    db
      .select({ userId: userRoles.userId, id: roles.id, slug: roles.slug, name: roles.name })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(inArray(userRoles.userId, ids)),
    db
      .select({ userId: userPermissions.userId, slug: permissions.slug })
      .from(userPermissions)
      .innerJoin(permissions, eq(permissions.id, userPermissions.permissionId))
      .where(inArray(userPermissions.userId, ids)),
  ]);
  const roleIds = [...new Set(roleRows.map((r) => r.id))];
  const rolePerms = roleIds.length
    ? await db
        .select({ roleId: rolePermissions.roleId, slug: permissions.slug })
        .from(rolePermissions)
        .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
        .where(inArray(rolePermissions.roleId, roleIds))
    : [];
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    email: row.email,
    username: row.username,
    profile_image: row.profileImage,
    email_verified: row.emailVerifiedAt !== null,
    is_admin: row.isAdmin,
    roles: roleRows
      .filter((r) => r.userId === row.id)
      .map((r) => ({
        slug: r.slug,
        name: r.name,
        permissions: rolePerms.filter((p) => p.roleId === r.id).map((p) => ({ slug: p.slug })),
      })),
    permissions: direct.filter((p) => p.userId === row.id).map((p) => ({ slug: p.slug })),
    country_id: row.countryId,
    city_id: row.cityId,
    created_at: row.createdAt.toISOString(),
  }));
}

/** The same, with what only the back office sees: whether the account is deactivated. */
export async function toAdminUserDtos(db: Db, rows: UserRow[]): Promise<AdminUser[]> {
  const dtos = await toUserDtos(db, rows);
  return dtos.map((dto, i) => ({ ...dto, deactivated_at: rows[i]!.deactivatedAt?.toISOString() ?? null }));
}

export async function toUserDto(db: Db, row: UserRow): Promise<User> {
  const [user] = await toUserDtos(db, [row]);
  return user!;
}

/** Token claims: role slugs and every permission held directly or through a role. */
export function claimsFor(user: User, tokenVersion: number): ClaimsToSign {
  const held = new Set([...user.permissions, ...user.roles.flatMap((r) => r.permissions)].map((p) => p.slug));
  return {
    sub: user.id,
    email_verified: user.email_verified,
    is_admin: user.is_admin,
    roles: user.roles.map((r) => r.slug),
    permissions: [...held].sort(),
    ver: tokenVersion,
  };
}

export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
  return row;
}

export async function findUserById(db: Db, id: string) {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}
