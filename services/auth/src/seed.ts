import { DEMO_PASSWORD, demoEmail, demoMembers, permissionSlugs, WILDCARD_PERMISSION } from '@cartable/contracts';
import type { Db, UnitOfWork } from '@cartable/service-kit';
import * as queries from './db/queries.ts';
import { hashPassword } from './domain/passwords.ts';
import { userRegistered, userUpdated, userVerified } from './events/published.ts';

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
  await queries.ensurePermissions(
    db,
    [WILDCARD_PERMISSION, ...permissionSlugs].map((slug) => ({ slug, name: permissionNames[slug] ?? slug })),
  );
  return queries.ensureRoleWithPermission(db, { slug: 'admin', name: 'Administrateur' }, WILDCARD_PERMISSION);
}

/** The first administrator; an existing account is left as it is (its password may have changed). */
export async function seedAdmin(db: Db, email: string, password: string) {
  const adminRole = await seedRolesAndPermissions(db);
  if (await queries.findUserByEmail(db, email)) return;
  const admin = await queries.insertUserIfAbsent(db, {
    name: 'Administrateur Cartable',
    email: email.toLowerCase(),
    username: 'equipe_cartable',
    passwordHash: await hashPassword(password),
    emailVerifiedAt: new Date(),
    isAdmin: true,
  });
  if (admin && adminRole) await queries.giveRole(db, admin.id, adminRole.id);
}

/**
 * Verified demo members whose books catalog lists (SEED_DEMO=1). They go out through the events
 * of a person who signed up and confirmed the address (registered, with no link to mail, then
 * verified), and their public profile as auth.user.updated: every service's projection knows
 * them as it knows anyone, their names and their e-mails included.
 */
export async function seedDemoMembers(uow: UnitOfWork) {
  const ids = demoMembers.map((m) => m.id);
  // Hashing is deliberately slow: only when a demo member is still missing (the first start).
  if ((await queries.demoMembersPresent(uow.db, ids)) === demoMembers.length) return;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  for (const member of demoMembers) {
    await uow.run(async (t) => {
      const row = await queries.insertUserIfAbsent(t.db, {
        id: member.id,
        name: member.name,
        email: demoEmail(member.username),
        username: member.username,
        passwordHash,
        emailVerifiedAt: new Date(),
        countryId: 266,
        phone: member.phone,
        showPhone: member.phone !== null,
      });
      if (!row) return;
      await userRegistered(t, row, null);
      await userVerified(t, row.id, row.emailVerifiedAt ?? new Date());
      await userUpdated(t, row);
    });
  }
}
