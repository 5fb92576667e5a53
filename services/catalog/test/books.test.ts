import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Cache, rowsOf } from '@cartable/service-kit';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema.ts';
import { type CatalogHarness, photo, startCatalog } from './harness.ts';

let h: CatalogHarness;
let seller: { sub: string; token: string };
let libreville: number;
let portGentil: number;

beforeAll(async () => {
  h = await startCatalog({ BOOK_IMAGE_MAX_BYTES: String(2 * 1024 * 1024) });
  seller = await h.token();
  libreville = await h.cityId('Libreville');
  portGentil = await h.cityId('Port-Gentil');
});
afterAll(() => h?.teardown());

async function list(book: Record<string, string | string[]>, files: Record<string, Buffer> = {}, who = seller) {
  return h.form('POST', '/books', book, files, who.token);
}

const fields = async (over: Record<string, string | string[]> = {}) => ({
  title: 'Mathématiques Terminale D',
  author: 'Collection Excellence',
  condition: 'bon',
  price: '7500',
  city_id: String(libreville),
  is_negociable: 'true',
  category_ids: [String(await h.categoryId('Terminale D')), String(await h.categoryId('Mathématiques'))],
  ...over,
});

const storedFile = (url: string) => join(h.dataDir, 'storage', url.slice('/storage/'.length));

