import { logInThroughForm, useBrowser } from '@cartable/stack/browser';
import { sharedStack } from '@cartable/stack/shared-stack';
import { call, type TestStack } from '@cartable/stack/test-stack';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * Search that finds what parents type, on a phone (360 px): « maths 6e » suggests
 * Mathématiques · 6e with the typed part marked, picking it by keyboard shows the 6e maths books
 * with what was understood; the home page's quick search picks a level.
 */
let stack: TestStack;
const browser = useBrowser();
let token: string;

interface Category {
  id: number;
  name: string;
  children?: Category[];
}

const ids = { sixieme: 0, cinquieme: 0, maths: 0, francais: 0, libreville: 0 };
let francaisBook: number;

async function createBook(fields: Record<string, string>): Promise<number> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  const res = await fetch(`${stack.api}/books`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const body = (await res.json()) as { book?: { id: number } };
  if (res.status !== 201 || !body.book) throw new Error(`POST /books ${res.status}: ${JSON.stringify(body)}`);
  return body.book.id;
}

beforeAll(async () => {
  stack = sharedStack();
  const login = await call(`${stack.api}/login`, {
    body: { email: 'admin@cartable.ga', password: 'Cartable2026!' },
  });
  token = login.body.access_token;
  const roots = (await call(`${stack.api}/categories/hierarchy`)).body.categories as Category[];
  const college = roots.find((c) => c.name === 'Collège');
  const sixieme = college?.children?.find((c) => c.name === '6e');
  const cinquieme = college?.children?.find((c) => c.name === '5e');
  ids.sixieme = sixieme?.id ?? 0;
  ids.cinquieme = cinquieme?.id ?? 0;
  ids.maths = sixieme?.children?.find((c) => c.name === 'Mathématiques')?.id ?? 0;
  ids.francais = sixieme?.children?.find((c) => c.name === 'Français')?.id ?? 0;
  const cities = await call(`${stack.api}/locations/cities?country_id=266`);
  ids.libreville = (cities.body.cities as Array<{ id: number; name: string }>).find((c) => c.name === 'Libreville')!.id;
  const common = { condition: 'bon', city_id: String(ids.libreville), author: 'Collectif IPN' };
  await createBook({
    ...common,
    title: 'Mathématiques 6e – Collection Excellence',
    price: '4500',
    category_ids: `${ids.sixieme},${ids.maths}`,
  });
  await createBook({
    ...common,
    title: 'Mathématiques 5e – CIAM',
    price: '5000',
    category_ids: `${ids.cinquieme},${ids.maths}`,
  });
  francaisBook = await createBook({
    ...common,
    title: 'Français 6e – Le Livre Unique',
    price: '3000',
    category_ids: `${ids.sixieme},${ids.francais}`,
  });
});

async function phone(): Promise<Page> {
  const context = await browser().newContext({
    viewport: { width: 360, height: 740 },
    locale: 'fr-FR',
    hasTouch: true,
  });
  return context.newPage();
}

const results = (page: Page) => page.getByRole('region', { name: /trouvés?$/ });

