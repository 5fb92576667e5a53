import type { ClaimsToSign, User } from '@cartable/contracts';
import type { Db } from '@cartable/service-kit';
import { eq, inArray } from 'drizzle-orm';
import { permissions, rolePermissions, roles, userPermissions, userRoles, users } from '../db/schema.ts';

export type UserRow = typeof users.$inferSelect;

/** The user as SPEC.md section 3 shows it, roles with their permissions and direct permissions. */
export async function toUserDto(db: Db, row: UserRow): Promise<User> {
  const roleRows = await db
    .select({ id: roles.id, slug: roles.slug, name: roles.name })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(eq(userRoles.userId, row.id));
  const rolePerms = roleRows.length
    ? await db
        .select({ roleId: rolePermissions.roleId, slug: permissions.slug })
        .from(rolePermissions)
        .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
        .where(
          inArray(
            rolePermissions.roleId,
            roleRows.map((r) => r.id),
          ),
        )
    : [];
  const direct = await db
    .select({ slug: permissions.slug })
    .from(userPermissions)
    .innerJoin(permissions, eq(permissions.id, userPermissions.permissionId))
    .where(eq(userPermissions.userId, row.id));

  return {
    id: row.id,
    name: row.name,
    email: row.email,
    username: row.username,
    profile_image: row.profileImage,
    email_verified: row.emailVerifiedAt !== null,
    is_admin: row.isAdmin,
    roles: roleRows.map((r) => ({
      slug: r.slug,
      name: r.name,
      permissions: rolePerms.filter((p) => p.roleId === r.id).map((p) => ({ slug: p.slug })),
    })),
    permissions: direct.map((p) => ({ slug: p.slug })),
    country_id: row.countryId,
    city_id: row.cityId,
    created_at: row.createdAt.toISOString(),
  };
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
