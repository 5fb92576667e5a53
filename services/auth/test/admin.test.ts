import { refusedBeforeValidation } from '@cartable/service-kit/testing';
import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissions } from '../src/db/schema.ts';
import { seedRolesAndPermissions } from '../src/seed.ts';
import { type AuthHarness, startAuth } from './harness.ts';

let h: AuthHarness;
let admin: string;
beforeAll(async () => {
  h = await startAuth();
  admin = await h.admin();
});
afterAll(() => h?.teardown());

describe('administration of users, roles and permissions', () => {
  it('lists users page by page with a search, for admins and users.view.any holders only', async () => {
    const { token } = await h.member('liste_a');
    await h.member('liste_b');
    expect((await h.call('GET', '/users/all', undefined, token)).status).toBe(403);
    const page = await h.call('GET', '/users/all?per_page=1&page=2', undefined, admin);
    expect(page.body.meta).toMatchObject({ current_page: 2, per_page: 1 });
    expect(page.body.meta.total).toBeGreaterThanOrEqual(3);
    expect(page.body.data).toHaveLength(1);
    const found = await h.call('GET', '/users/all?search=liste_b', undefined, admin);
    expect(found.body.data.map((u: { username: string }) => u.username)).toEqual(['eleve_liste_b']);
    expect((await h.call('GET', '/users/all?per_page=1000', undefined, admin)).status).toBe(422);
  });

  it('promotes and revokes admins, never yourself, and ends the revoked admin’s sessions', async () => {
    const { token, user } = await h.member('promu');
    expect((await h.call('POST', `/admin/users/${user.id}/promote`, undefined, token)).status).toBe(403);
    const promoted = await h.call('POST', `/admin/users/${user.id}/promote`, undefined, admin);
    expect(promoted.body.user.is_admin).toBe(true);
    const relogin = await h.call('POST', '/login', { email: 'promu@example.ga', password: 'Cartable1a' });
    expect((await h.call('GET', '/users/check-admin', undefined, relogin.body.access_token)).body).toEqual({
      is_admin: true,
    });

    const revoked = await h.call('POST', `/admin/users/${user.id}/revoke`, undefined, admin);
    expect(revoked.body.user.is_admin).toBe(false);
    expect(await h.revocationOf(relogin.body.access_token)).toEqual({ database: true, cache: 'revoked' });
    const changes = (await h.events('auth.user.role_changed')).filter((e) => e.user_id === user.id);
    expect(changes.map((e) => e.is_admin)).toEqual([true, false]);

    const me = (await h.call('GET', '/user', undefined, admin)).body.user.id;
    expect((await h.call('POST', `/admin/users/${me}/revoke`, undefined, admin)).status).toBe(422);
    expect(
      (await h.call('POST', '/admin/users/00000000-0000-4000-8000-000000000000/promote', undefined, admin)).status,
    ).toBe(404);
  });

  it('creates roles of known permissions, gives them to users, and the claims follow', async () => {
    const created = await h.call(
      'POST',
      '/roles',
      { slug: 'moderateur_villes', name: 'Gestion des villes', permissions: ['cities.manage'] },
      admin,
    );
    expect(created.status).toBe(201);
    expect(
      (await h.call('POST', '/roles', { slug: 'moderateur_villes', name: 'Doublon', permissions: [] }, admin)).status,
    ).toBe(409);
    expect(
      (await h.call('POST', '/roles', { slug: 'x_y', name: 'Inconnu', permissions: ['nope.nope'] }, admin)).status,
    ).toBe(422);

    const { user } = await h.member('villes');
    const withRole = await h.call('PUT', `/admin/users/${user.id}/roles`, { roles: ['moderateur_villes'] }, admin);
    expect(withRole.body.user.roles).toEqual([
      { slug: 'moderateur_villes', name: 'Gestion des villes', permissions: [{ slug: 'cities.manage' }] },
    ]);
    await h.call('PUT', `/admin/users/${user.id}/permissions`, { permissions: ['reports.view'] }, admin);
    const login = await h.call('POST', '/login', { email: 'villes@example.ga', password: 'Cartable1a' });
    const claims = decodeJwt(login.body.access_token);
    expect(claims).toMatchObject({
      roles: ['moderateur_villes'],
      permissions: ['cities.manage', 'reports.view'],
      is_admin: false,
    });
    // Without roles.view, the roles list is closed to this member.
    expect((await h.call('GET', '/roles', undefined, login.body.access_token)).status).toBe(403);

    const roles = await h.call('GET', '/roles', undefined, admin);
    expect(roles.body.roles.map((r: { slug: string }) => r.slug)).toEqual(['admin', 'moderateur_villes']);
    const perms = await h.call('GET', '/permissions', undefined, admin);
    expect(perms.body.permissions.map((p: { slug: string }) => p.slug)).toContain('banners.manage');
    expect((await h.call('DELETE', `/roles/${roles.body.roles[0].id}`, undefined, admin)).status).toBe(422);
    // Still held: refused unless forced (admin-accounts.test.ts covers the holders' side).
    expect((await h.call('DELETE', `/roles/${created.body.role.id}`, undefined, admin)).status).toBe(409);
    expect((await h.call('DELETE', `/roles/${created.body.role.id}?force=true`, undefined, admin)).status).toBe(200);
  });

  it('adds a new permission (lists.manage) to an existing database at start, once, with its label', async () => {
    // A database seeded before lists.manage existed: the next start's seed adds it.
    await h.db.delete(permissions).where(eq(permissions.slug, 'lists.manage'));
    await seedRolesAndPermissions(h.db);
    await seedRolesAndPermissions(h.db);
    const rows = await h.db.select().from(permissions).where(eq(permissions.slug, 'lists.manage'));
    expect(rows.map((r) => r.name)).toEqual(['Gérer les listes de manuels']);
    const perms = await h.call('GET', '/permissions', undefined, admin);
    expect(perms.body.permissions.map((p: { slug: string }) => p.slug)).toContain('lists.manage');
    // Administrators hold it already (the admin role carries the wildcard), and it can be delegated.
    expect(decodeJwt(admin).is_admin).toBe(true);
    const { user } = await h.member('listes');
    const granted = await h.call(
      'PUT',
      `/admin/users/${user.id}/permissions`,
      { permissions: ['lists.manage'] },
      admin,
    );
    expect(granted.status).toBe(200);
  });
});

describe('every protected route of auth', () => {
  it('refuses a member without the permission (403) before judging what they sent', async () => {
    const { token } = await h.member('sans_droit');
    const { walked, wrong } = await refusedBeforeValidation(h.app, token);
    expect(walked).toContain('POST /admin/users/:id/promote');
    expect(wrong).toEqual([]);
  });
});
