import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthHarness, startAuth } from './harness.ts';

let h: AuthHarness;
let admin: string;
beforeAll(async () => {
  h = await startAuth();
  admin = await h.admin();
});
afterAll(() => h?.teardown());

describe('a member’s public page (GET /users/{userId})', () => {
  it('answers visitors, then 404 in French once the member is deactivated, and again after reactivation', async () => {
    const m = await h.member('profil_public');
    const open = await h.call('GET', `/users/${m.user.id}`);
    expect(open.status).toBe(200);
    expect(open.body.user).toMatchObject({ id: m.user.id, created_at: expect.any(String) });
    expect(open.body.user.email).toBeNull();
    await h.call('POST', `/admin/users/${m.user.id}/deactivate`, { reason: 'Annonces frauduleuses' }, admin);
    const gone = await h.call('GET', `/users/${m.user.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('Utilisateur introuvable.');
    await h.call('POST', `/admin/users/${m.user.id}/reactivate`, undefined, admin);
    expect((await h.call('GET', `/users/${m.user.id}`)).status).toBe(200);
  });
});
