import { listBook, verifiedMember } from '@cartable/stack/members';
import { sharedStack } from '@cartable/stack/shared-stack';
import { call, eventually, type TestStack } from '@cartable/stack/test-stack';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * A visitor's book page through the gateway, on the real processes: the gateway keeps no copy of
 * it (catalog keeps its own, cleared by its events), so a change of the listing is seen at the
 * next read, whether it went through the gateway (the seller's) or reached catalog by an event
 * (the seller deactivated in auth), and every visitor counts as a view where the book is read.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = sharedStack();
});
const asVisitor = (id: number, userAgent: string) =>
  fetch(`${stack.api}/books/${id}`, { headers: { 'user-agent': userAgent } }).then(async (res) => ({
    status: res.status,
    age: res.headers.get('age'),
    cacheControl: res.headers.get('cache-control'),
    body: res.status === 200 ? ((await res.json()) as { book: { status: string; views: number } }) : undefined,
  }));

describe('a visitor’s book page', () => {
  it('counts every visitor, shows the seller’s change at once, and is gone once the seller is deactivated', async () => {
    const seller = await verifiedMember(stack, `partage${Date.now().toString(36)}`);
    const id = await listBook(stack, seller.token, 'Mathématiques 5e partagées');

    // Four phones read the page: each response is catalog's own (no Age: nothing in between kept
    // it), with the Cache-Control an HTTP cache in front may honour.
    for (const phone of ['Android 11', 'Android 12', 'Android 13', 'Android 14']) {
      const page = await asVisitor(id, `Mozilla/5.0 (Linux; ${phone})`);
      expect(page.status).toBe(200);
      expect(page.age).toBeNull();
      expect(page.cacheControl).toMatch(/^public, max-age=0, s-maxage=\d+$/);
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

    // An administrator deactivates the seller, in auth: catalog hears it as an event.
    const admin = await call(`${stack.api}/login`, { body: { email: 'admin@cartable.ga', password: 'Cartable2026!' } });
    const deactivated = await call(`${stack.api}/admin/users/${seller.id}/deactivate`, {
      token: admin.body.access_token,
      body: { reason: 'Annonces frauduleuses' },
    });
    expect(deactivated.status).toBe(200);
    await eventually(async () => ((await asVisitor(id, 'Mozilla/5.0 (after)')).status === 404 ? true : undefined));
    for (let i = 0; i < 5; i++) expect((await asVisitor(id, 'Mozilla/5.0 (after)')).status).toBe(404);
  });
});