describe('listing a book', () => {
  it('creates a book with two photos re-encoded to WebP in two sizes, and records the event', async () => {
    const res = await list(await fields({ description: 'Annoté au crayon, couverture intacte.' }), {
      image1: await photo('jpeg', 2400, 3200),
      image2: await photo('png'),
    });
    expect(res.status).toBe(201);
    const book = res.body.book;
    expect(book).toMatchObject({
      title: 'Mathématiques Terminale D',
      condition: 'bon',
      condition_label: 'Bon état',
      price: 7500,
      status: 'disponible',
      status_label: 'Disponible',
      is_negociable: true,
      is_negotiable: true,
      is_exchange_possible: false,
      city: { id: libreville, name: 'Libreville', province: 'Estuaire' },
      category: { name: 'Terminale D' },
      user_id: seller.sub,
      image3: null,
    });
    expect(book.images).toHaveLength(2);
    const display = await sharp(storedFile(book.image1)).metadata();
    const thumb = await sharp(storedFile(book.thumbnail)).metadata();
    expect([display.format, display.width, thumb.format, thumb.width]).toEqual(['webp', 900, 'webp', 400]);
    expect(display.exif).toBeUndefined();
    expect((await h.events('catalog.book.created')).at(-1)).toMatchObject({
      book_id: book.id,
      user_id: seller.sub,
      price: 7500,
    });
  });

  it('refuses a file that is not an image, a fourth image, an oversized one, and bad fields with 422', async () => {
    const notImage = await list(await fields(), { image1: Buffer.from('GIF89a? no, just text') });
    expect(notImage.status).toBe(422);
    expect(notImage.body.errors.image1).toEqual(["Ce fichier n'est pas une photo valide (JPEG, PNG ou WebP)."]);

    const four = await list(await fields(), {
      image1: await photo(),
      image2: await photo(),
      image3: await photo(),
      image4: await photo(),
    });
    expect(four.status).toBe(422);
    expect(four.body.errors.images).toEqual(['3 photos au plus (champs image1 à image3).']);

    const big = await sharp({ create: { width: 2000, height: 2000, channels: 3, background: '#FCD116' } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    const tooBig = await list(await fields(), { image1: big });
    expect(tooBig.status).toBe(422);
    expect(tooBig.body.errors.image1).toEqual(['La photo ne doit pas dépasser 2 Mo.']);

    const bad = await list(await fields({ title: '', price: '-5', condition: 'cassé', category_ids: [] }));
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['category_ids', 'condition', 'price', 'title']);
    expect(bad.body.errors.price).toEqual(['Le prix ne peut pas être négatif']);

    const unknown = await list(await fields({ city_id: '999999', category_ids: ['999999'] }));
    expect(unknown.body.errors).toEqual({ category_ids: ['Catégorie inconnue'], city_id: ['Ville inconnue'] });
  });

  it('accepts a gift at price 0 and refuses a member whose e-mail is not verified', async () => {
    expect((await list(await fields({ title: 'Lecture CP1', price: '0' }))).body.book.price).toBe(0);
    const unverified = await h.token({ email_verified: false });
    expect((await list(await fields(), {}, unverified)).status).toBe(403);
    expect((await h.call('POST', '/books', { title: 'x' })).status).toBe(401);
  });
});

describe('changing and removing a book', () => {
  it('updates fields, keeps the photos it does not replace, removes the one asked', async () => {
    const created = (
      await list(await fields({ title: 'Français 3e' }), {
        image1: await photo(),
        image2: await photo('webp'),
        image3: await photo(),
      })
    ).body.book;
    const res = await h.form(
      'POST',
      `/books/${created.id}`,
      { ...(await fields({ title: 'Français 3e – édition 2024', price: '5000' })), remove_image2: 'true' },
      { image3: await photo('png', 600, 800) },
      seller.token,
    );
    expect(res.status).toBe(200);
    const book = res.body.book;
    expect([book.title, book.price]).toEqual(['Français 3e – édition 2024', 5000]);
    expect(book.image1).toBe(created.image1);
    expect(book.image2).toBeNull();
    expect(book.image3).not.toBe(created.image3);
    expect(existsSync(storedFile(created.image2))).toBe(false);
    expect(existsSync(storedFile(created.image3))).toBe(false);
    expect(existsSync(storedFile(book.image3))).toBe(true);
  });

  it("refuses another member's book with 403, lets books.update.any through", async () => {
    const created = (await list(await fields({ title: 'Anglais 4e' }))).body.book;
    const other = await h.token();
    expect((await h.form('POST', `/books/${created.id}`, await fields(), {}, other.token)).status).toBe(403);
    expect((await h.call('PUT', `/books/${created.id}/status`, { status: 'vendu' }, other.token)).status).toBe(403);
    expect((await h.call('DELETE', `/books/${created.id}`, undefined, other.token)).status).toBe(403);
    const moderator = await h.token({ permissions: ['books.update.any'] });
    expect(
      (await h.call('PUT', `/books/${created.id}/status`, { status: 'réservé' }, moderator.token)).body.book.status,
    ).toBe('réservé');
  });

  it('changes the status among disponible, réservé and vendu only', async () => {
    const created = (await list(await fields({ title: 'Physique-Chimie 2nde' }))).body.book;
    const res = await h.call('PUT', `/books/${created.id}/status`, { status: 'réservé' }, seller.token);
    expect(res.body.book).toMatchObject({ status: 'réservé', status_label: 'Réservé' });
    expect((await h.call('PUT', `/books/${created.id}/status`, { status: 'perdu' }, seller.token)).status).toBe(422);
    expect((await h.events('catalog.book.status_changed')).at(-1)).toMatchObject({
      status: 'réservé',
      previous_status: 'disponible',
    });
  });

  it('deletes a book with its photos', async () => {
    const created = (await list(await fields({ title: 'SVT 5e' }), { image1: await photo() })).body.book;
    const res = await h.call('DELETE', `/books/${created.id}`, undefined, seller.token);
    expect(res.body.message).toBe('Annonce supprimée avec succès');
    expect(existsSync(storedFile(created.image1))).toBe(false);
    expect((await h.call('GET', `/books/${created.id}`)).status).toBe(404);
  });
});

describe('finding books', () => {
  beforeAll(async () => {
    const maths = String(await h.categoryId('Mathématiques'));
    const cm2 = String(await h.categoryId('CM2'));
    const sixieme = String(await h.categoryId('6e'));
    await list(
      await fields({
        title: 'Calcul CM2',
        author: 'IPN',
        price: '3000',
        category_ids: [cm2, maths],
        city_id: String(portGentil),
      }),
    );
    await list(
      await fields({
        title: 'Géographie du Gabon 6e',
        author: 'Édicef',
        price: '4500',
        category_ids: [sixieme],
        condition: 'neuf',
      }),
    );
    await list(
      await fields({
        title: 'Mathématiques 6e',
        author: 'Hachette',
        price: '9000',
        category_ids: [sixieme, maths],
        is_exchange_possible: 'true',
      }),
    );
  });

  it('filters by a category including its descendants, a price range, a city, condition and flags', async () => {
    const college = await h.categoryId('Collège');
    const inCollege = await h.call('GET', `/books?category_ids=${college}`);
    expect(inCollege.body.data.map((b: { title: string }) => b.title).sort()).toEqual([
      'Géographie du Gabon 6e',
      'Mathématiques 6e',
    ]);
    const sixieme = await h.categoryId('6e');
    const maths = await h.categoryId('Mathématiques');
    const sixiemeMaths = await h.call('GET', `/books?category_ids=${sixieme},${maths}`);
    expect(sixiemeMaths.body.data.map((b: { title: string }) => b.title)).toEqual(['Mathématiques 6e']);
    const cheap = await h.call('GET', '/books?min_price=3000&max_price=4500&sort_by=price&sort_direction=asc');
    expect(cheap.body.data.map((b: { price: number }) => b.price)).toEqual([3000, 4500]);
    expect(
      (await h.call('GET', `/books?city_id=${portGentil}`)).body.data.map((b: { title: string }) => b.title),
    ).toEqual(['Calcul CM2']);
    expect((await h.call('GET', '/books?condition=neuf')).body.total).toBe(1);
    expect((await h.call('GET', '/books?is_exchange_possible=true')).body.data[0].title).toBe('Mathématiques 6e');
  });

  it('searches title and author, ignoring accents and forgiving a typo', async () => {
    const byAccent = await h.call('GET', `/books/search?query=${encodeURIComponent('geographie gabon')}`);
    expect(byAccent.body.data[0].title).toBe('Géographie du Gabon 6e');
    const byAuthor = await h.call('GET', '/books?query=hachette');
    expect(byAuthor.body.data.map((b: { title: string }) => b.title)).toEqual(['Mathématiques 6e']);
    const typo = await h.call('GET', `/books?query=${encodeURIComponent('mathematqiues')}`);
    expect(typo.body.data.map((b: { title: string }) => b.title)).toContain('Mathématiques 6e');
  });

  it('forgives a typo in each word, in the title or the author, and nothing when a word is like no listing', async () => {
    const titles = async (query: string) =>
      (await h.call('GET', `/books?query=${encodeURIComponent(query)}`)).body.data.map(
        (b: { title: string }) => b.title,
      );
    expect(await titles('mathematqiues hachete')).toEqual(['Mathématiques 6e']);
    expect(await titles('geograhpie edicf')).toEqual(['Géographie du Gabon 6e']);
    expect(await titles('mathematqiues zzqxw')).toEqual([]);
    // A listing's words are known as soon as it is written.
    await list(await fields({ title: 'Cahier de coloriage Okoumé', price: '1500' }));
    expect(await titles('okoume coloriaje')).toEqual(['Cahier de coloriage Okoumé']);
  });

  it('pages results and caps per_page; similar books exclude the one shown', async () => {
    const page = await h.call('GET', '/books?per_page=2&page=2&sort_by=title');
    expect(page.body).toMatchObject({ per_page: 2, current_page: 2 });
    expect(page.body.last_page).toBe(Math.ceil(page.body.total / 2));
    const one = (await h.call('GET', '/books?query=hachette')).body.data[0];
    const maths = await h.categoryId('Mathématiques');
    const similar = await h.call('GET', `/books?category_id=${maths}&exclude_id=${one.id}&limit=4`);
    expect(similar.body.data.every((b: { id: number }) => b.id !== one.id)).toBe(true);
    expect(similar.body.data.length).toBeLessThanOrEqual(4);
  });

  it('answers bad filter values with 422 and French field errors', async () => {
    const res = await h.call('GET', '/books?min_price=abc&per_page=500&sort_by=random&condition=cassé');
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['condition', 'min_price', 'per_page', 'sort_by']);
    const range = await h.call('GET', '/books?min_price=9000&max_price=100');
    expect(range.body.errors.max_price).toEqual(['Le prix maximum doit être supérieur au prix minimum']);
  });

  it('shows the detail with the seller block and counts a view, not the owner’s own', async () => {
    const one = (await h.call('GET', '/books?query=hachette')).body.data[0];
    await h.call('GET', `/books/${one.id}`, undefined, seller.token);
    const visitor = await h.call('GET', `/books/${one.id}`);
    expect(visitor.body.book.seller).toBeNull();
    await h.views.flush();
    // Read by a member: a visitor's page may be the one kept for 10 s, with the count before.
    const again = await h.call('GET', `/books/${one.id}`, undefined, (await h.token()).token);
    expect(again.body.book.views).toBe(1);
    expect((await h.call('GET', '/books/abc')).status).toBe(422);
  });

  it('lists the member’s own books and their stats', async () => {
    const mine = await h.call('GET', '/user/books', undefined, seller.token);
    expect(mine.body.data.length).toBeGreaterThan(3);
    const stats = await h.call('GET', '/books/stats/user', undefined, seller.token);
    expect(stats.body.stats.total).toBe(mine.body.data.length);
    expect(stats.body.stats.available + stats.body.stats.reserved + stats.body.stats.sold).toBe(stats.body.stats.total);
  });
});

