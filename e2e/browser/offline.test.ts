import { chooseFromAccountMenu, keepScreenshot, signInContext, useBrowser } from '@cartable/stack/browser';
import { firstMessage, listBook, verifiedMember } from '@cartable/stack/members';
import { sharedStack } from '@cartable/stack/shared-stack';
import { call, eventually, type TestStack } from '@cartable/stack/test-stack';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * A phone without signal, in Chromium at 360 px: the installable app's service worker keeps the
 * pages a member opened, which stay readable offline (marked « Hors ligne, vu … »), a page never
 * opened says it needs a connection, a message, a favourite and a book ticked on « Ma liste »
 * written offline wait on the phone (one cancelled) and are applied once when the network returns, a repeat visit takes the app's
 * files from the phone, and the member's data leaves the phone when they log out.
 */
let stack: TestStack;
const browser = useBrowser();
type Member = Awaited<ReturnType<typeof verifiedMember>>;
let seller: Member;
let buyer: Member;
let bookId = 0;
/** The seeded 6e list, saved by the parent for Libreville, and the town and level it is opened with. */
let list = { id: 0, level: 0, town: 0, firstItem: { id: 0, title: '' } };
const TITLE = 'Physique-Chimie 2nde hors ligne';
const SENT_OFFLINE = 'Je passe samedi matin à Mont-Bouët.';
const CANCELLED = 'Message écrit puis annulé';
const SCREENSHOTS = process.env.OFFLINE_SCREENSHOTS ?? '/tmp/offline';

beforeAll(async () => {
  stack = sharedStack();
  // Signed in as a login leaves the browser: the token and the user the login answered.
  [seller, buyer] = await Promise.all([verifiedMember(stack, 'vendeur-hl'), verifiedMember(stack, 'parent-hl')]);
  bookId = await eventually(async () => listBook(stack, seller.token, TITLE).catch(() => undefined));
  const sent = await eventually(async () => {
    const res = await firstMessage(stack, buyer.token, {
      receiver_id: seller.id,
      book_id: bookId,
      content: 'Bonjour, le manuel est-il encore disponible ?',
    });
    return res.status === 201 ? res : undefined;
  });
  expect(sent.status).toBe(201);

  // « Ma liste »: the parent saved the 6e list in Libreville, nothing ticked yet.
  const town = (await call(`${stack.api}/locations/cities/search?q=libreville`)).body.cities[0].id as number;
  const tree = (await call(`${stack.api}/categories/hierarchy`)).body.categories as Array<{
    name: string;
    children?: Array<{ id: number; name: string }>;
  }>;
  const level = tree.find((c) => c.name === 'Collège')?.children?.find((c) => c.name === '6e')?.id ?? 0;
  const lists = await eventually(async () => {
    const answer = await call(`${stack.api}/class-lists?level_id=${level}`);
    return answer.status === 200 && answer.body.data.length > 0 ? answer.body.data : undefined;
  }, 30_000);
  const official = lists.find((l: { kind: string }) => l.kind === 'official');
  const detail = await call(`${stack.api}/class-lists/${official.id}`);
  const saved = await call(`${stack.api}/my-class-lists/${official.id}`, {
    method: 'PUT',
    token: buyer.token,
    body: { city_id: town, owned_item_ids: [] },
  });
  expect(saved.status).toBeLessThan(300);
  list = { id: official.id, level, town, firstItem: detail.body.list.items[0] };
}, 240_000);

/** The page's globals this file reads (it is compiled without the DOM's types; in the page, globalThis is window). */
interface PageGlobals {
  navigator: { serviceWorker?: { controller: unknown } };
  caches: { open(name: string): Promise<{ keys(): Promise<Array<{ url: string }>> }> };
}

/** The service worker controls the page (it takes the first page at once once installed). */
const controlled = (page: Page) =>
  page.waitForFunction(() => (globalThis as unknown as PageGlobals).navigator.serviceWorker?.controller != null, null, {
    timeout: 30_000,
  });

/** The URLs kept in one of the phone's caches. */
const cachedUrls = (page: Page, name: string) =>
  page.evaluate(
    async (cacheName) =>
      (await (await (globalThis as unknown as PageGlobals).caches.open(cacheName)).keys()).map((r) => r.url),
    name,
  );

