import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuditLog, users } from '../src/db/schema.ts';
import { type AuthHarness, startAuth } from './harness.ts';

let h: AuthHarness;
let admin: string;
let adminId: string;
beforeAll(async () => {
  h = await startAuth();
  admin = await h.admin();
  adminId = (await h.call('GET', '/user', undefined, admin)).body.user.id;
});
afterAll(() => h?.teardown());

/** Every line of the trail about a member, newest first, as the detail route shows it. */
async function trail(userId: string) {
  const rows = await h.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetUserId, userId));
  return rows.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || 0);
}
const actions = async (userId: string) => (await trail(userId)).map((r) => r.action).sort();

/** A member holding only users.view.any (a direct permission), signed in afresh. */
async function viewer(n: string) {
  const m = await h.member(n);
  await h.call('PUT', `/admin/users/${m.user.id}/permissions`, { permissions: ['users.view.any'] }, admin);
  const login = await h.call('POST', '/login', { email: m.email, password: 'Cartable1a' });
  return { ...m, token: login.body.access_token as string };
}

describe('the users list: filters, sort and validation', () => {
  it('filters by verified, admin, role, dates and status, and sorts both ways', async () => {
    const a = await h.member('filtre_a');
    const b = await h.member('filtre_b');
    await h.register('filtre_c'); // never verified
    await h.call('POST', '/roles', { slug: 'filtre_role', name: 'Rôle filtré', permissions: [] }, admin);
    await h.call('PUT', `/admin/users/${a.user.id}/roles`, { roles: ['filtre_role'] }, admin);
    await h.call('POST', `/admin/users/${b.user.id}/promote`, undefined, admin);
    await h.call('POST', `/admin/users/${b.user.id}/deactivate`, { reason: 'Annonces frauduleuses' }, admin);

    const names = async (qs: string) =>
      (await h.call('GET', `/users/all?search=filtre&${qs}`, undefined, admin)).body.data.map(
        (u: { username: string }) => u.username,
      );
    expect(await names('verified=false')).toEqual(['eleve_filtre_c']);
    expect(await names('verified=true')).toEqual(['eleve_filtre_a', 'eleve_filtre_b']);
    expect(await names('admin=true')).toEqual(['eleve_filtre_b']);
    expect(await names('role=filtre_role')).toEqual(['eleve_filtre_a']);
    expect(await names('status=deactivated')).toEqual(['eleve_filtre_b']);
    expect(await names('status=active')).toEqual(['eleve_filtre_a', 'eleve_filtre_c']);
    expect(await names('sort=name&direction=desc')).toEqual(['eleve_filtre_c', 'eleve_filtre_b', 'eleve_filtre_a']);
    // Joined last first by default when sorted by date.
    expect(await names('sort=created_at')).toEqual(['eleve_filtre_c', 'eleve_filtre_b', 'eleve_filtre_a']);
    const today = new Date().toISOString().slice(0, 10);
    expect(await names(`created_from=${today}&created_to=${today}`)).toHaveLength(3);
    expect(await names('created_to=2000-01-01')).toEqual([]);
    const deactivated = (await h.call('GET', '/users/all?status=deactivated', undefined, admin)).body.data[0];
    expect(deactivated.deactivated_at).toEqual(expect.any(String));
  });

  it('answers 422 in French, naming the field, for a bad filter', async () => {
    for (const qs of [
      'verified=peut-etre',
      'status=banni',
      'sort=email',
      'direction=up',
      'created_from=2025-13-45',
      'created_from=hier',
      'role=Pas Un Slug',
      'created_from=2025-02-01&created_to=2025-01-01',
    ]) {
      const res = await h.call('GET', `/users/all?${qs}`, undefined, admin);
      expect(res.status, qs).toBe(422);
      expect(res.body.message).toBe('Les données envoyées sont invalides.');
      expect(Object.keys(res.body.errors).length, qs).toBeGreaterThan(0);
    }
    const range = await h.call('GET', '/users/all?created_from=2025-02-01&created_to=2025-01-01', undefined, admin);
    expect(range.body.errors.created_to).toEqual(['La date de début doit précéder la date de fin']);
  });
});