describe('answer caches', () => {
  it('serves a repeated search from cache and forgets it when a book is written', async () => {
    const url = `/books?query=${encodeURIComponent('cache test')}`;
    expect((await h.call('GET', url)).body.total).toBe(0);
    await list(await fields({ title: 'Cache test – Anglais' }));
    // The write cleared the cache: the new book shows at once.
    expect((await h.call('GET', url)).body.total).toBe(1);
  });

  it('keeps a visitor’s book page, never a member’s, and forgets it when this catalog writes the book', async () => {
    const created = await list(await fields({ title: 'Cache page – Français 5e' }));
    const id = created.body.book.id as number;
    const visitor = () => h.call('GET', `/books/${id}`);
    expect((await visitor()).body.book.title).toBe('Cache page – Français 5e');

    // Written behind this process's back (as another replica would): visitors keep the page
    // they were given for up to 10 s; members read the row.
    await h.db.update(schema.books).set({ title: 'Changé ailleurs' }).where(eq(schema.books.id, id));
    expect((await visitor()).body.book.title).toBe('Cache page – Français 5e');
    expect((await h.call('GET', `/books/${id}`, undefined, seller.token)).body.book.title).toBe('Changé ailleurs');

    // Written here: every visitor sees it at once.
    const sold = await h.call('PUT', `/books/${id}/status`, { status: 'vendu' }, seller.token);
    expect(sold.status).toBe(200);
    expect((await visitor()).body.book).toMatchObject({ title: 'Changé ailleurs', status: 'vendu' });
    const moderator = await h.token({ permissions: ['books.update.any'] });
    const hidden = await h.call('POST', `/admin/books/${id}/hide`, { reason: 'Photos volées' }, moderator.token);
    expect(hidden.status).toBe(200);
    expect((await visitor()).status).toBe(404);
    expect((await h.call('GET', `/books/${id}`, undefined, seller.token)).body.book.hidden).toBe(true);
  });

  it('does not keep a page read while a write cleared the cache', async () => {
    const pages = new Cache<number, string>({ max: 10, ttlMs: 60_000 });
    let finish!: (page: string) => void;
    const reading = pages.read(1, () => new Promise((resolve) => (finish = resolve)));
    pages.clear(); // a write lands while the page is being read
    finish('état d’avant');
    expect(await reading).toBe('état d’avant');
    expect(await pages.read(1, async () => 'état d’après')).toBe('état d’après');
    // A page read with no write meanwhile is kept; a failed read is not.
    expect(await pages.read(1, async () => 'autre')).toBe('état d’après');
    await expect(pages.read(2, () => Promise.reject(new Error('introuvable')))).rejects.toThrow('introuvable');
    expect(await pages.read(2, async () => 'trouvé')).toBe('trouvé');
  });
});

