import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberBlocksProjection } from '../src/events/member-activity.ts';
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

describe('a block between two members (messaging’s, projected)', () => {
  const blockEvent = (
    type: 'messaging.member.blocked' | 'messaging.member.unblocked',
    blocker: string,
    blocked: string,
  ) =>
    h.db.transaction((tx) =>
      memberBlocksProjection[type]!(tx, {
        id: randomUUID(),
        type,
        occurred_at: new Date().toISOString(),
        data: { blocker_id: blocker, blocked_id: blocked, at: new Date().toISOString() },
      } as never),
    );

  it('keeps each from reading the other’s e-mail and phone on the public page, either way', async () => {
    const seller = await h.member('vend_bloq');
    const profile = await h.call(
      'PUT',
      '/user/profile',
      {
        name: 'Vendeuse Bloque',
        username: 'eleve_vend_bloq',
        phone: '+241 77 12 34 56',
        show_email: true,
        show_phone: true,
        country_id: 266,
        city_id: 1,
      },
      seller.token,
    );
    expect(profile.status).toBe(200);
    const [blocked, blocker, other] = [
      await h.member('bloque_a'),
      await h.member('bloqueur_b'),
      await h.member('autre_c'),
    ];
    const contact = async (token?: string) => {
      const { email, phone } = (await h.call('GET', `/users/${seller.user.id}`, undefined, token)).body.user;
      return { email, phone };
    };
    const shown = { email: seller.email, phone: '+241 77 12 34 56' };
    expect(await contact(blocked.token)).toEqual(shown);

    await blockEvent('messaging.member.blocked', seller.user.id, blocked.user.id);
    await blockEvent('messaging.member.blocked', blocker.user.id, seller.user.id);
    expect(await contact(blocked.token)).toEqual({ email: null, phone: null });
    expect(await contact(blocker.token)).toEqual({ email: null, phone: null });
    expect(await contact(other.token)).toEqual(shown);
    expect(await contact()).toEqual(shown);

    await blockEvent('messaging.member.unblocked', seller.user.id, blocked.user.id);
    expect(await contact(blocked.token)).toEqual(shown);
  });
});