describe('a member’s page in the back office', () => {
  it('shows the member, their counters, activity and the trail about them, newest first', async () => {
    const { user } = await h.member('detail');
    await h.call('POST', `/admin/users/${user.id}/promote`, undefined, admin);
    await h.call('POST', `/admin/users/${user.id}/revoke`, undefined, admin);
    await h.call('PUT', `/admin/users/${user.id}/permissions`, { permissions: ['reports.view'] }, admin);
    const res = await h.call('GET', `/admin/users/${user.id}`, undefined, admin);
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({
      id: user.id,
      email: 'detail@example.ga',
      email_verified: true,
      is_admin: false,
      deactivated_at: null,
      deactivation_reason: null,
      permissions: [{ slug: 'reports.view' }],
    });
    expect(res.body.stats).toMatchObject({ books_total: 0 });
    expect(Array.isArray(res.body.activities)).toBe(true);
    expect(res.body.audit.data.map((e: { action: string }) => e.action)).toEqual([
      'user.permissions_set',
      'user.revoked',
      'user.promoted',
    ]);
    expect(res.body.audit.data[0]).toMatchObject({
      actor: { id: adminId, name: expect.any(String) },
      target: { id: user.id, name: 'Élève detail' },
      details: { before: [], after: ['reports.view'] },
    });
    expect(res.body.audit.next_cursor).toBeNull();

    // Older lines a page at a time, through the cursor.
    const first = await h.call('GET', `/admin/users/${user.id}/audit?limit=2`, undefined, admin);
    expect(first.body.data).toHaveLength(2);
    const rest = await h.call(
      'GET',
      `/admin/users/${user.id}/audit?limit=2&cursor=${first.body.next_cursor}`,
      undefined,
      admin,
    );
    expect(rest.body.data.map((e: { action: string }) => e.action)).toEqual(['user.promoted']);
    expect(rest.body.next_cursor).toBeNull();
    expect((await h.call('GET', `/admin/users/${user.id}/audit?cursor=abc`, undefined, admin)).status).toBe(422);
    expect((await h.call('GET', '/admin/users/00000000-0000-4000-8000-000000000000', undefined, admin)).status).toBe(
      404,
    );
  });
});

describe('the audit trail', () => {
  it('writes a line for every change to a member, and none for a refused one', async () => {
    const { user } = await h.member('trace');
    await h.call('POST', '/roles', { slug: 'trace_role', name: 'Rôle tracé', permissions: ['cities.manage'] }, admin);
    await h.call('POST', `/admin/users/${user.id}/promote`, undefined, admin);
    await h.call('POST', `/admin/users/${user.id}/revoke`, undefined, admin);
    await h.call('PUT', `/admin/users/${user.id}/roles`, { roles: ['trace_role'] }, admin);
    await h.call('PUT', `/admin/users/${user.id}/permissions`, { permissions: ['reports.view'] }, admin);
    await h.call('POST', `/admin/users/${user.id}/deactivate`, { reason: 'Vérification' }, admin);
    await h.call('POST', `/admin/users/${user.id}/reactivate`, undefined, admin);
    expect(await actions(user.id)).toEqual(
      [
        'user.promoted',
        'user.revoked',
        'user.roles_set',
        'user.permissions_set',
        'user.deactivated',
        'user.reactivated',
      ].sort(),
    );
    const roles = (await trail(user.id)).find((r) => r.action === 'user.roles_set')!;
    expect(roles.actorId).toBe(adminId);
    expect(roles.details).toEqual({ before: [], after: ['trace_role'] });

    // Refused changes: unknown role, unknown permission, reactivating an active account, bad reason.
    const before = (await trail(user.id)).length;
    expect((await h.call('PUT', `/admin/users/${user.id}/roles`, { roles: ['inconnu'] }, admin)).status).toBe(422);
    expect(
      (await h.call('PUT', `/admin/users/${user.id}/permissions`, { permissions: ['nope.nope'] }, admin)).status,
    ).toBe(422);
    expect((await h.call('POST', `/admin/users/${user.id}/reactivate`, undefined, admin)).status).toBe(409);
    expect((await h.call('POST', `/admin/users/${user.id}/deactivate`, { reason: 'x' }, admin)).status).toBe(422);
    expect((await h.call('POST', `/admin/users/${user.id}/resend-verification`, undefined, admin)).status).toBe(422);
    expect((await h.call('POST', `/admin/users/${adminId}/deactivate`, { reason: 'Moi-même' }, admin)).status).toBe(
      422,
    );
    expect((await trail(user.id)).length).toBe(before);
    expect(await actions(adminId)).toEqual([]);
  });

  it('writes the role’s lines: created, updated and deleted, on the role and on each holder', async () => {
    const { user } = await h.member('role_trace');
    const created = await h.call('POST', '/roles', { slug: 'r_trace', name: 'Trace', permissions: [] }, admin);
    expect(created.body.message).toBe('Rôle créé avec succès');
    const id = created.body.role.id;
    await h.call('PUT', `/admin/users/${user.id}/roles`, { roles: ['r_trace'] }, admin);
    await h.call('PUT', `/roles/${id}`, { slug: 'r_trace', name: 'Trace 2', permissions: ['reports.view'] }, admin);
    await h.call('DELETE', `/roles/${id}?force=true`, undefined, admin);
    const global = (await h.db.select().from(adminAuditLog)).filter(
      (r) => r.targetUserId === null && (r.details as { role_id?: string }).role_id === id,
    );
    expect(global.map((r) => r.action).sort()).toEqual(['role.created', 'role.deleted', 'role.updated']);
    expect(global.find((r) => r.action === 'role.updated')!.details).toMatchObject({
      before: { name: 'Trace', permissions: [] },
      after: { name: 'Trace 2', permissions: ['reports.view'] },
    });
    expect(await actions(user.id)).toEqual(['role.deleted', 'role.updated', 'user.roles_set']);
  });
});

