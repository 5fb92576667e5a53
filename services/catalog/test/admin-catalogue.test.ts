import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { books, sellers } from '../src/db/schema.ts';
import { type CatalogHarness, photo, startCatalog } from './harness.ts';

let h: CatalogHarness;
let moderator: { sub: string; token: string };
let member: { sub: string; token: string };
let owner: { sub: string; token: string };
let other: { sub: string; token: string };
let libreville: number;
let oyem: number;
const ids: Record<string, number> = {};

async function list(who: { token: string }, over: Record<string, string> = {}, files: Record<string, Buffer> = {}) {
  const res = await h.form(
    'POST',
    '/books',
    {
      title: 'Mathématiques Terminale D',
      author: 'Collection Excellence',
      condition: 'bon',
      price: '7500',
      city_id: String(libreville),
      category_ids: [String(await h.categoryId('Terminale D'))],
      ...over,
    },
    files,
    who.token,
  );
  expect(res.status).toBe(201);
  return res.body.book.id as number;
}

const titles = (body: { data: Array<{ title: string }> }) => body.data.map((b) => b.title);

beforeAll(async () => {
  h = await startCatalog();
  moderator = await h.token({ permissions: ['books.update.any'] });
  member = await h.token();
  owner = await h.token();
  other = await h.token();
  libreville = await h.cityId('Libreville');
  oyem = await h.cityId('Oyem');
  await h.db.insert(sellers).values([
    { userId: owner.sub, name: 'Awa Nguema', username: 'awa', email: 'awa@example.ga', createdAt: new Date() },
    { userId: other.sub, name: 'Paul Mba', username: 'paul', email: null, createdAt: new Date() },
  ]);
  ids.maths = await list(owner, { price: '7500' }, { image1: await photo() });
  ids.svt = await list(owner, { title: 'SVT 3e', author: 'Hatier', price: '3000', isbn: '978-2-218-96145-2' });
  ids.philo = await list(other, {
    title: 'Philosophie Terminale',
    author: 'Nathan',
    price: '12000',
    city_id: String(oyem),
    category_ids: String(await h.categoryId('Philosophie')),
  });
  ids.sold = await list(other, { title: 'Anglais 6e', author: 'Hachette', price: '1500' });
  await h.call('PUT', `/books/${ids.sold}/status`, { status: 'vendu' }, other.token);
});
afterAll(() => h?.teardown());

