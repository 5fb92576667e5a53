import { listBook, verifiedMember } from '@cartable/stack/members';
import { sharedStack } from '@cartable/stack/shared-stack';
import { call, eventually, type TestStack } from '@cartable/stack/test-stack';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * « Ma liste » alerts as processes: a parent saves the 6e list for Libreville; a seller lists a
 * missing book of it there; the parent's bell and mailbox say so, through catalog's outbox,
 * NATS and notifications, once.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = sharedStack();
});

describe('a saved class list', () => {
  it('tells the parent by notice and e-mail when a missing book is listed in their town', async () => {
    const admin = await call(`${stack.api}/login`, { body: { email: 'admin@cartable.ga', password: 'Cartable2026!' } });
    const token = admin.body.access_token as string;
    const categories = (await call(`${stack.api}/categories`)).body.categories as Array<{ id: number; name: string }>;
    const sixieme = categories.find((c) => c.name === '6e')!;
    const title = 'Mathématiques 6e – Collection Horizon';
    const created = await call(`${stack.api}/admin/class-lists`, {
      token,
      body: {
        school_year: '2026-2027',
        level_id: sixieme.id,
        // A school's own list: the official 6e list of the year may already be on the stack.
        kind: 'school',
        school_name: `Collège Horizon ${Date.now()}`,
        status: 'published',
        items: [{ title, author: 'IPN', publisher: 'EDICEF' }, { title: 'Français 6e – Lire et écrire' }],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const listId = created.body.list.id as number;

    const parent = await verifiedMember(stack, 'parent6e');
    const libreville = (await call(`${stack.api}/locations/cities/search?q=libreville`)).body.cities[0].id;
    const saved = await call(`${stack.api}/my-class-lists/${listId}`, {
      method: 'PUT',
      token: parent.token,
      body: { city_id: libreville, owned_item_ids: [] },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);

    const seller = await verifiedMember(stack, 'vendeur6e');
    const bookId = await listBook(stack, seller.token, 'mathematiques 6e - collection horizon');

    const mail = await stack.mail.waitFor(parent.email, {
      subject: 'Un manuel de votre liste est disponible',
      timeoutMs: 20_000,
    });
    expect(mail.text).toContain(`/books/${bookId}`);
    expect(mail.text).toContain('liste 6e · 2026-2027');
    const notice = await eventually(async () => {
      const res = await call(`${stack.api}/notifications`, { token: parent.token });
      return res.body.data?.find((n: { type: string }) => n.type === 'class_list.match_found');
    });
    expect(notice).toMatchObject({ title: 'Un manuel de votre liste est disponible', link: `/books/${bookId}` });

    // « Ma liste » now finds it, at the seller's price.
    const availability = await call(`${stack.api}/class-lists/${listId}/availability?city_id=${libreville}`);
    expect(availability.status).toBe(200);
    expect(JSON.stringify(availability.body)).toContain(String(bookId));
  });
});
