import { DEMO_PASSWORD, demoEmail, demoMembers, permissionSlugs, WILDCARD_PERMISSION } from '@cartable/contracts';
import type { Db } from '@cartable/service-kit';
import { eq, inArray } from 'drizzle-orm';
import { recordUserUpdated } from '../domain/account-events.ts';
import { hashPassword } from '../domain/passwords.ts';
import { findUserByEmail } from '../domain/users.ts';
import { permissions, rolePermissions, roles, userRoles, users } from './schema.ts';

const permissionNames: Record<string, string> = {
  [WILDCARD_PERMISSION]: 'Toutes les permissions',
  'books.update.any': 'Modifier tous les manuels',
  'users.view.any': 'Voir tous les utilisateurs',
  'categories.update': 'Gérer les catégories',
  'user_subscriptions.manage': 'Gérer les abonnements des utilisateurs',
  'roles.view': 'Voir les rôles',
  'reports.view': 'Voir les rapports',
  'cities.manage': 'Gérer les villes',
  'banners.manage': 'Gérer les bannières',
  'payments.manage': 'Gérer les paiements',
  'lists.manage': 'Gérer les listes de manuels',
};

/** Reference data: the permissions of SPEC.md section 6 and the admin role; idempotent. */
export async function seedRolesAndPermissions(db: Db) {
  for (const slug of [WILDCARD_PERMISSION, ...permissionSlugs]) {
    await db
      .insert(permissions)
      .values({ slug, name: permissionNames[slug] ?? slug })
      .onConflictDoNothing();
  }
  await db.insert(roles).values({ slug: 'admin', name: 'Administrateur' }).onConflictDoNothing();
  const [adminRole] = await db.select().from(roles).where(eq(roles.slug, 'admin'));
  const [wildcard] = await db.select().from(permissions).where(eq(permissions.slug, WILDCARD_PERMISSION));
  if (adminRole && wildcard) {
    await db.insert(rolePermissions).values({ roleId: adminRole.id, permissionId: wildcard.id }).onConflictDoNothing();
  }
  return adminRole;
}

/** The first administrator; an existing account is left as it is (its password may have changed). */
export async function seedAdmin(db: Db, email: string, password: string) {
  const adminRole = await seedRolesAndPermissions(db);
  if (await findUserByEmail(db, email)) return;
  const [admin] = await db
    .insert(users)
    .values({
      name: 'Administrateur Cartable',
      email: email.toLowerCase(),
      username: 'equipe_cartable',
      passwordHash: await hashPassword(password),
      emailVerifiedAt: new Date(),
      isAdmin: true,
    })
    .onConflictDoNothing()
    .returning();
  if (admin && adminRole)
    await db.insert(userRoles).values({ userId: admin.id, roleId: adminRole.id }).onConflictDoNothing();
}

/**
 * Verified demo members whose books catalog lists (SEED_DEMO=1). Their public profile goes out
 * as auth.user.updated, so no verification e-mail is sent to these made-up addresses.
 */
export async function seedDemoMembers(db: Db) {
  const existing = await db
    .select({ id: users.id })
    .from(users)
    .where(
      inArray(
        users.id,
        demoMembers.map((m) => m.id),
      ),
    );
  // Hashing is deliberately slow: only when a demo member is still missing (the first start).
  if (existing.length === demoMembers.length) return;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  for (const member of demoMembers) {
    await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(users)
        .values({
          id: member.id,
          name: member.name,
          email: demoEmail(member.username),
          username: member.username,
          passwordHash,
          emailVerifiedAt: new Date(),
          countryId: 266,
          phone: member.phone,
          showPhone: member.phone !== null,
        })
        .onConflictDoNothing()
        .returning();
      if (row) await recordUserUpdated(tx, row);
    });
  }
}