describe('deactivation', () => {
  it('refuses login, ends the open sessions at once, and reactivation restores login', async () => {
    const m = await h.member('desactive');
    expect((await h.call('POST', `/admin/users/${m.user.id}/deactivate`, { reason: 'Spam' }, m.token)).status).toBe(
      403,
    );
    const res = await h.call('POST', `/admin/users/${m.user.id}/deactivate`, { reason: 'Spam répété' }, admin);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Compte désactivé avec succès');
    expect(res.body.user.deactivated_at).toEqual(expect.any(String));
    // The event carries the member's version after the change (before any later login attempt).
    const [row] = await h.db.select().from(users).where(eq(users.id, m.user.id));
    const event = (await h.events('auth.user.deactivated')).find((e) => e.user_id === m.user.id);
    expect(event).toMatchObject({ user_id: m.user.id, version: row!.version });
    expect(row!.deactivationReason).toBe('Spam répété');

    // The token in force is refused, by the database and by the gateway's cache.
    expect((await h.call('GET', '/user', undefined, m.token)).status).toBe(401);
    expect(await h.revocationOf(m.token)).toEqual({ database: true, cache: 'revoked' });
    const login = await h.call('POST', '/login', { email: m.email, password: 'Cartable1a' });
    expect(login.status).toBe(403);
    expect(login.body.message).toBe('Ce compte a été désactivé. Contactez le support.');
    // A wrong password says nothing of the deactivation.
    expect((await h.call('POST', '/login', { email: m.email, password: 'Mauvais1a' })).status).toBe(401);
    expect((await h.call('POST', `/admin/users/${m.user.id}/deactivate`, { reason: 'Encore' }, admin)).status).toBe(
      409,
    );

    const back = await h.call('POST', `/admin/users/${m.user.id}/reactivate`, undefined, admin);
    expect(back.body).toMatchObject({ message: 'Compte réactivé avec succès', user: { deactivated_at: null } });
    const reactivated = (await h.events('auth.user.reactivated')).find((e) => e.user_id === m.user.id);
    expect(reactivated.version).toBeGreaterThan(event.version);
    const again = await h.call('POST', '/login', { email: m.email, password: 'Cartable1a' });
    expect(again.status).toBe(200);
    expect((await h.call('GET', '/user', undefined, again.body.access_token)).status).toBe(200);
  });
});

describe('resending the verification e-mail', () => {
  it('sends a new link through the usual event to an unverified member, and 422 once verified', async () => {
    const { body } = await h.register('renvoi');
    const id = body.user.id;
    const res = await h.call('POST', `/admin/users/${id}/resend-verification`, undefined, admin);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Email de vérification renvoyé avec succès');
    const requested = (await h.events('auth.email_verification.requested')).filter((e) => e.user_id === id);
    expect(requested).toHaveLength(1);
    // The new link works.
    const verified = await h.call('POST', '/verify-email', { token: requested[0].token, email: 'renvoi@example.ga' });
    expect(verified.status).toBe(200);
    expect(await actions(id)).toEqual(['user.verification_resent']);
    const twice = await h.call('POST', `/admin/users/${id}/resend-verification`, undefined, admin);
    expect(twice.status).toBe(422);
    expect(twice.body.message).toBe('Cet email est déjà vérifié.');
  });
});

