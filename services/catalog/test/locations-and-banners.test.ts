import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CatalogHarness, photo, startCatalog } from './harness.ts';

let h: CatalogHarness;
let cityManager: string;
let bannerManager: string;
beforeAll(async () => {
  h = await startCatalog();
  cityManager = (await h.token({ permissions: ['cities.manage'] })).token;
  bannerManager = (await h.token({ permissions: ['banners.manage'] })).token;
});
afterAll(() => h?.teardown());

/** A multipart body with one file and text fields, for routes the harness's form() does not name. */
async function upload(
  url: string,
  file: { field: string; name: string; content: Buffer },
  fields: Record<string, string>,
  token: string,
) {
  const boundary = `----x${randomBytes(4).toString('hex')}`;
  const text = Object.entries(fields)
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('');
  const payload = Buffer.concat([
    Buffer.from(
      `${text}--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\n\r\n`,
    ),
    file.content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await h.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  // biome-ignore lint/suspicious/noExplicitAny: JSON answer
  return { status: res.statusCode, body: res.json() as any };
}

describe('locations', () => {
  it('searches towns from 2 characters, ignoring accents', async () => {
    const found = await h.call('GET', '/locations/cities/search?q=lambarene');
    expect(found.body.cities).toEqual([expect.objectContaining({ name: 'Lambaréné', province: 'Moyen-Ogooué' })]);
    const short = await h.call('GET', '/locations/cities/search?q=l');
    expect(short.status).toBe(422);
    expect(short.body.errors.q).toEqual(['La recherche doit contenir au moins 2 caractères']);
  });

  it('pages /cities with country code, province and search filters, and gives details', async () => {
    const page = await h.call('GET', '/cities?code=ga&per_page=5&page=2');
    expect(page.body).toMatchObject({ per_page: 5, current_page: 2 });
    expect(page.body.total).toBeGreaterThan(30);
    const estuaire = await h.call('GET', '/cities?country_id=266&province=estuaire');
    expect(estuaire.body.data.map((c: { name: string }) => c.name)).toContain('Libreville');
    const details = await h.call('GET', `/locations/cities/${await h.cityId('Oyem')}/details`);
    expect(details.body.city).toMatchObject({
      name: 'Oyem',
      province: 'Woleu-Ntem',
      country: { nom_fr_fr: 'Gabon', alpha2: 'GA' },
    });
    expect((await h.call('GET', '/cities/999999')).status).toBe(404);
  });

  it('lets cities.manage holders create, rename and delete towns, refusing duplicates', async () => {
    expect((await h.call('POST', '/admin/cities', { name: 'Nkok' }, (await h.token()).token)).status).toBe(403);
    const created = await h.call(
      'POST',
      '/admin/cities',
      { name: 'Nkok', province: 'Estuaire', is_major: false },
      cityManager,
    );
    expect(created.status).toBe(201);
    expect(created.body.city).toMatchObject({ name: 'Nkok', province: 'Estuaire', country_id: 266 });
    expect((await h.call('POST', '/admin/cities', { name: 'Nkok' }, cityManager)).status).toBe(409);
    const renamed = await h.call(
      'PUT',
      `/admin/cities/${created.body.city.id}`,
      { name: 'Nkok (zone économique)', province: 'Estuaire' },
      cityManager,
    );
    expect(renamed.body.city.name).toBe('Nkok (zone économique)');
    expect((await h.call('DELETE', `/admin/cities/${created.body.city.id}`, undefined, cityManager)).status).toBe(200);
  });

  it('imports a CSV, counting imported lines and saying why each rejected one was rejected', async () => {
    const csv = [
      'name;province;is_major',
      'Lékoni;Haut-Ogooué;non',
      'Libreville;Estuaire;oui',
      ';Estuaire;',
      'Mitzic;Woleu-Ntem;',
      'Lékoni;Haut-Ogooué;',
    ].join('\n');
    const res = await upload(
      '/admin/cities/import',
      { field: 'csv_file', name: 'villes.csv', content: Buffer.from(csv) },
      { country_id: '266' },
      cityManager,
    );
    expect(res.status).toBe(200);
    expect(res.body.imported).toBe(1);
    expect({
      imported: res.body.imported,
      rejected: res.body.rejected.map(({ line, reason }: { line: number; reason: string }) => ({ line, reason })),
    }).toEqual({
      imported: 1,
      rejected: [
        { line: 3, reason: 'Libreville existe déjà' },
        { line: 4, reason: 'Nom de ville manquant ou trop court' },
        { line: 5, reason: 'Mitzic existe déjà' },
        { line: 6, reason: 'Lékoni apparaît deux fois dans le fichier' },
      ],
    });
    const missing = await upload(
      '/admin/cities/import',
      { field: 'other', name: 'x.csv', content: Buffer.from('a') },
      {},
      cityManager,
    );
    expect(missing.status).toBe(422);
  });
});

describe('banners', () => {
  it('creates banners with an image, lists the active ones in order, reorders and deletes', async () => {
    const member = (await h.token()).token;
    const form = {
      title: 'La rentrée approche',
      subtitle: 'Trouvez vos manuels',
      button_text: 'Voir',
      button_link: '/books',
      color: 'dark',
      order: '2',
    };
    expect(
      (await upload('/banners', { field: 'image', name: 'b.jpg', content: await photo() }, form, member)).status,
    ).toBe(403);
    const first = await upload(
      '/banners',
      { field: 'image', name: 'b.jpg', content: await photo('jpeg', 2400, 800) },
      form,
      bannerManager,
    );
    expect(first.status).toBe(201);
    expect(first.body.banner.image_url).toMatch(/^\/storage\/banners\/.+\.webp$/);
    const second = await upload(
      '/banners',
      { field: 'image', name: 'c.png', content: await photo('png') },
      { ...form, title: 'Vendez vos livres', order: '1' },
      bannerManager,
    );
    const hidden = await upload(
      '/banners',
      { field: 'image', name: 'd.png', content: await photo('png') },
      { ...form, title: 'Brouillon', is_active: 'false' },
      bannerManager,
    );
    expect(hidden.body.banner.is_active).toBe(false);
    // A draft is the back office's: a visitor or a member is told it does not exist.
    const draft = `/banners/${hidden.body.banner.id}`;
    expect((await h.call('GET', draft)).status).toBe(404);
    const asMember = await h.call('GET', draft, undefined, member);
    expect(asMember.status).toBe(404);
    expect(asMember.body.message).toBe('Bannière introuvable.');
    expect((await h.call('GET', draft, undefined, bannerManager)).body.banner.title).toBe('Brouillon');
    expect((await h.call('GET', `/banners/${first.body.banner.id}`)).body.banner.title).toBe('La rentrée approche');

    const active = await h.call('GET', '/banners/active');
    expect(active.body.banners.map((b: { title: string }) => b.title)).toEqual([
      'Vendez vos livres',
      'La rentrée approche',
    ]);
    await h.call(
      'POST',
      '/banners/reorder',
      {
        banners: [
          { id: first.body.banner.id, order: 0 },
          { id: second.body.banner.id, order: 5 },
        ],
      },
      bannerManager,
    );
    expect((await h.call('GET', '/banners/active')).body.banners[0].title).toBe('La rentrée approche');

    const bad = await upload(
      '/banners',
      { field: 'image', name: 'x.png', content: Buffer.from('nope') },
      { title: '', button_link: 'javascript:alert(1)' },
      bannerManager,
    );
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['button_link', 'image', 'title']);
    expect((await h.call('DELETE', `/banners/${hidden.body.banner.id}`, undefined, bannerManager)).status).toBe(200);
    expect((await h.call('GET', `/banners/${hidden.body.banner.id}`)).status).toBe(404);
  });
});