describe('totals of a listing page', () => {
  // 250 listings of one seller, priced 10,000 to 10,249 FCFA: filtered by that seller, the page
  // has more matches than are counted exactly (EXACT_COUNT_UP_TO) or a handful.
  const owner = '7a1e0000-0000-4000-8000-000000000250';
  beforeAll(async () => {
    await h.db.insert(schema.books).values(
      Array.from({ length: 250 }, (_, i) => ({
        userId: owner,
        title: `Annale du BEPC ${i}`,
        author: 'Collectif',
        condition: 'bon' as const,
        price: 10_000 + i,
        cityId: libreville,
      })),
    );
    await h.db.execute(sql`analyze books`);
  });
  const page = async (filters: string) => (await h.call('GET', `/books?user_id=${owner}&per_page=12${filters}`)).body;

  it('gives a first page that is not full its exact total', async () => {
    const few = await page('&min_price=10245');
    expect(few.data).toHaveLength(5);
    expect(few).toMatchObject({ total: 5, last_page: 1 });
  });

  it('counts up to a few hundred matches exactly, on every page', async () => {
    const first = await page('&max_price=10099&sort_by=price');
    expect(first.data.map((b: { price: number }) => b.price)).toEqual(Array.from({ length: 12 }, (_, i) => 10_000 + i));
    expect(first).toMatchObject({ total: 100, last_page: 9 });
    const fourth = await page('&max_price=10099&sort_by=price&page=4');
    expect(fourth.data[0].price).toBe(10_036);
    expect(fourth.total).toBe(100);
  });

  it('estimates past that, and gives the last page the exact figure', async () => {
    const first = await page('');
    expect(first.data).toHaveLength(12);
    expect(first.total).toBeGreaterThan(200);
    const last = await page('&page=21');
    expect(last.data).toHaveLength(10);
    expect(last).toMatchObject({ total: 250, last_page: 21 });
  });

  it("estimates a broad page's total with its values bound: no function takes a condition as text", async () => {
    const broad = await page('');
    expect(broad.data).toHaveLength(12);
    // More than EXACT_COUNT_UP_TO match: the total is the planner's, and never below what is seen.
    expect(broad.total).toBeGreaterThan(200);
    const [{ n } = { n: 0 }] = await rowsOf<{ n: number }>(
      h.db,
      sql`select count(*)::int as n from pg_proc where proname = 'cartable_listing_estimate'`,
    );
    expect(n).toBe(0);
  });

  it('gives a text search within the ranked window its exact total, and reads hostile words as words', async () => {
    const search = async (words: string, filters = '') => page(`&query=${encodeURIComponent(words)}${filters}`);
    // Five matches: the window holds them all, and its size is the total.
    expect(await search('annale', '&min_price=10245')).toMatchObject({ total: 5, last_page: 1 });
    // 250: the window is full, the total is the planner's estimate.
    const broad = await search('annale');
    expect(broad.data).toHaveLength(12);
    expect(broad.total).toBeGreaterThan(200);
    // Quotes and semicolons are text (every word is a bound value): the same books, nothing else run.
    for (const hostile of ["annale' or '1'='1", "annale'); delete from books; --", "annale\\' or true --"]) {
      const answer = await h.call('GET', `/books?user_id=${owner}&query=${encodeURIComponent(hostile)}`);
      expect(answer.status).toBe(200);
    }
    const [{ n } = { n: 0 }] = await rowsOf<{ n: number }>(
      h.db,
      sql`select count(*)::int as n from books where user_id = ${owner}`,
    );
    expect(n).toBe(250);
  });
});

