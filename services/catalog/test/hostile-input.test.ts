import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CatalogHarness, photo, startCatalog } from './harness.ts';

/**
 * What a client sends wrong answers a French 4xx (404 for an id no row
 * can have, 422 for an invalid field, 409 for a duplicate), on the real database.
 */
let h: CatalogHarness;
let categoryManager: string;
let cityManager: string;
let bannerManager: string;
let seller: string;
beforeAll(async () => {
  h = await startCatalog();
  categoryManager = (await h.token({ permissions: ['categories.update'] })).token;
  cityManager = (await h.token({ permissions: ['cities.manage'] })).token;
  bannerManager = (await h.token({ permissions: ['banners.manage'] })).token;
  seller = (await h.token()).token;
});
afterAll(() => h?.teardown());

/** A PNG whose header claims 20,000 × 20,000 pixels (400 million): a decompression bomb. */
async function pixelBomb() {
  const bomb = Buffer.from(await photo('png', 1, 1));
  bomb.writeUInt32BE(20_000, 16);
  bomb.writeUInt32BE(20_000, 20);
  bomb.writeUInt32BE(crc32(bomb.subarray(12, 29)) >>> 0, 29);
  return bomb;
}

async function upload(url: string, fields: Record<string, string>, files: Record<string, Buffer>, token: string) {
  const boundary = `----x${randomBytes(4).toString('hex')}`;
  const parts = [
    ...Object.entries(fields).map(([k, v]) =>
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
    ),
    ...Object.entries(files).flatMap(([k, content]) => [
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"; filename="${k}.bin"\r\n\r\n`),
      content,
      Buffer.from('\r\n'),
    ]),
    Buffer.from(`--${boundary}--\r\n`),
  ];
  const res = await h.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat(parts),
  });
  // biome-ignore lint/suspicious/noExplicitAny: JSON answer
  return { status: res.statusCode, body: res.json() as any };
}

const listing = async () => ({
  title: 'Mathématiques 3e',
  author: 'IPN',
  condition: 'bon',
  price: '3000',
  city_id: String(await h.cityId('Libreville')),
  category_ids: String(await h.categoryId('3e')),
});

describe('ids and integers past PostgreSQL’s integer', () => {
  it('answers 404 for a path id no row can have, 422 for one that is not a number', async () => {
    for (const id of ['99999999999', '2147483648', '1e308', '0', '-1']) {
      for (const url of [`/books/${id}`, `/categories/${id}`, `/banners/${id}`, `/cities/${id}`]) {
        const res = await h.call('GET', url);
        expect([url, res.status]).toEqual([url, 404]);
        expect(res.body).toEqual({ message: 'Ressource introuvable.' });
      }
    }
    const put = await h.call('PUT', '/books/99999999999/status', { status: 'vendu' }, seller);
    expect(put.status).toBe(404);
    const abc = await h.call('GET', '/books/abc');
    expect(abc.status).toBe(422);
    expect(abc.body.errors.id).toEqual(['Identifiant invalide.']);
  });

  it('answers 422 naming the field for integer queries out of range', async () => {
    for (const [query, field] of [
      ['city_id=99999999999', 'city_id'],
      ['min_price=99999999999', 'min_price'],
      ['max_price=99999999999', 'max_price'],
      ['exclude_id=99999999999', 'exclude_id'],
      ['category_id=2147483648', 'category_id'],
      ['category_ids=1,99999999999', 'category_ids.1'],
      ['page=NaN', 'page'],
      ['per_page=1e308', 'per_page'],
    ] as const) {
      for (const path of ['/books', '/books/search']) {
        const res = await h.call('GET', `${path}?${query}`);
        expect([query, res.status]).toEqual([query, 422]);
        expect(res.body.message).toBe('Les données envoyées sont invalides.');
        expect(Object.keys(res.body.errors)).toEqual([field]);
      }
    }
    const cities = await h.call('GET', '/cities?country_id=99999999999&per_page=99999999999');
    expect(cities.status).toBe(422);
    expect(Object.keys(cities.body.errors).sort()).toEqual(['country_id', 'per_page']);
  });

  it('answers 422 for ids out of range in JSON bodies and multipart fields', async () => {
    const order = await h.call(
      'PUT',
      '/admin/categories/order',
      { order: [{ id: 99999999999, order: 1 }] },
      categoryManager,
    );
    expect(order.status).toBe(422);
    expect(Object.keys(order.body.errors)).toEqual(['order.0.id']);
    const created = await h.call('POST', '/admin/categories', { name: 'Latin', order: 99999999999 }, categoryManager);
    expect(created.status).toBe(422);
    expect(created.body.errors.order).toEqual(['Ce nombre est trop grand.']);
    const city = await h.call('POST', '/admin/cities', { name: 'Mitzic', country_id: 99999999999 }, cityManager);
    expect(city.status).toBe(422);
    const book = await h.form('POST', '/books', { ...(await listing()), city_id: '99999999999' }, {}, seller);
    expect(book.status).toBe(422);
    expect(book.body.errors.city_id).toEqual(['La ville est obligatoire']);
  });
});