describe('GET /admin/books', () => {
  it('answers 401 without a token, 403 without books.update.any, 200 to a member holding only it', async () => {
    expect((await h.call('GET', '/admin/books')).status).toBe(401);
    const refused = await h.call('GET', '/admin/books', undefined, member.token);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/[a-zé]/);
    const ok = await h.call('GET', '/admin/books', undefined, moderator.token);
    expect(ok.status).toBe(200);
    // Every book, the sold one too, newest first, with its owner from the sellers projection.
    expect(titles(ok.body)).toEqual(['Anglais 6e', 'Philosophie Terminale', 'SVT 3e', 'Mathématiques Terminale D']);
    expect(ok.body.meta).toEqual({ current_page: 1, last_page: 1, total: 4, per_page: 20 });
    const maths = ok.body.data.find((b: { id: number }) => b.id === ids.maths);
    expect(maths).toMatchObject({
      owner: { id: owner.sub, name: 'Awa Nguema', email: 'awa@example.ga' },
      city: { name: 'Libreville' },
      status: 'disponible',
      hidden: false,
      categories: [{ name: 'Terminale D' }],
    });
    expect(maths.thumbnail).toMatch(/^\/storage\//);
  });

  it('searches title, author and ISBN, filters by status, city, category and owner', async () => {
    const q = (query: string) => h.call('GET', `/admin/books?${query}`, undefined, moderator.token);
    expect(titles((await q('search=mathema')).body)).toEqual(['Mathématiques Terminale D']);
    expect(titles((await q('search=hatier')).body)).toEqual(['SVT 3e']);
    expect(titles((await q('search=9782218961452')).body)).toEqual(['SVT 3e']);
    expect(titles((await q('search=50%25')).body)).toEqual([]);
    expect(titles((await q('status=vendu')).body)).toEqual(['Anglais 6e']);
    expect(titles((await q(`city_id=${oyem}`)).body)).toEqual(['Philosophie Terminale']);
    expect(titles((await q(`category_id=${await h.categoryId('Philosophie')}`)).body)).toEqual([
      'Philosophie Terminale',
    ]);
    expect(titles((await q(`owner_id=${owner.sub}`)).body)).toEqual(['SVT 3e', 'Mathématiques Terminale D']);
  });

  it('sorts by price, title and views both ways and pages', async () => {
    const q = (query: string) => h.call('GET', `/admin/books?${query}`, undefined, moderator.token);
    expect(titles((await q('sort_by=price&sort_direction=asc')).body)).toEqual([
      'Anglais 6e',
      'SVT 3e',
      'Mathématiques Terminale D',
      'Philosophie Terminale',
    ]);
    expect(titles((await q('sort_by=title&sort_direction=desc')).body)[0]).toBe('SVT 3e');
    await h.db.update(books).set({ views: 40 }).where(eq(books.id, ids.svt!));
    expect(titles((await q('sort_by=views')).body)[0]).toBe('SVT 3e');
    const page2 = await q('sort_by=price&sort_direction=asc&per_page=3&page=2');
    expect(titles(page2.body)).toEqual(['Philosophie Terminale']);
    expect(page2.body.meta).toEqual({ current_page: 2, last_page: 2, total: 4, per_page: 3 });
  });

  it('refuses bad filters with a French 422 naming each field', async () => {
    const bad = await h.call(
      'GET',
      '/admin/books?status=perdu&hidden=peut-etre&owner_id=42&sort_by=auteur&per_page=1000',
      undefined,
      moderator.token,
    );
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['hidden', 'owner_id', 'per_page', 'sort_by', 'status']);
    expect(bad.body.errors.owner_id).toEqual(['Identifiant de membre invalide']);
    expect(bad.body.message).toMatch(/[éè]|donn/i);
    expect((await h.call('GET', '/admin/books/999999', undefined, moderator.token)).body).toEqual({
      message: 'Ce manuel est introuvable.',
    });
  });
});