describe('putting a listing back on sale', () => {
  it('dates an unsold listing of last school year anew, for its owner only, and never a recent or reserved one', async () => {
    const created = await list(await fields({ title: 'Histoire-Géographie 3e – invendu' }));
    const id = created.body.book.id as number;
    const relist = (who = seller) => h.call('POST', `/books/${id}/relist`, {}, who.token);
    const tooSoon = await relist();
    expect(tooSoon.status).toBe(409);
    expect(tooSoon.body.message).toBe('Cette annonce a moins de 10 mois : elle est encore parmi les récentes.');

    const lastYear = new Date(Date.now() - 330 * 24 * 3600_000);
    await h.db.update(schema.books).set({ createdAt: lastYear }).where(eq(schema.books.id, id));
    const stranger = await h.token();
    const refused = await relist(stranger);
    expect(refused.status).toBe(403);

    const done = await relist();
    expect(done.status).toBe(200);
    expect(done.body.message).toBe('Annonce remise en vente : elle apparaît de nouveau parmi les récentes.');
    expect(Date.now() - new Date(done.body.book.created_at).getTime()).toBeLessThan(60_000);
    // First among the newest again.
    const newest = await h.call('GET', '/books?sort_by=created_at&sort_direction=desc&per_page=1');
    expect(newest.body.data[0].id).toBe(id);

    await h.db.update(schema.books).set({ createdAt: lastYear }).where(eq(schema.books.id, id));
    expect((await h.call('PUT', `/books/${id}/status`, { status: 'réservé' }, seller.token)).status).toBe(200);
    const reserved = await relist();
    expect(reserved.status).toBe(409);
    expect(reserved.body.message).toBe('Seule une annonce disponible peut être remise en vente.');
    expect((await h.call('POST', '/books/999999/relist', {}, seller.token)).status).toBe(404);
  });
});

