import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberBlocksProjection } from '../src/modules/members/index.ts';
import { type CatalogHarness, startCatalog } from './harness.ts';

/**
 * Exchange matching on real PostgreSQL: wishes, the matcher's pairs and
 * cycles of three stored with their events, answers, and a declined suggestion never again.
 */
type Member = { sub: string; token: string };
let h: CatalogHarness;

async function member(name: string, city: string): Promise<Member> {
  const m = await h.token();
  await h.registerSeller(m.sub, name, await h.cityId(city));
  return m;
}

async function offer(owner: Member, title: string, city: string, categories: string[]) {
  const res = await h.form(
    'POST',
    '/books',
    {
      title,
      author: 'Collectif',
      condition: 'bon',
      price: '2000',
      city_id: String(await h.cityId(city)),
      category_ids: await Promise.all(categories.map(async (c) => String(await h.categoryId(c)))),
      is_exchange_possible: 'true',
    },
    {},
    owner.token,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.book.id as number;
}

const wish = async (who: Member, level: string, subject: string) => {
  const res = await h.call(
    'POST',
    '/exchanges/wishes',
    { level_id: await h.categoryId(level), subject_id: await h.categoryId(subject) },
    who.token,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.wish;
};
/** A whole run of the matcher, after any run a new wish started in the background. */
async function matchNow(): Promise<number> {
  for (;;) {
    const made = await h.catalog.exchanges.runMatcher();
    if (made !== null) return made;
    await new Promise((r) => setTimeout(r, 20));
  }
}
const overview = async (who: Member) => (await h.call('GET', '/exchanges', undefined, who.token)).body;

beforeAll(async () => {
  h = await startCatalog();
});
afterAll(() => h?.teardown());

describe('exchange matching', () => {
  it('refuses a wish that names nothing, an unknown item, a duplicate; needs an account', async () => {
    const awa = await member('Awa Échange', 'Libreville');
    expect((await h.call('POST', '/exchanges/wishes', {}, awa.token)).status).toBe(422);
    const unknown = await h.call('POST', '/exchanges/wishes', { class_list_item_id: 999999 }, awa.token);
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toBe('Ce manuel de liste est introuvable.');
    await wish(awa, '6e', 'Mathématiques');
    const twice = await h.call(
      'POST',
      '/exchanges/wishes',
      { level_id: await h.categoryId('6e'), subject_id: await h.categoryId('Mathématiques') },
      awa.token,
    );
    expect(twice.status).toBe(409);
    expect((await h.call('GET', '/exchanges')).status).toBe(401);
  });

  it('pairs two members of Libreville, opens the talks once both accept', async () => {
    const paule = await member('Paule Parent', 'Libreville');
    const jean = await member('Jean Parent', 'Libreville');
    // Paule's child finished 5e and needs 4e maths; Jean's the reverse.
    const pauleBook = await offer(paule, 'Mathématiques 5e – Excellence', 'Libreville', ['5e', 'Mathématiques']);
    const jeanBook = await offer(jean, 'Mathématiques 4e – Excellence', 'Libreville', ['4e', 'Mathématiques']);
    await wish(paule, '4e', 'Mathématiques');
    await wish(jean, '5e', 'Mathématiques');
    await matchNow();

    const mine = (await overview(paule)).suggestions;
    expect(mine).toHaveLength(1);
    const [suggestion] = mine;
    expect(suggestion).toMatchObject({ kind: 'pair', status: 'open', area: 'Libreville', my_answer: null });
    expect(suggestion.legs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          from: expect.objectContaining({ id: jean.sub }),
          book: expect.objectContaining({ id: jeanBook }),
        }),
        expect.objectContaining({
          from: expect.objectContaining({ id: paule.sub }),
          book: expect.objectContaining({ id: pauleBook }),
        }),
      ]),
    );
    const suggested = (await h.events('catalog.exchange.suggested')).filter((e) => e.suggestion_id === suggestion.id);
    expect(suggested).toHaveLength(1);

    // A second run suggests nothing new.
    await matchNow();
    expect((await overview(paule)).suggestions).toHaveLength(1);

    // Someone else's suggestion is not theirs to answer.
    const stranger = await member('Inconnu', 'Libreville');
    expect((await h.call('POST', `/exchanges/suggestions/${suggestion.id}/accept`, {}, stranger.token)).status).toBe(
      404,
    );

    const first = await h.call('POST', `/exchanges/suggestions/${suggestion.id}/accept`, {}, paule.token);
    expect(first.status).toBe(200);
    expect(first.body.message).toMatch(/les autres membres doivent accepter/);
    expect((await h.call('POST', `/exchanges/suggestions/${suggestion.id}/accept`, {}, paule.token)).status).toBe(409);
    const second = await h.call('POST', `/exchanges/suggestions/${suggestion.id}/accept`, {}, jean.token);
    expect(second.body.suggestion.status).toBe('accepted');
    expect(second.body.suggestion.legs.map((l: { conversation_url: string }) => l.conversation_url)).toEqual(
      expect.arrayContaining([`/messages/${jeanBook}/${paule.sub}`, `/messages/${pauleBook}/${paule.sub}`]),
    );
    const accepted = (await h.events('catalog.exchange.accepted')).filter((e) => e.suggestion_id === suggestion.id);
    expect(accepted).toHaveLength(1);
  });

  it('finds a cycle of three within a province when no pair exists', async () => {
    // Estuaire: Libreville, Owendo, Akanda. A gives SVT 6e to B, B gives SVT 5e to C, C gives SVT 4e to A.
    const a = await member('Alice Cycle', 'Libreville');
    const b = await member('Bruno Cycle', 'Owendo');
    const c = await member('Carine Cycle', 'Akanda');
    await offer(a, 'SVT 6e cycle', 'Libreville', ['6e', 'Sciences de la vie et de la Terre']);
    await offer(b, 'SVT 5e cycle', 'Owendo', ['5e', 'Sciences de la vie et de la Terre']);
    await offer(c, 'SVT 4e cycle', 'Akanda', ['4e', 'Sciences de la vie et de la Terre']);
    await wish(a, '4e', 'Sciences de la vie et de la Terre');
    await wish(b, '6e', 'Sciences de la vie et de la Terre');
    await wish(c, '5e', 'Sciences de la vie et de la Terre');
    await matchNow();
    const [cycle] = (await overview(a)).suggestions;
    expect(cycle).toMatchObject({ kind: 'cycle', status: 'open', area: 'Estuaire' });
    expect(cycle.legs).toHaveLength(3);
    for (const who of [b, c])
      expect((await overview(who)).suggestions.map((s: { id: string }) => s.id)).toContain(cycle.id);
  });

  it('never suggests again what one member declined; a sold listing lapses the suggestion', async () => {
    const x = await member('Xavier Refus', 'Port-Gentil');
    const y = await member('Yvette Refus', 'Port-Gentil');
    const xBook = await offer(x, 'Anglais 3e refus', 'Port-Gentil', ['3e', 'Anglais']);
    await offer(y, 'Anglais 2nde refus', 'Port-Gentil', ['2nde', 'Anglais']);
    await wish(x, '2nde', 'Anglais');
    await wish(y, '3e', 'Anglais');
    await matchNow();
    const [first] = (await overview(x)).suggestions;
    const declined = await h.call('POST', `/exchanges/suggestions/${first.id}/decline`, {}, y.token);
    expect(declined.body.suggestion).toMatchObject({ status: 'declined', my_answer: 'declined' });
    await matchNow();
    expect((await overview(x)).suggestions.filter((s: { status: string }) => s.status === 'open')).toHaveLength(0);

    // Another listing makes another suggestion; it lapses when the listing is sold.
    const other = await offer(y, 'Anglais 2nde autre', 'Port-Gentil', ['2nde', 'Anglais']);
    await matchNow();
    const open = (await overview(x)).suggestions.find((s: { status: string }) => s.status === 'open');
    expect(open.legs.map((l: { book: { id: number } }) => l.book.id).sort()).toEqual([xBook, other].sort());
    expect((await h.call('PUT', `/books/${other}/status`, { status: 'vendu' }, y.token)).status).toBe(200);
    const late = await h.call('POST', `/exchanges/suggestions/${open.id}/accept`, {}, x.token);
    expect(late.status).toBe(409);
    expect(late.body.message).toBe('Cette proposition n’est plus ouverte.');
  });

  it('never suggests an exchange between two members one of whom blocked the other; a block lapses an open one', async () => {
    const block = (blocker: Member, blocked: Member) =>
      h.deliver(memberBlocksProjection, 'messaging.member.blocked', {
        blocker_id: blocker.sub,
        blocked_id: blocked.sub,
        at: new Date().toISOString(),
      });
    const a = await member('Alice Bloque', 'Franceville');
    const b = await member('Bruno Bloque', 'Franceville');
    await offer(a, 'Physique 3e bloque', 'Franceville', ['3e', 'Physique-Chimie']);
    await offer(b, 'Physique 2nde bloque', 'Franceville', ['2nde', 'Physique-Chimie']);
    await wish(a, '2nde', 'Physique-Chimie');
    await wish(b, '3e', 'Physique-Chimie');
    await block(b, a);
    await matchNow();
    // A run that the wish set off may have paired them just before the block landed: the next
    // run lapses that one, so none is open.
    const openOf = async (who: Member) =>
      (await overview(who)).suggestions.filter((s: { status: string }) => s.status === 'open');
    expect(await openOf(a)).toHaveLength(0);
    expect(await openOf(b)).toHaveLength(0);

    // Suggested before a block: the block lapses it.
    const c = await member('Carine Bloque', 'Franceville');
    await offer(c, 'Physique 2nde autre', 'Franceville', ['2nde', 'Physique-Chimie']);
    await wish(c, '3e', 'Physique-Chimie');
    await matchNow();
    const [open] = await openOf(a);
    expect(open).toMatchObject({ status: 'open' });
    await block(a, c);
    await matchNow();
    expect((await overview(a)).suggestions.filter((s: { status: string }) => s.status === 'open')).toHaveLength(0);
  });

  it('does not pair members of two provinces', async () => {
    const lbv = await member('Léa Libreville', 'Libreville');
    const fcv = await member('Fabrice Franceville', 'Franceville');
    await offer(lbv, 'Français 3e provinces', 'Libreville', ['3e', 'Français']);
    await offer(fcv, 'Français 2nde provinces', 'Franceville', ['2nde', 'Français']);
    await wish(lbv, '2nde', 'Français');
    await wish(fcv, '3e', 'Français');
    await matchNow();
    expect((await overview(lbv)).suggestions).toEqual([]);
  });
});
