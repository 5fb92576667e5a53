import { type AdminUser, type ClaimsToSign, messages, type User } from '@cartable/contracts';
import { type Db, unauthorized } from '@cartable/service-kit';
import type { UserRow } from '../db/queries.ts';
import * as queries from '../db/queries.ts';

export type { UserRow };

/**
 * Users as SPEC.md section 3 shows them, roles with their permissions and direct permissions:
 * three queries for any number of users.
 */
export async function toUserDtos(db: Db, rows: UserRow[]): Promise<User[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const [roleRows, direct] = await Promise.all([
    queries.rolesOfUsers(db, ids),
    queries.directPermissionsOfUsers(db, ids),
  ]);
  const rolePerms = await queries.permissionsOfRoles(db, [...new Set(roleRows.map((r) => r.id))]);
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

export const toAdminUserDto = async (db: Db, row: UserRow): Promise<AdminUser> =>
  (await toAdminUserDtos(db, [row]))[0]!;

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

/** The member a valid token names; gone since it was issued, the token no longer stands. */
export async function signedInMember(db: Db, userId: string): Promise<UserRow> {
  const row = await queries.findUserById(db, userId);
  if (!row) throw unauthorized(messages.tokenInvalid);
  return row;
}