describe('what the condition does not say', () => {
  const titles = (res: { body: { data: Array<{ title: string }> } }) => res.body.data.map((b) => b.title).sort();

  it('keeps the flags the seller ticks, shows them on the card and the page, and refuses an unknown one', async () => {
    const created = await list(
      await fields({
        title: 'Cahier d’activités 5e – annoté',
        condition_flags: ['filled_in', 'annotated', 'annotated'],
      }),
    );
    expect(created.status).toBe(201);
    // Each once, in the order the screens list them.
    expect(created.body.book.condition_flags).toEqual(['annotated', 'filled_in']);
    const page = await h.call('GET', `/books/${created.body.book.id}`);
    expect(page.body.book.condition_flags).toEqual(['annotated', 'filled_in']);

    const unknown = await list(await fields({ title: 'Manuel au drapeau inconnu', condition_flags: ['soiled'] }));
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors['condition_flags.0']?.[0] ?? unknown.body.errors.condition_flags?.[0]).toBe(
      'Précision sur l’état inconnue',
    );

    // An edit that ticks none clears them, as the form sends it.
    const edited = await h.form(
      'POST',
      `/books/${created.body.book.id}`,
      await fields({ title: 'Cahier d’activités 5e – annoté' }),
      {},
      seller.token,
    );
    expect(edited.body.book.condition_flags).toEqual([]);
  });

  it('leaves out the listings with a flag the buyer does not want, from memory and from SQL alike', async () => {
    const anglais = String(await h.categoryId('Anglais'));
    const book = (title: string, flags: string[]) =>
      fields({ title, author: 'Longman', category_ids: [anglais], condition_flags: flags });
    await list(await book('Anglais Go for English 4e propre', []));
    await list(await book('Anglais Go for English 4e tamponné', ['stamped']));
    await list(await book('Anglais Go for English 4e sans couverture', ['cover_damaged', 'pages_missing']));
    await list(await book('Anglais Go for English 4e surligné', ['annotated']));

    // No text: the in-memory listing index answers; with text: SQL.
    const byCategory = (without: string) =>
      h.call('GET', `/books?category_ids=${anglais}&without_flags=${without}`).then(titles);
    const byText = (without: string) =>
      h.call('GET', `/books?query=Go%20for%20English&literal=true&without_flags=${without}`).then(titles);
    for (const search of [byCategory, byText]) {
      expect(await search('stamped,pages_missing')).toEqual([
        'Anglais Go for English 4e propre',
        'Anglais Go for English 4e surligné',
      ]);
      expect(await search('annotated,filled_in,stamped,pages_missing,cover_damaged')).toEqual([
        'Anglais Go for English 4e propre',
      ]);
      expect((await search('')).length).toBe(4);
    }
    const bad = await h.call('GET', '/books?without_flags=dirty');
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBeTruthy();
  });
});
