import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listBook, verifiedMember } from '../support/members.ts';
import { call, eventually, startTestStack, type TestStack } from '../support/test-stack.ts';

/**
 * A visitor's book page kept by the gateway (gateway/src/plugins/shared-answers.ts), on the real
 * processes: it never outlives a change of the listing, whether the change goes through the
 * gateway (the seller's) or reaches catalog by an event (the seller deactivated), and the
 * visitors it serves still count as views.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.teardown();
});

const asVisitor = (id: number, userAgent: string) =>
  fetch(`${stack.api}/books/${id}`, { headers: { 'user-agent': userAgent } }).then(async (res) => ({
    status: res.status,
    age: res.headers.get('age'),
    body: res.status === 200 ? ((await res.json()) as { book: { status: string; views: number } }) : undefined,
  }));

describe('book pages kept for visitors', () => {
  it('serves the same page again, counts its visitors, and drops it when the seller changes the listing or an administrator deactivates the seller', async () => {
    const seller = await verifiedMember(stack, `partage${Date.now().toString(36)}`);
    const id = await listBook(stack, seller.token, 'Mathématiques 5e partagées');

    // Kept once the gateway listens to catalog's changes (its Redis subscription, at start).
    await eventually(async () => {
      await asVisitor(id, 'Mozilla/5.0 (probe)');
      return (await asVisitor(id, 'Mozilla/5.0 (probe)')).age !== null ? true : undefined;
    });
    // Three more visitors served from the gateway's memory: catalog counts them all the same.
    for (const phone of ['Android 12', 'Android 13', 'Android 14']) {
      const page = await asVisitor(id, `Mozilla/5.0 (Linux; ${phone})`);
      expect(page.age).not.toBeNull();
    }
    await eventually(async () => {
      const views = (await call(`${stack.api}/books/${id}`, { token: seller.token })).body.book.views;
      return views === 4 ? views : undefined;
    });

    // The seller reserves it: the next visitor reads it reserved.
    const reserved = await call(`${stack.api}/books/${id}/status`, {
      method: 'PUT',
      token: seller.token,
      body: { status: 'réservé' },
    });
    expect(reserved.status).toBe(200);
    expect((await asVisitor(id, 'Mozilla/5.0 (after)')).body?.book.status).toBe('réservé');
    expect((await asVisitor(id, 'Mozilla/5.0 (after)')).age).not.toBeNull();

    // An administrator deactivates the seller, in auth: catalog hears it as an event, and tells
    // the gateway on Redis (the gateway itself saw only a write to auth).
    const member = await verifiedMember(stack, `lecteur${Date.now().toString(36)}`);
    const admin = await call(`${stack.api}/login`, { body: { email: 'admin@cartable.ga', password: 'Cartable2026!' } });
    // Kept anew just before: without catalog's word, it would be served up to 5 s more.
    await eventually(async () => ((await asVisitor(id, 'Mozilla/5.0 (after)')).age === '0' ? true : undefined));
    const deactivated = await call(`${stack.api}/admin/users/${seller.id}/deactivate`, {
      token: admin.body.access_token,
      body: { reason: 'Annonces frauduleuses' },
    });
    expect(deactivated.status).toBe(200);
    // A member's read goes to catalog: it says when catalog has heard of it.
    await eventually(async () =>
      (await call(`${stack.api}/books/${id}`, { token: member.token })).status === 404 ? true : undefined,
    );
    // Well within what was left of the kept page's 5 s, visitors read it gone too.
    await eventually(
      async () => ((await asVisitor(id, 'Mozilla/5.0 (after)')).status === 404 ? true : undefined),
      2_000,
    );
    for (let i = 0; i < 5; i++) expect((await asVisitor(id, 'Mozilla/5.0 (after)')).status).toBe(404);
  });
});