describe('moderating a listing', () => {
  it('hides a book with a reason: out of the public catalogue, kept for its owner with the reason', async () => {
    const noReason = await h.call('POST', `/admin/books/${ids.maths}/hide`, {}, moderator.token);
    expect(noReason.status).toBe(422);
    expect(noReason.body.errors.reason).toEqual(['Le motif est obligatoire']);
    const short = await h.call('POST', `/admin/books/${ids.maths}/hide`, { reason: 'bof' }, moderator.token);
    expect(short.body.errors.reason).toEqual(['Le motif doit contenir au moins 5 caractères']);
    const long = await h.call('POST', `/admin/books/${ids.maths}/hide`, { reason: 'x'.repeat(501) }, moderator.token);
    expect(long.body.errors.reason).toEqual(['Le motif ne peut pas dépasser 500 caractères']);
    expect(
      (await h.call('POST', `/admin/books/${ids.maths}/hide`, { reason: 'Photos volées' }, member.token)).status,
    ).toBe(403);
    expect(
      (await h.call('POST', '/admin/books/999999/hide', { reason: 'Photos volées' }, moderator.token)).status,
    ).toBe(404);

    const reason = 'Photos reprises d’une autre annonce';
    const hidden = await h.call('POST', `/admin/books/${ids.maths}/hide`, { reason }, moderator.token);
    expect(hidden.status).toBe(200);
    expect(hidden.body.message).toBe('Annonce masquée avec succès');
    expect(hidden.body.book).toMatchObject({ hidden: true, hidden_reason: reason });
    const again = await h.call('POST', `/admin/books/${ids.maths}/hide`, { reason }, moderator.token);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Cette annonce est déjà masquée.');

    const publicTitles = titles((await h.call('GET', '/books')).body);
    expect(publicTitles).not.toContain('Mathématiques Terminale D');
    expect(publicTitles).toContain('SVT 3e');
    expect(titles((await h.call('GET', '/books/search?query=mathematiques')).body)).toEqual([]);
    const featured = (await h.call('GET', '/books/featured')).body.featured_books.map((b: { id: number }) => b.id);
    expect(featured).not.toContain(ids.maths);
    const recommended = (await h.call('GET', '/books/recommended')).body.books.map((b: { id: number }) => b.id);
    expect(recommended).not.toContain(ids.maths);
    const profile = await h.call('GET', `/users/profile/books?user_id=${owner.sub}`);
    expect(titles(profile.body)).toEqual(['SVT 3e']);
    // A visitor and another member: 404; the owner and a moderator still open it.
    expect((await h.call('GET', `/books/${ids.maths}`)).status).toBe(404);
    expect((await h.call('GET', `/books/${ids.maths}`, undefined, member.token)).status).toBe(404);
    expect((await h.call('GET', `/books/${ids.maths}`, undefined, owner.token)).body.book.hidden).toBe(true);
    expect((await h.call('GET', `/books/${ids.maths}`, undefined, moderator.token)).status).toBe(200);
    // Asked as a visitor (the address a book page's HTML preloads), even the owner gets the visitor's answer.
    expect((await h.call('GET', `/books/${ids.maths}?as=visitor`, undefined, owner.token)).status).toBe(404);
    expect((await h.call('GET', `/books/${ids.svt}?as=visitor`, undefined, owner.token)).status).toBe(200);
    const unknown = await h.call('GET', `/books/${ids.svt}?as=owner`, undefined, owner.token);
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors.as).toHaveLength(1);
    const mine = await h.call('GET', '/user/books', undefined, owner.token);
    expect(mine.body.data.find((b: { id: number }) => b.id === ids.maths)).toMatchObject({
      hidden: true,
      hidden_reason: reason,
    });
    expect(titles((await h.call('GET', '/admin/books?hidden=true', undefined, moderator.token)).body)).toEqual([
      'Mathématiques Terminale D',
    ]);
    expect(titles((await h.call('GET', '/admin/books?hidden=false', undefined, moderator.token)).body)).not.toContain(
      'Mathématiques Terminale D',
    );

    // The moderation event for the owner's e-mail, and the usual book event with a new version.
    const [moderated] = await h.events('catalog.book.moderated');
    expect(moderated).toMatchObject({
      book_id: ids.maths,
      owner_id: owner.sub,
      title: 'Mathématiques Terminale D',
      action: 'hidden',
      reason,
      moderator_id: moderator.sub,
    });
    const updated = (await h.events('catalog.book.updated')).filter((e) => e.book_id === ids.maths);
    expect(updated.at(-1).version).toBe(2);
  });

  it('shows a hidden book again', async () => {
    const shown = await h.call('POST', `/admin/books/${ids.maths}/unhide`, undefined, moderator.token);
    expect(shown.status).toBe(200);
    expect(shown.body.book).toMatchObject({ hidden: false, hidden_at: null, hidden_reason: null });
    expect((await h.call('GET', `/books/${ids.maths}`)).status).toBe(200);
    expect(titles((await h.call('GET', '/books')).body)).toContain('Mathématiques Terminale D');
    expect((await h.call('POST', `/admin/books/${ids.maths}/unhide`, undefined, moderator.token)).status).toBe(409);
    expect((await h.events('catalog.book.moderated')).at(-1)).toMatchObject({ action: 'unhidden', reason: null });
  });

  it('changes the status with an optional reason', async () => {
    const bad = await h.call('PUT', `/admin/books/${ids.svt}/status`, { status: 'perdu' }, moderator.token);
    expect(bad.status).toBe(422);
    expect(bad.body.errors.status).toEqual(['Statut inconnu (disponible, réservé ou vendu)']);
    const res = await h.call(
      'PUT',
      `/admin/books/${ids.svt}/status`,
      { status: 'réservé', reason: 'Vendu hors du site, selon le vendeur' },
      moderator.token,
    );
    expect(res.status).toBe(200);
    expect(res.body.book.status).toBe('réservé');
    expect((await h.events('catalog.book.status_changed')).at(-1)).toMatchObject({
      book_id: ids.svt,
      status: 'réservé',
      previous_status: 'disponible',
    });
    expect((await h.events('catalog.book.moderated')).at(-1)).toMatchObject({
      action: 'status_changed',
      status: 'réservé',
      reason: 'Vendu hors du site, selon le vendeur',
    });
  });

  it('deletes a book with a reason through the owner’s path: photos removed, book event and moderation event', async () => {
    const before = (await h.call('GET', `/admin/books/${ids.maths}`, undefined, moderator.token)).body.book;
    const stored = join(h.dataDir, 'storage', before.thumbnail.slice('/storage/'.length));
    expect(existsSync(stored)).toBe(true);
    const noReason = await h.call('DELETE', `/admin/books/${ids.maths}`, {}, moderator.token);
    expect(noReason.status).toBe(422);
    expect(noReason.body.errors.reason).toEqual(['Le motif est obligatoire']);
    expect((await h.call('DELETE', `/admin/books/${ids.maths}`, { reason: 'Contrefaçon' }, member.token)).status).toBe(
      403,
    );
    const res = await h.call(
      'DELETE',
      `/admin/books/${ids.maths}`,
      { reason: 'Contrefaçon signalée' },
      moderator.token,
    );
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Annonce supprimée avec succès');
    expect(existsSync(stored)).toBe(false);
    expect((await h.call('GET', `/admin/books/${ids.maths}`, undefined, moderator.token)).status).toBe(404);
    expect((await h.events('catalog.book.deleted')).at(-1)).toMatchObject({ book_id: ids.maths, user_id: owner.sub });
    expect((await h.events('catalog.book.moderated')).at(-1)).toMatchObject({
      book_id: ids.maths,
      action: 'deleted',
      reason: 'Contrefaçon signalée',
    });
    expect(
      (await h.call('DELETE', `/admin/books/${ids.maths}`, { reason: 'Contrefaçon signalée' }, moderator.token)).status,
    ).toBe(404);
  });
});

