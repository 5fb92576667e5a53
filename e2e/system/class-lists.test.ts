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
// What the first journey set up, for the second (a list changed under the same parent and seller).
const shared: { token?: string; listId?: number; itemId?: number; bookId?: number; parent?: Member; seller?: Member } =
  {};
type Member = Awaited<ReturnType<typeof verifiedMember>>;
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
    Object.assign(shared, { token, listId, itemId: created.body.list.items[0].id as number });

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
    Object.assign(shared, { bookId, parent, seller });

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

  it('tells the parent and the seller, once each, when an administrator withdraws the book from the list', async () => {
    const { token, listId, itemId, bookId, parent, seller } = shared;
    expect(bookId, 'the first journey ran').toBeDefined();
    const withdrawn = await call(`${stack.api}/admin/class-lists/${listId}/items/${itemId}`, {
      method: 'DELETE',
      token: token!,
    });
    expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(200);

    const familyNotice = await eventually(async () => {
      const res = await call(`${stack.api}/notifications`, { token: parent!.token });
      return res.body.data?.find((n: { type: string }) => n.type === 'class_list.changed');
    });
    expect(familyNotice.title).toMatch(/^La liste de 6e 2026-2027 \(Collège Horizon \d+\) a changé$/);
    expect(familyNotice.body).toContain('Retiré : « Mathématiques 6e – Collection Horizon »');
    expect(familyNotice.link).toMatch(new RegExp(`^/ma-liste\\?level=\\d+&list=${listId}$`));
    const mail = await stack.mail.waitFor(parent!.email, { subject: 'La liste de 6e 2026-2027', timeoutMs: 20_000 });
    expect(mail.text).toContain(`list=${listId}`);

    const sellerNotice = await eventually(async () => {
      const res = await call(`${stack.api}/notifications`, { token: seller!.token });
      return res.body.data?.find((n: { type: string }) => n.type === 'class_list.listing_withdrawn');
    });
    expect(sellerNotice).toMatchObject({ link: `/books/${bookId}` });
    expect(sellerNotice.body).toContain('n’est plus sur la liste de 6e 2026-2027');

    // « Ma liste » reads the new version; the listing's page tells buyers.
    const availability = await call(`${stack.api}/class-lists/${listId}/availability`, { token: parent!.token });
    expect(availability.body.items).toHaveLength(1);
    expect(availability.body.version).toMatchObject({ number: 2, changes: [{ kind: 'withdrawn' }] });
    const lists = await call(`${stack.api}/books/${bookId}/class-lists`);
    expect(lists.body.withdrawn).toEqual([expect.objectContaining({ id: listId, school_year: '2026-2027' })]);

    // Once each: no second notice for the same change.
    const all = await call(`${stack.api}/notifications`, { token: parent!.token });
    expect(all.body.data.filter((n: { type: string }) => n.type === 'class_list.changed')).toHaveLength(1);
  });
});