describe('NUL and control characters', () => {
  it('refuses them in searches, names and listings with a French 422', async () => {
    for (const url of [
      '/books?query=a%00b',
      '/books/search?query=a%00b',
      '/cities?search=a%00b',
      '/locations/cities/search?q=li%00b',
    ]) {
      const res = await h.call('GET', url);
      expect([url, res.status]).toEqual([url, 422]);
      expect(Object.values(res.body.errors).flat()).toContain(
        'Ce texte contient des caractères non autorisés (caractère nul ou de contrôle).',
      );
    }
    const category = await h.call('POST', '/admin/categories', { name: 'Lat\u0000in' }, categoryManager);
    expect(category.status).toBe(422);
    expect(Object.keys(category.body.errors)).toEqual(['name']);
    const city = await h.call('POST', '/admin/cities', { name: 'Mit\u0007zic' }, cityManager);
    expect(city.status).toBe(422);
    const book = await h.form('POST', '/books', { ...(await listing()), title: 'Maths\u00003e' }, {}, seller);
    expect(book.status).toBe(422);
    expect(Object.keys(book.body.errors)).toEqual(['title']);
    // A description keeps its line breaks.
    const lines = await h.form(
      'POST',
      '/books',
      { ...(await listing()), description: 'Bon état.\r\nCouverture abîmée.' },
      {},
      seller,
    );
    expect(lines.status).toBe(201);
    expect(lines.body.book.description).toBe('Bon état.\r\nCouverture abîmée.');
  });
});

describe('JSON nested 5,000 levels', () => {
  it('answers 400 before anything recurses into it', async () => {
    for (const payload of [
      `${'['.repeat(5000)}${']'.repeat(5000)}`,
      `{"name":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`,
    ]) {
      const res = await h.app.inject({
        method: 'POST',
        url: '/admin/categories',
        headers: { authorization: `Bearer ${categoryManager}`, 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'Le JSON envoyé est trop imbriqué (32 niveaux au plus).' });
    }
  });
});

describe('duplicates and races', () => {
  it('answers 409 when a city is renamed to a name the country already has', async () => {
    const libreville = await h.cityId('Libreville');
    const renamed = await h.call('PUT', `/admin/cities/${await h.cityId('Oyem')}`, { name: 'Libreville' }, cityManager);
    expect(renamed.status).toBe(409);
    expect(renamed.body).toEqual({
      message: 'La ville Libreville existe déjà dans ce pays.',
      errors: { name: ['La ville Libreville existe déjà dans ce pays.'] },
    });
    expect(await h.cityId('Libreville')).toBe(libreville);
  });

  it('creates twenty categories at once under one parent, each answered with itself', async () => {
    const parent = await h.categoryId('Terminale');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        h.call('POST', '/admin/categories', { name: `Option ${i}`, parent_id: parent }, categoryManager),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    expect(answers.map((a) => a.body.category.name).sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => `Option ${i}`).sort(),
    );
    const children = (await h.call('GET', `/categories/${parent}/children`)).body.categories;
    expect(children.filter((c: { name: string }) => c.name.startsWith('Option ')).length).toBe(20);
  });
});