async function phone(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser().newContext({ viewport: { width: 360, height: 740 }, locale: 'fr-FR' });
  await signInContext(context, buyer);
  return { context, page: await context.newPage() };
}

describe('a phone without signal', () => {
  it('is an installable app whose service worker takes the page', async () => {
    const { page } = await phone();
    const base = stack.url('gateway');
    await page.goto(`${base}/`);
    await controlled(page);
    const cdp = await page.context().newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: Array<{ errorId: string }>;
    };
    // A test browser's contexts are private windows, where Chromium never offers to install.
    expect(installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito')).toEqual([]);
    const manifest = await (await fetch(`${base}/manifest.webmanifest`)).json();
    expect(manifest).toMatchObject({ short_name: 'Cartable', lang: 'fr', display: 'standalone', start_url: '/' });
    const worker = await fetch(`${base}/sw.js`);
    expect(worker.headers.get('cache-control')).toBe('no-cache');
  });

  it('reads offline the pages opened, says which were never opened, and forgets the member at logout', async () => {
    const { context, page } = await phone();
    const base = stack.url('gateway');
    await page.goto(`${base}/`);
    await controlled(page);

    // Online: the catalogue, the book, the conversations and the thread, as a parent reads them.
    await page.goto(`${base}/books`);
    await page.locator('article a[href^="/books/"]').first().waitFor();
    await page.goto(`${base}/books/${bookId}`);
    await expect(page.getByRole('heading', { level: 1, name: TITLE }).waitFor()).resolves.toBeUndefined();
    await page.goto(`${base}/messages`);
    await page.getByText(TITLE).first().waitFor();
    await page.goto(`${base}/messages/${bookId}/${seller.id}`);
    await page.getByText('Bonjour, le manuel est-il encore disponible ?').waitFor();
    const myList = `${base}/ma-liste?level=${list.level}&city=${list.town}`;
    await page.goto(myList);
    await page.getByTestId('list-saved').waitFor({ timeout: 15_000 });

    // A repeat visit: the app's files come from the phone, only the page and its data travel.
    const travelled: Array<{ url: string; bytes: number }> = [];
    const onResponse = async (response: import('playwright-core').Response) => {
      if (response.fromServiceWorker()) return;
      const sizes = await response
        .request()
        .sizes()
        .catch(() => null);
      if (sizes) travelled.push({ url: response.url(), bytes: sizes.responseBodySize + sizes.responseHeadersSize });
    };
    context.on('response', onResponse);
    await page.goto(`${base}/books`);
    await page.getByRole('heading', { level: 1, name: 'Manuels scolaires' }).waitFor();
    // The live messages' stream stays open: the page is read once its first cards are drawn.
    await page.locator('article a[href^="/books/"]').first().waitFor();
    await page.waitForLoadState('load');
    context.off('response', onResponse);
    const api = travelled.filter((r) => new URL(r.url).pathname.startsWith('/api/'));
    const app = travelled.filter((r) => !new URL(r.url).pathname.startsWith('/api/'));
    const kib = (rows: typeof travelled) => (rows.reduce((sum, r) => sum + r.bytes, 0) / 1024).toFixed(1);
    console.log(
      `repeat visit of /books at 360 px: ${kib(app)} KiB before the page's data (${app.length} requests: ${app
        .map((r) => new URL(r.url).pathname)
        .join(', ')}), ${kib(api)} KiB of data (${api.length} reads)`,
    );
    // No script of the shell or of the catalogue travelled again.
    expect(app.filter((r) => /\.[0-9a-f]{8}\.js$/.test(r.url))).toEqual([]);

    await context.setOffline(true);
    try {
      await page.goto(`${base}/books/${bookId}`);
      await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
      const banner = page.getByRole('status').filter({ hasText: 'Hors ligne' });
      await expect(banner.textContent()).resolves.toMatch(/Hors ligne · vu (à l’instant|il y a \d+ minutes?)/);
      await keepScreenshot(page, { path: `${SCREENSHOTS}/offline-book-360.png`, fullPage: false });

      await page.goto(`${base}/messages/${bookId}/${seller.id}`);
      await page.getByText('Bonjour, le manuel est-il encore disponible ?').waitFor();

      // Writes made offline wait on the phone, listed, each of them can be cancelled.
      const composer = page.getByLabel('Votre message');
      await composer.fill(SENT_OFFLINE);
      await composer.press('Enter');
      const waiting = page.getByTestId('pending-writes');
      await waiting
        .getByText(`Message : « ${SENT_OFFLINE} »`)
        .waitFor()
        .catch(async (error) => {
          await keepScreenshot(page, { path: `${SCREENSHOTS}/offline-write-failed.png`, fullPage: true });
          throw error;
        });
      await composer.fill(CANCELLED);
      await composer.press('Enter');
      await waiting.getByText(`Message : « ${CANCELLED} »`).waitFor();
      await waiting
        .getByRole('listitem')
        .filter({ hasText: CANCELLED })
        .getByRole('button', { name: 'Annuler' })
        .click();
      await waiting.getByText(`Message : « ${CANCELLED} »`).waitFor({ state: 'detached' });
      await page.goto(`${base}/books/${bookId}`);
      await page
        .getByRole('button', { name: `Ajouter « ${TITLE} » aux favoris` })
        .first()
        .click();
      await waiting.getByText('Ajout aux favoris').waitFor();
      // « Ma liste » as last seen, and a book ticked as already obtained.
      await page.goto(myList);
      const first = page.getByTestId('list-item').filter({ hasText: list.firstItem.title }).first();
      await first.getByRole('button', { name: /Déjà obtenu/ }).click();
      await waiting.getByText('Manuels cochés de « Ma liste »').waitFor();
      await expect(waiting.getByRole('listitem').count()).resolves.toBe(3);
      await keepScreenshot(page, { path: `${SCREENSHOTS}/offline-waiting-360.png`, fullPage: false });

      // Never opened on this phone: said plainly.
      await page.goto(`${base}/transactions`);
      await page
        .getByText(/[Cc]ette page n’a pas encore été ouverte sur ce téléphone/)
        .first()
        .waitFor()
        .catch(async (error) => {
          await keepScreenshot(page, { path: `${SCREENSHOTS}/offline-never-opened-failed.png`, fullPage: true });
          throw error;
        });
      await keepScreenshot(page, { path: `${SCREENSHOTS}/offline-never-opened-360.png`, fullPage: false });
    } finally {
      await context.setOffline(false);
    }

    // Back online: what waited is sent once, what was cancelled never.
    await page.getByTestId('pending-writes').waitFor({ state: 'detached', timeout: 30_000 });
    const thread = await eventually(async () => {
      const res = await call(`${stack.api}/messages/conversation/${bookId}/${seller.id}`, { token: buyer.token });
      const contents = ((res.body.data ?? []) as Array<{ content: string }>).map((m) => m.content);
      return contents.includes(SENT_OFFLINE) ? contents : undefined;
    });
    expect(thread.filter((content) => content === SENT_OFFLINE)).toHaveLength(1);
    expect(thread).not.toContain(CANCELLED);
    const favourites = await call(`${stack.api}/favourites?per_page=1`, { token: buyer.token });
    expect((favourites.body.ids as number[]).map(Number)).toContain(bookId);
    const mine = await call(`${stack.api}/my-class-lists`, { token: buyer.token });
    const savedList = (mine.body.data as Array<{ list: { id: number }; owned_item_ids: number[] }>).find(
      (l) => l.list.id === list.id,
    );
    expect(savedList?.owned_item_ids).toEqual([list.firstItem.id]);

    expect(
      (await cachedUrls(page, 'cartable-api')).some((url) => new URL(url).pathname.startsWith('/api/messages')),
    ).toBe(true);
    await page.goto(`${base}/dashboard`);
    await chooseFromAccountMenu(page, 'Déconnexion');
    await page.waitForURL('**/login**');
    await eventually(async () => {
      const kept = await cachedUrls(page, 'cartable-api');
      const private_ = kept.filter((url) =>
        /^\/api\/(?:messages|user|transactions)(?:\/|$)/.test(new URL(url).pathname),
      );
      return private_.length === 0 ? true : undefined;
    }, 10_000);
  });
});
