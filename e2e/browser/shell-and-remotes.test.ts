import { chooseFromAccountMenu, useBrowser } from '@cartable/stack/browser';
import { listBook, verifiedMember } from '@cartable/stack/members';
import { sharedStack } from '@cartable/stack/shared-stack';
import type { TestStack } from '@cartable/stack/test-stack';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';

/** The shell, its two remotes loaded at run time, the guards and the not-found page, in Chromium. */
let stack: TestStack;
const browser = useBrowser();

beforeAll(async () => {
  stack = sharedStack();
});

async function newPage(width = 1280): Promise<Page> {
  const context = await browser().newContext({
    viewport: { width, height: 800 },
    locale: 'fr-FR',
    // page.route sees only what the page fetches itself, not what a service worker fetches for it.
    serviceWorkers: 'block',
  });
  return context.newPage();
}

/**
 * A phone's page that counts the animation frames and notes the frame in which each watched text
 * enters the document: two texts in one frame were rendered in one commit, before any paint.
 */
async function watchingEntries(texts: string[]) {
  const context = await browser().newContext({ viewport: { width: 360, height: 740 }, locale: 'fr-FR' });
  const page = await context.newPage();
  await page.addInitScript(`(() => {
    let frame = 0;
    const tick = () => { frame++; requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
    const seen = (window.__entered = {});
    const watched = ${JSON.stringify(texts)};
    new MutationObserver(() => {
      const text = document.body ? document.body.textContent : '';
      for (const w of watched) if (!(w in seen) && text.includes(w)) seen[w] = frame;
    }).observe(document, { childList: true, subtree: true, characterData: true });
  })()`);
  return { page, entered: () => page.evaluate('window.__entered') as Promise<Record<string, number>> };
}