describe('cities in the back office', () => {
  let manager: string;
  beforeAll(async () => {
    manager = (await h.token({ permissions: ['cities.manage'] })).token;
  });

  it('lists cities with province and major filters, pages and the books and members using each', async () => {
    expect((await h.call('GET', '/admin/cities', undefined, member.token)).status).toBe(403);
    const page = await h.call('GET', '/admin/cities?province=estuaire&per_page=2', undefined, manager);
    expect(page.status).toBe(200);
    expect(page.body.data).toHaveLength(2);
    expect(page.body.meta).toMatchObject({ current_page: 1, per_page: 2 });
    expect(page.body.meta.total).toBeGreaterThan(2);
    const major = await h.call('GET', '/admin/cities?major_only=true&search=libre', undefined, manager);
    expect(major.body.data).toEqual([
      expect.objectContaining({ name: 'Libreville', is_major: true, books_count: 2, members_count: 0 }),
    ]);
    const notMajor = await h.call('GET', '/admin/cities?is_major=false&per_page=500', undefined, manager);
    expect(notMajor.body.data.every((c: { is_major: boolean }) => !c.is_major)).toBe(true);
    const oyemRow = await h.call('GET', '/admin/cities?search=oyem', undefined, manager);
    expect(oyemRow.body.data[0]).toMatchObject({ books_count: 1 });
    // The public page of cities takes the same filter.
    const publicMajor = await h.call('GET', '/cities?major_only=true&per_page=500');
    expect(publicMajor.body.data.every((c: { is_major: boolean }) => c.is_major)).toBe(true);
  });

  it('refuses with a French 409 to delete a city books or members use', async () => {
    const usedByBooks = await h.call('DELETE', `/admin/cities/${oyem}`, undefined, manager);
    expect(usedByBooks.status).toBe(409);
    expect(usedByBooks.body.message).toBe('Impossible de supprimer Oyem : la ville est utilisée par 1 annonce.');
    const town = await h.call('POST', '/admin/cities', { name: 'Akiéni-Nord', province: 'Moyen-Ogooué' }, manager);
    await h.db.update(sellers).set({ cityId: town.body.city.id }).where(eq(sellers.userId, other.sub));
    const usedByMembers = await h.call('DELETE', `/admin/cities/${town.body.city.id}`, undefined, manager);
    expect(usedByMembers.status).toBe(409);
    expect(usedByMembers.body.message).toBe(
      'Impossible de supprimer Akiéni-Nord : la ville est utilisée par 1 membre.',
    );
    await h.db.update(sellers).set({ cityId: null }).where(eq(sellers.userId, other.sub));
    expect((await h.call('DELETE', `/admin/cities/${town.body.city.id}`, undefined, manager)).status).toBe(200);
    expect((await h.call('DELETE', '/admin/cities/999999', undefined, manager)).body.message).toBe(
      'Ville introuvable.',
    );
  });

  it('previews a CSV import without writing, with each rejected line’s content and reasons, then imports', async () => {
    const csv = Buffer.from(
      [
        'name;province;is_major',
        'Lékoni;Haut-Ogooué;oui',
        'Libreville;Estuaire;',
        ';Estuaire;',
        'Bikélé-Nzong;Estuaire;',
      ].join('\n'),
    );
    const send = async (url: string) => {
      const boundary = `----x${randomBytes(4).toString('hex')}`;
      const payload = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="country_id"\r\n\r\n266\r\n--${boundary}\r\nContent-Disposition: form-data; name="csv_file"; filename="villes.csv"\r\n\r\n`,
        ),
        csv,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const res = await h.app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${manager}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      return { status: res.statusCode, body: res.json() };
    };
    const before = (await h.call('GET', '/admin/cities?per_page=1', undefined, manager)).body.meta.total;
    const preview = await send('/admin/cities/import?dry_run=true');
    expect(preview.status).toBe(200);
    const report = {
      to_import: [
        { line: 2, name: 'Lékoni', province: 'Haut-Ogooué', is_major: true },
        { line: 5, name: 'Bikélé-Nzong', province: 'Estuaire', is_major: false },
      ],
      rejected: [
        {
          line: 3,
          content: 'Libreville;Estuaire;',
          reason: 'Libreville existe déjà',
          reasons: ['Libreville existe déjà'],
        },
        {
          line: 4,
          content: ';Estuaire;',
          reason: 'Nom de ville manquant ou trop court',
          reasons: ['Nom de ville manquant ou trop court'],
        },
      ],
    };
    expect(preview.body).toEqual({ dry_run: true, imported: 0, ...report });
    expect((await h.call('GET', '/admin/cities?per_page=1', undefined, manager)).body.meta.total).toBe(before);
    expect((await h.call('GET', '/admin/cities?search=bikele', undefined, manager)).body.data).toEqual([]);

    const done = await send('/admin/cities/import');
    expect(done.body).toEqual({ dry_run: false, imported: 2, ...report });
    expect((await h.call('GET', '/admin/cities?per_page=1', undefined, manager)).body.meta.total).toBe(before + 2);
  });
});

describe('banners', () => {
  it('keeps inactive banners out of /banners/active, and the carousel revalidates at every load', async () => {
    const manager = (await h.token({ permissions: ['banners.manage'] })).token;
    const created = await h.form(
      'POST',
      '/banners',
      { title: 'Rentrée', is_active: 'true', button_link: 'https://cartable.ga/rentree' },
      { image: await photo('png', 1200, 400) },
      manager,
    );
    expect(created.status).toBe(201);
    const res = await h.app.inject({ method: 'GET', url: '/banners/active' });
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.json().banners.map((b: { id: number }) => b.id)).toContain(created.body.banner.id);
    const off = await h.form(
      'POST',
      `/banners/${created.body.banner.id}`,
      { title: 'Rentrée', is_active: 'false' },
      {},
      manager,
    );
    expect(off.body.banner.is_active).toBe(false);
    const after = (await h.call('GET', '/banners/active')).body.banners.map((b: { id: number }) => b.id);
    expect(after).not.toContain(created.body.banner.id);
    const all = await h.call('GET', '/banners', undefined, manager);
    expect(all.body.banners.map((b: { id: number }) => b.id)).toContain(created.body.banner.id);
  });
});