describe('search that finds what parents type', () => {
  it('suggests Mathématiques · 6e for « maths 6e », marked, and shows the 6e maths books', async () => {
    const page = await phone();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${stack.url('gateway')}/books`);
    const box = page.getByRole('combobox', { name: /Rechercher un manuel/ });
    await box.click();
    await box.pressSequentially('maths 6e', { delay: 40 });

    const list = page.getByRole('listbox', { name: 'Suggestions' });
    const option = list.getByRole('option', { name: /Mathématiques · 6e/ });
    await option.waitFor();
    expect(await option.locator('mark').allTextContents()).toEqual(['Math', '6e']);
    expect(await box.getAttribute('aria-expanded')).toBe('true');
    // The list fits the phone's width.
    const bounds = await list.boundingBox();
    expect(bounds && bounds.x >= 0 && bounds.x + bounds.width <= 360).toBe(true);

    // Keyboard: ↓ makes the first suggestion active, Entrée picks it.
    await box.press('ArrowDown');
    const activeId = await box.getAttribute('aria-activedescendant');
    expect(activeId).toBeTruthy();
    expect(await page.locator(`[id="${activeId}"]`).getAttribute('aria-selected')).toBe('true');
    await box.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('query') === 'Mathématiques 6e');
    // The demo catalogue may hold a copy of the same title: any of them will do.
    await results(page).getByRole('link', { name: 'Mathématiques 6e – Collection Excellence' }).first().waitFor();
    await page.getByText('Résultats pour').waitFor();
    expect(await page.getByTestId('understood').textContent()).toContain('Mathématiques · 6e');
    expect(await results(page).getByRole('link', { name: 'Mathématiques 5e – CIAM' }).count()).toBe(0);
    expect(await results(page).getByRole('link', { name: 'Français 6e – Le Livre Unique' }).count()).toBe(0);
    expect(await list.isHidden()).toBe(true);

    // Escape closes the list; the literal text is one click away.
    await box.fill('maths 6');
    await list.getByRole('option').first().waitFor();
    await box.press('Escape');
    expect(await list.isHidden()).toBe(true);
    // With the list closed, Entrée submits the text.
    await box.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('query') === 'maths 6');
    await page.getByRole('button', { name: 'Chercher plutôt « maths 6 » tel quel' }).click();
    await page.waitForURL((url) => url.searchParams.get('literal') === 'true');
    await page.getByText('Recherche exacte de').waitFor();

    expect(errors).toEqual([]);
  });

  it('proposes « Vouliez-vous dire … » when nothing matches', async () => {
    const page = await phone();
    await page.goto(`${stack.url('gateway')}/books?query=${encodeURIComponent('mathematik franse')}`);
    const link = page.getByRole('link', { name: /math/i }).filter({ hasText: /fran/i });
    await page.getByText('Vouliez-vous dire').waitFor();
    await link.click();
    await results(page).getByRole('link', { name: /6e/ }).first().waitFor();
  });

  it('picks a level, not only a cycle, in the home quick search', async () => {
    const page = await phone();
    await page.goto(stack.url('gateway'));
    await page.getByLabel('Classe').selectOption({ label: '6e' });
    await page.getByRole('button', { name: 'Rechercher', exact: true }).click();
    await page.waitForURL(
      (url) => url.pathname === '/books' && url.searchParams.get('category_ids') === String(ids.sixieme),
    );
    await results(page).getByRole('link', { name: 'Français 6e – Le Livre Unique' }).first().waitFor();
    expect(await results(page).getByRole('link', { name: 'Mathématiques 5e – CIAM' }).count()).toBe(0);
  });

  it('asks for the first page of /books once, beside the scripts, for a visitor and a member alike', async () => {
    // The gateway preloads it from the HTML (as="fetch"); the page's own fetch, with its Accept
    // and, for a member, Authorization headers, must get that answer rather than ask again.
    const firstPage = (url: string) => url.includes('/api/books?') && url.includes('per_page=12');
    for (const member of [false, true]) {
      const page = await phone();
      if (member) await logInThroughForm(page, stack.url('gateway'), 'admin@cartable.ga', 'Cartable2026!');
      const asked: string[] = [];
      page.on('request', (request) => {
        if (firstPage(request.url())) asked.push(request.url());
      });
      await page.goto(`${stack.url('gateway')}/books`);
      await results(page).getByRole('link', { name: 'Français 6e – Le Livre Unique' }).first().waitFor();
      // Preloaded by the HTML, and not asked for a second time by the page.
      const preload = await page.locator('link[rel="preload"][as="fetch"][href^="/api/"]').getAttribute('href');
      expect(asked.map((url) => new URL(url).pathname + new URL(url).search)).toEqual([preload]);
      await page.context().close();
    }
  });

  it('asks for a book page once, beside the scripts, as a visitor sees it; a member asks for their own only', async () => {
    // The HTML preloads the visitor's page at an address only a visitor's page reads; for a
    // browser holding a session (here the owner of a listing the moderation hid, which a visitor
    // cannot open) it preloads nothing, and the member's page asks for its own once.
    const hidden = await createBook({
      title: 'Mathématiques 6e – annonce masquée',
      author: 'Collectif IPN',
      condition: 'bon',
      city_id: String(ids.libreville),
      price: '2500',
      category_ids: `${ids.sixieme},${ids.maths}`,
    });
    const hide = await call(`${stack.api}/admin/books/${hidden}/hide`, { token, body: { reason: 'Photos reprises' } });
    expect(hide.status).toBe(200);
    for (const [member, id, title] of [
      [false, francaisBook, 'Français 6e – Le Livre Unique'],
      [true, hidden, 'Mathématiques 6e – annonce masquée'],
    ] as const) {
      const page = await phone();
      if (member) await logInThroughForm(page, stack.url('gateway'), 'admin@cartable.ga', 'Cartable2026!');
      const asked: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (/^\/api\/books\/\d+$/.test(url.pathname)) asked.push(url.pathname + url.search);
      });
      await page.goto(`${stack.url('gateway')}/books/${id}`);
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      const preloads = page.locator('link[rel="preload"][as="fetch"][href^="/api/"]');
      if (member) {
        expect(await preloads.count()).toBe(0);
        expect(asked).toEqual([`/api/books/${id}`]);
      } else {
        const preload = await preloads.getAttribute('href');
        expect(preload).toBe(`/api/books/${id}?as=visitor`);
        expect(asked).toEqual([preload]);
      }
      await page.context().close();
    }
  });
});