describe('forms that are not forms', () => {
  it('answers a form without boundary or cut short with a French 400, a nameless part with 422', async () => {
    const send = (payload: string | Buffer, type: string) =>
      h.app.inject({
        method: 'POST',
        url: '/books',
        headers: { authorization: `Bearer ${seller}`, 'content-type': type },
        payload,
      });
    const form = `--b\r\nContent-Disposition: form-data; name="title"\r\n\r\nMaths 3e\r\n--b\r\nContent-Disposition: form-data; name="image1"; filename="a.jpg"\r\n\r\n${'x'.repeat(2000)}\r\n--b--\r\n`;
    for (const [payload, type] of [
      [form, 'multipart/form-data'],
      [form.slice(0, 1200), 'multipart/form-data; boundary=b'],
    ] as const) {
      const res = await send(payload, type);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'Le formulaire envoyé est mal formé ou incomplet (multipart/form-data).' });
    }
    const nameless = await send(
      '--b\r\nContent-Disposition: form-data\r\n\r\nx\r\n--b--\r\n',
      'multipart/form-data; boundary=b',
    );
    expect(nameless.statusCode).toBe(422);
    expect(nameless.json().errors.title).toBeDefined();
  });
});

describe('files that are not what they claim', () => {
  it('answers 422 for a photo over the pixel limit and for a truncated one, naming the field', async () => {
    const bomb = await upload('/books', await listing(), { image1: await pixelBomb() }, seller);
    expect(bomb.status).toBe(422);
    expect(bomb.body.errors.image1).toEqual(['Cette image est trop grande : 50 millions de pixels au plus.']);
    const jpeg = await photo('jpeg', 600, 800);
    const truncated = await upload('/books', await listing(), { image2: jpeg.subarray(0, jpeg.length / 2) }, seller);
    expect(truncated.status).toBe(422);
    expect(truncated.body.errors.image2).toEqual([
      'Cette image est illisible ou incomplète. Essayez un autre fichier.',
    ]);
    const banner = await upload('/banners', { title: 'Rentrée' }, { image: await pixelBomb() }, bannerManager);
    expect(banner.status).toBe(422);
    expect(banner.body.errors.image).toEqual(['Cette image est trop grande : 50 millions de pixels au plus.']);
  });

  it('imports a CSV with a NUL byte, rejecting that line with its reason; refuses a PNG as csv_file', async () => {
    const csv = Buffer.from(
      'name,province,is_major\nEssai Un,Ngounié,0\nEssai\u0000Deux,Ngounié,1\n"Essai Trois",Ngounié,0\n',
    );
    const imported = await upload('/admin/cities/import', { country_id: '266' }, { csv_file: csv }, cityManager);
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({
      imported: 2,
      rejected: [
        {
          line: 3,
          content: 'Essai\uFFFDDeux,Ngounié,1',
          reason: 'Caractère non autorisé (caractère nul ou de contrôle)',
        },
      ],
    });
    const png = await upload('/admin/cities/import', {}, { csv_file: await photo('png', 8, 8) }, cityManager);
    expect(png.status).toBe(422);
    expect(png.body.errors.csv_file).toEqual(["Ce fichier n'est pas un CSV : un fichier texte (UTF-8) est attendu."]);
    // A quote left open: that line is rejected with its reason, the others are imported.
    const quote = await upload(
      '/admin/cities/import',
      {},
      { csv_file: Buffer.from('Essai Quatre\n"Essai Cinq\n') },
      cityManager,
    );
    expect(quote.status).toBe(200);
    expect(quote.body).toMatchObject({
      imported: 1,
      rejected: [{ line: 2, reason: 'Guillemet ouvert mais jamais fermé' }],
    });
    const bad = await upload('/admin/cities/import', { country_id: '99999999999' }, { csv_file: csv }, cityManager);
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ country_id: ['Pays invalide'] });
  });
});
