import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { banners } from '../src/db/schema.ts';
import { type CatalogHarness, startCatalog } from './harness.ts';

/** A banner's button never leads to another site by a trick, nor runs a script. */
let h: CatalogHarness;
let bannerManager: string;
beforeAll(async () => {
  h = await startCatalog();
  bannerManager = (await h.token({ permissions: ['banners.manage'] })).token;
});
afterAll(() => h?.teardown());

async function bannerWith(link: string) {
  const boundary = `----x${randomBytes(4).toString('hex')}`;
  const fields = { title: 'Rentrée scolaire', button_text: 'Voir', button_link: link };
  const payload = `${Object.entries(fields)
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('')}--${boundary}--\r\n`;
  const res = await h.app.inject({
    method: 'POST',
    url: '/banners',
    headers: { authorization: `Bearer ${bannerManager}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  // biome-ignore lint/suspicious/noExplicitAny: JSON answer
  return { status: res.statusCode, body: res.json() as any };
}

describe('banner links', () => {
  it('keeps pages of the site and https links, refuses what a browser would take elsewhere', async () => {
    for (const link of ['/books?category_id=3', '/contact', 'https://www.education.gouv.ga/rentree']) {
      const res = await bannerWith(link);
      expect([link, res.status]).toEqual([link, 201]);
      expect(res.body.banner.button_link).toBe(link);
    }
    for (const link of ['//evil.example', '/\\evil.example', '//evil.example/books']) {
      const res = await bannerWith(link);
      expect([link, res.status]).toEqual([link, 422]);
      expect(res.body.errors.button_link).toEqual([
        'Un lien commençant par // mène vers un autre site : écrivez https://… pour un lien externe, ou /… pour une page du site.',
      ]);
    }
    for (const link of [
      'javascript:alert(1)',
      'JavaScript:alert(document.cookie)',
      'http://evil.example',
      'data:text/html,<script>alert(1)</script>',
      'https:evil.example',
      'https:/\\evil.example',
      'books',
      '/books\\..\\evil',
      ' javascript:alert(1)',
    ]) {
      const res = await bannerWith(link);
      expect([link, res.status]).toEqual([link, 422]);
      expect(res.body.errors.button_link).toEqual(['Lien interne (/books…) ou https:// attendu']);
    }
  });

  it('never answers a javascript: link stored before links were checked', async () => {
    const [row] = await h.db
      .insert(banners)
      .values({ title: 'Ancienne', buttonText: 'Clic', buttonLink: 'javascript:alert(1)', isActive: true })
      .returning();
    const active = (await h.call('GET', '/banners/active')).body.banners;
    expect(active.find((b: { id: number }) => b.id === row!.id).button_link).toBeNull();
    expect((await h.call('GET', `/banners/${row!.id}`)).body.banner.button_link).toBeNull();
  });
});
