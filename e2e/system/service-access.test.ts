import { listBook, verifiedMember } from '@cartable/stack/members';
import { sharedStack } from '@cartable/stack/shared-stack';
import { call, type TestStack } from '@cartable/stack/test-stack';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * A service does not trust that every request came through the
 * gateway. A revoked token (logout, deleted account) sent straight to each service's own port
 * is refused there; a live one is served.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = sharedStack();
});
/** One authenticated call per service, straight to its port (bypassing the gateway). */
const direct = (token: string, bookId: number) => ({
  auth: () => call(`${stack.url('auth')}/user`, { token }),
  catalog: () => call(`${stack.url('catalog')}/user/books`, { token }),
  messaging: () => call(`${stack.url('messaging')}/messages/unread/count`, { token }),
  moderation: () =>
    call(`${stack.url('moderation')}/books/${bookId}/comments`, {
      token,
      body: { content: 'Toujours disponible ?' },
    }),
});

describe('services check revocation themselves', () => {
  it('refuses a logged-out token and a deleted account on every service port, serves a live one', async () => {
    const seller = await verifiedMember(stack, 'acces_vendeur');
    const bookId = await listBook(stack, seller.token, 'Français 5e');
    const leaving = await verifiedMember(stack, 'acces_sortie');
    const deleting = await verifiedMember(stack, 'acces_supprime');
    const live = await verifiedMember(stack, 'acces_actif');

    // Before: every token is served by every service.
    for (const member of [leaving, deleting, live]) {
      for (const [service, request] of Object.entries(direct(member.token, bookId))) {
        expect((await request()).status, `${service} before`).toBeLessThan(300);
      }
    }

    expect((await call(`${stack.api}/logout`, { method: 'POST', token: leaving.token })).status).toBe(200);
    const deleted = await call(`${stack.api}/user/account`, {
      method: 'DELETE',
      token: deleting.token,
      body: { password: 'Cartable1a' },
    });
    expect(deleted.status).toBe(200);

    const seen: Record<string, number> = {};
    for (const [who, member] of Object.entries({ 'logged out': leaving, deleted: deleting })) {
      for (const [service, request] of Object.entries(direct(member.token, bookId))) {
        const answer = await request();
        seen[`${who} → ${service}`] = answer.status;
        expect(answer.status, `${who} → ${service}`).toBe(401);
        expect(answer.body.message).toBeTruthy();
      }
    }
    // The deleted account cannot list a book by going around the gateway either.
    const boundary = '----acces';
    const listing = await fetch(`${stack.url('catalog')}/books`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${deleting.token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      body: `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nPirate\r\n--${boundary}--\r\n`,
    });
    expect(listing.status).toBe(401);
    for (const [service, request] of Object.entries(direct(live.token, bookId))) {
      expect((await request()).status, `live → ${service}`).toBeLessThan(300);
    }
    console.log('revoked tokens straight to the services:', JSON.stringify(seen));
  });

  it('lets a promoted member into the admin area with the session they already have, and out again at once', async () => {
    const member = await verifiedMember(stack, 'acces_promu');
    const admin = (
      await call(`${stack.api}/login`, { body: { email: 'admin@cartable.ga', password: 'Cartable2026!' } })
    ).body.access_token as string;
    const adminArea = () => call(`${stack.api}/admin/contacts`, { token: member.token });
    expect((await adminArea()).status).toBe(403);
    expect((await call(`${stack.api}/admin/users/${member.id}/promote`, { method: 'POST', token: admin })).status).toBe(
      200,
    );
    // The same token, issued before the promotion: the gateway and the service read the new rights.
    expect((await adminArea()).status).toBe(200);
    expect((await call(`${stack.url('moderation')}/admin/contacts`, { token: member.token })).status).toBe(200);
    expect((await call(`${stack.api}/users/all`, { token: member.token })).status).toBe(200);
    // Demoted: the old rights stop at once (the session ends with them).
    expect((await call(`${stack.api}/admin/users/${member.id}/revoke`, { method: 'POST', token: admin })).status).toBe(
      200,
    );
    expect((await adminArea()).status).toBe(401);
  });
});