describe('shell and remotes', () => {
  it('shows the French header and the catalog remote home with Gabon’s towns from the API', async () => {
    const page = await newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(stack.url('gateway'));
    const nav = page.getByRole('navigation', { name: 'Navigation principale' });
    for (const label of ['Manuels', 'Abonnement', 'À propos', 'Contact']) {
      await expect.poll(() => nav.getByRole('link', { name: label }).count()).toBe(1);
    }
    await expect.poll(() => page.getByRole('link', { name: 'Connexion' }).first().isVisible()).toBe(true);
    // The home page is the catalog remote, rendering towns the catalog service seeded.
    await page.getByRole('heading', { name: 'Villes du Gabon' }).waitFor();
    // Scoped to the section: the home's quick search also lists the towns in a select.
    const towns = page.getByRole('region', { name: 'Villes du Gabon' });
    await towns.getByText('Libreville').first().waitFor();
    await towns.getByText('Port-Gentil').first().waitFor();
    expect(errors).toEqual([]);
  });

  it('paints the first screen of home on a phone before rendering its lower sections', async () => {
    const { page, entered } = await watchingEntries([
      "Manuels scolaires d'occasion au Gabon",
      'Comment ça marche ?',
      'Villes du Gabon',
    ]);
    await page.goto(stack.url('gateway'));
    await page.getByRole('heading', { name: 'Villes du Gabon' }).waitFor();
    await page.getByRole('heading', { name: 'Comment ça marche ?' }).waitFor();
    const frames = await entered();
    const first = frames["Manuels scolaires d'occasion au Gabon"] ?? Number.NaN;
    expect(frames['Comment ça marche ?']).toBeGreaterThan(first);
    expect(frames['Villes du Gabon']).toBeGreaterThan(first);
    await page.context().close();
  });

  it('paints the first cards of /books on a phone before rendering the others', async () => {
    const seller = await verifiedMember(stack, `cards${Date.now().toString(36)}`);
    const titles = ['Annales de SVT Tle D', 'Annales de philosophie Tle', 'Annales d’anglais 3e'];
    for (const title of [...titles].reverse()) await listBook(stack, seller.token, title);
    for (let i = 0; i < 3; i++) await listBook(stack, seller.token, `Cahier d’exercices ${i + 1}`);
    // Newest first: the three « Cahier » cards, then the three « Annales »; the fifth card waits.
    const { page, entered } = await watchingEntries(['Cahier d’exercices 3', titles[1] as string]);
    await page.goto(`${stack.url('gateway')}/books`);
    await page.getByRole('link', { name: titles[2] }).waitFor();
    const frames = await entered();
    expect(frames[titles[1] as string]).toBeGreaterThan(frames['Cahier d’exercices 3'] ?? Number.NaN);
    await page.context().close();
  });

  it('keeps the compressed JavaScript of a phone’s first visit within the budget of each public page', async () => {
    // 200 KiB for home, 220 KiB for the catalogue and a book page (shell with the federation
    // runtime, remote entry, shared chunks), as the gateway sends them (brotli). The public forms
    // keep home's budget: their checks (the contracts, with zod) load when the form is first
    // touched (frontends/shell/src/shared/forms.ts, lazyChecks), not with the page.
    const seller = await verifiedMember(stack, `budget${Date.now().toString(36)}`);
    const book = await listBook(stack, seller.token, 'Mathématiques 6e – Collection Excellence');
    const budgets = [
      ['/', 200],
      ['/books', 220],
      [`/books/${book}`, 220],
      ['/login', 200],
      ['/register', 200],
      ['/forgot-password', 200],
      ['/contact', 200],
    ] as const;
    for (const [path, budget] of budgets) {
      const context = await browser().newContext({ viewport: { width: 360, height: 740 }, locale: 'fr-FR' });
      const page = await context.newPage();
      const scripts: Array<Promise<number>> = [];
      page.on('requestfinished', (request) => {
        if (request.resourceType() === 'script') scripts.push(request.sizes().then((s) => s.responseBodySize));
      });
      await page.goto(`${stack.url('gateway')}${path}`, { waitUntil: 'networkidle' });
      const kib = (await Promise.all(scripts)).reduce((sum, size) => sum + size, 0) / 1024;
      expect(kib, `${path}: ${kib.toFixed(1)} KiB`).toBeLessThanOrEqual(budget);
      await context.close();
    }
  });

  it('logs the admin in, opens the admin remote from the account menu, and logs out', async () => {
    const page = await newPage();
    await page.goto(`${stack.url('gateway')}/login`);
    await page.getByLabel('Adresse email').fill('admin@cartable.ga');
    await page.getByLabel('Mot de passe', { exact: true }).fill('Cartable2026!');
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.waitForURL('**/dashboard');

    await chooseFromAccountMenu(page, 'Administration');
    await page.waitForURL('**/admin/dashboard');
    for (const entry of ['Gestion des livres', 'Gestion des villes', 'Modération des commentaires', 'Bannières']) {
      await page.getByRole('link', { name: entry }).first().waitFor();
    }

    // The dashboard's figures come from the services (the admin is a member).
    await page.getByTestId('stat-members').waitFor();

    await page.getByRole('link', { name: 'Retour au site' }).click();
    await chooseFromAccountMenu(page, 'Déconnexion');
    await page.waitForURL('**/login');
    // A string runs in the page, where localStorage exists (this file is typed for Node).
    expect(await page.evaluate("[localStorage.getItem('token'), localStorage.getItem('user')]")).toEqual([null, null]);
  });

  it('sends a visitor from a member page to /login and from /admin to /', async () => {
    const page = await newPage();
    await page.goto(`${stack.url('gateway')}/my-books`);
    await page.waitForURL('**/login');
    await page.goto(`${stack.url('gateway')}/admin/users`);
    await page.waitForURL((url) => url.pathname === '/');
  });

  it('shows the not-found page with its links and four sample books for an unknown path', async () => {
    const page = await newPage(390);
    await page.goto(`${stack.url('gateway')}/cette/page/nexiste/pas`);
    await page.getByRole('heading', { name: 'Page introuvable' }).waitFor();
    const main = page.getByRole('main');
    for (const href of ['/', '/books', '/contact']) {
      expect(await main.locator(`a[href="${href}"]`).count()).toBeGreaterThan(0);
    }
    expect(
      await main
        .getByRole('region', { name: /manuels qui pourraient vous intéresser/ })
        .getByRole('listitem')
        .count(),
    ).toBe(4);
  });

  it('keeps the header and offers a retry when a remote cannot be loaded', async () => {
    // Its manifest, then its entry: the federation runtime asks for each three times, then the
    // shell shows its fallback, whose « Réessayer » asks again.
    for (const file of ['mf-manifest.json', 'remoteEntry.js']) {
      const page = await newPage();
      let fail = true;
      let asked = 0;
      await page.route(`**/mf/catalog/${file}`, (route) => {
        if (!fail) return route.continue();
        asked++;
        return route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"Indisponible"}' });
      });
      await page.goto(stack.url('gateway'));
      await page.getByText("Cette partie du site n'a pas pu être chargée.").waitFor();
      await page.getByRole('navigation', { name: 'Navigation principale' }).waitFor();
      expect(asked, file).toBeGreaterThanOrEqual(3);
      fail = false;
      await page.getByRole('button', { name: 'Réessayer' }).click();
      await page.getByRole('heading', { name: 'Villes du Gabon' }).waitFor();
      await page.context().close();
    }
  });
});
