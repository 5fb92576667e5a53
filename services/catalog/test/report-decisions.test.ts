import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CatalogHarness, startCatalog } from './harness.ts';

/**
 * A report's decision to hide a listing (moderation.report.decided) is applied here, in the
 * consumer's transaction, as a moderator's « Masquer » is: out of the public catalogue, the owner
 * told why (catalog.book.moderated); then answered (catalog.report.applied) so that moderation
 * closes the reports. Delivered again, it changes nothing.
 */
let h: CatalogHarness;
let moderator: { sub: string; token: string };
let owner: { sub: string; token: string };

async function list(title: string) {
  const res = await h.form(
    'POST',
    '/books',
    {
      title,
      author: 'Collection Excellence',
      condition: 'bon',
      price: '5000',
      city_id: String(await h.cityId('Libreville')),
      category_ids: [String(await h.categoryId('Terminale D'))],
    },
    {},
    owner.token,
  );
  expect(res.status).toBe(201);
  return res.body.book.id as number;
}

const decided = (bookId: number | string, over: Record<string, unknown> = {}) => ({
  report_ids: [randomUUID(), randomUUID()],
  decision: 'hidden' as const,
  target_type: 'book' as const,
  target_id: String(bookId),
  target_owner_id: owner.sub,
  moderator_id: moderator.sub,
  note: 'Annonce frauduleuse',
  ...over,
});

beforeAll(async () => {
  h = await startCatalog();
  moderator = await h.token({ permissions: ['books.update.any'] });
  owner = await h.token();
});
afterAll(() => h?.teardown());

describe('a report’s decision to hide a listing', () => {
  it('hides it, tells the owner why, and answers moderation; a second delivery changes nothing', async () => {
    const id = await list('Chimie Terminale D');
    const actions = h.catalog.listings.reportActions;
    const event = decided(id);
    await h.deliver(actions, 'moderation.report.decided', event);

    expect((await h.call('GET', `/books/${id}`)).status).toBe(404);
    const hidden = (await h.call('GET', `/admin/books/${id}`, undefined, moderator.token)).body.book;
    expect(hidden).toMatchObject({ hidden: true, hidden_reason: 'Annonce frauduleuse' });
    expect(await h.events('catalog.book.moderated')).toEqual([
      expect.objectContaining({
        book_id: id,
        owner_id: owner.sub,
        action: 'hidden',
        reason: 'Annonce frauduleuse',
        moderator_id: moderator.sub,
      }),
    ]);
    expect(await h.events('catalog.report.applied')).toEqual([{ report_ids: event.report_ids, outcome: 'applied' }]);

    // The same decision again (a refeed, a second decision while hidden): answered, nothing hidden twice.
    await h.deliver(actions, 'moderation.report.decided', event);
    expect(await h.events('catalog.book.moderated')).toHaveLength(1);
    expect((await h.call('GET', `/admin/books/${id}`, undefined, moderator.token)).body.book.hidden_at).toBe(
      hidden.hidden_at,
    );
    expect((await h.events('catalog.report.applied')).at(-1)).toEqual({
      report_ids: event.report_ids,
      outcome: 'already',
    });
  });

  it('answers `gone` for a listing deleted meanwhile, and leaves other decisions to their owners', async () => {
    const id = await list('Biologie Terminale D');
    expect((await h.call('DELETE', `/books/${id}`, undefined, owner.token)).status).toBe(200);
    const actions = h.catalog.listings.reportActions;
    const gone = decided(id);
    await h.deliver(actions, 'moderation.report.decided', gone);
    expect((await h.events('catalog.report.applied')).at(-1)).toEqual({ report_ids: gone.report_ids, outcome: 'gone' });

    const before = (await h.events('catalog.report.applied')).length;
    const kept = await list('Géologie Terminale D');
    // A deactivation is auth's; a comment is moderation's own.
    await h.deliver(actions, 'moderation.report.decided', decided(kept, { decision: 'deactivated' }));
    await h.deliver(actions, 'moderation.report.decided', decided(randomUUID(), { target_type: 'comment' }));
    expect(await h.events('catalog.report.applied')).toHaveLength(before);
    expect((await h.call('GET', `/books/${kept}`)).status).toBe(200);
  });
});