describe('roles: holders and deletion', () => {
  it('counts and lists holders, refuses to delete a held role unless forced, and the holders lose it', async () => {
    const a = await h.member('tenant_a');
    const b = await h.member('tenant_b');
    const role = (
      await h.call('POST', '/roles', { slug: 'villes_temp', name: 'Villes', permissions: ['cities.manage'] }, admin)
    ).body.role;
    for (const m of [a, b]) await h.call('PUT', `/admin/users/${m.user.id}/roles`, { roles: ['villes_temp'] }, admin);
    const listed = (await h.call('GET', '/roles', undefined, admin)).body.roles.find(
      (r: { slug: string }) => r.slug === 'villes_temp',
    );
    expect(listed).toMatchObject({ holders_count: 2, permissions: [{ slug: 'cities.manage' }] });
    const holders = await h.call('GET', `/roles/${role.id}/holders`, undefined, admin);
    expect(holders.body.data).toEqual([
      { id: a.user.id, name: 'Élève tenant_a', email: 'tenant_a@example.ga' },
      { id: b.user.id, name: 'Élève tenant_b', email: 'tenant_b@example.ga' },
    ]);
    expect(holders.body.meta.total).toBe(2);

    const login = await h.call('POST', '/login', { email: a.email, password: 'Cartable1a' });
    const refused = await h.call('DELETE', `/roles/${role.id}`, undefined, admin);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      message: 'Ce rôle est attribué à 2 membres. Confirmez sa suppression pour le leur retirer.',
      holders_count: 2,
    });
    expect((await h.call('GET', '/roles', undefined, admin)).body.roles.map((r: { slug: string }) => r.slug)).toContain(
      'villes_temp',
    );

    const forced = await h.call('DELETE', `/roles/${role.id}?force=true`, undefined, admin);
    expect(forced.body).toEqual({ message: 'Rôle supprimé avec succès' });
    const detail = await h.call('GET', `/admin/users/${a.user.id}`, undefined, admin);
    expect(detail.body.user.roles).toEqual([]);
    // Their session follows: rights lost end it (the existing rights-change mechanism).
    expect((await h.revocationOf(login.body.access_token)).database).toBe(true);
    expect((await h.call('GET', `/roles/${role.id}/holders`, undefined, admin)).status).toBe(404);
  });
});

describe('permissions', () => {
  it('lets a users.view.any holder list, read and resend, but not change rights or access (403)', async () => {
    const v = await viewer('lecteur');
    const { user } = await h.member('cible');
    expect((await h.call('GET', '/users/all?status=active', undefined, v.token)).status).toBe(200);
    expect((await h.call('GET', `/admin/users/${user.id}`, undefined, v.token)).status).toBe(200);
    expect((await h.call('GET', `/admin/users/${user.id}/audit`, undefined, v.token)).status).toBe(200);
    const before = await actions(user.id);
    for (const [method, url, body] of [
      ['POST', `/admin/users/${user.id}/promote`, undefined],
      ['POST', `/admin/users/${user.id}/revoke`, undefined],
      ['PUT', `/admin/users/${user.id}/roles`, { roles: [] }],
      ['PUT', `/admin/users/${user.id}/permissions`, { permissions: [] }],
      ['POST', `/admin/users/${user.id}/deactivate`, { reason: 'Pas le droit' }],
      ['POST', `/admin/users/${user.id}/reactivate`, undefined],
      ['POST', '/roles', { slug: 'pirate', name: 'Pirate', permissions: [] }],
    ] as const) {
      expect((await h.call(method, url, body, v.token)).status, url).toBe(403);
    }
    // Roles stay closed without roles.view.
    expect((await h.call('GET', '/roles', undefined, v.token)).status).toBe(403);
    expect(await actions(user.id)).toEqual(before);

    // A plain member sees none of it.
    const plain = await h.member('simple');
    expect((await h.call('GET', `/admin/users/${user.id}`, undefined, plain.token)).status).toBe(403);
    expect((await h.call('POST', `/admin/users/${user.id}/resend-verification`, undefined, plain.token)).status).toBe(
      403,
    );
  });
});
