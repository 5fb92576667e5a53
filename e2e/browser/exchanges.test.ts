import { mkdirSync } from 'node:fs';
import {
  keepScreenshot,
  noHorizontalScroll,
  seriousViolations,
  signInContext,
  smallTargets,
  useBrowser,
} from '@cartable/stack/browser';
import { postListing, verifiedMember } from '@cartable/stack/members';
import { sharedStack } from '@cartable/stack/shared-stack';
import { call, eventually, type TestStack } from '@cartable/stack/test-stack';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * Exchanges and « Vendre ma liste » in Chromium at 360 px.
 *
 * Two families in Libreville: Awa's child finished 6e and lists a 6e book of the list open to
 * exchange; Brice's child finished 5e and lists a 5e book open to exchange. Awa looks for « 5e ·
 * the subject of Brice's book » (a class and a subject), Brice for Awa's book (chosen in the
 * class lists), both on the « Échanges » page; the matcher suggests the pair, both accept, and the
 * conversation link opens the talk with its automatic first message. Then a family lists three
 * books of the 6e list at once through « Vendre ma liste » and finds them in Mes manuels, and
 * another sells three others as one lot, found by each of its books.
 */
const SCREENSHOTS = process.env.EXCHANGES_SCREENSHOTS ?? '/tmp/exchanges';

interface Item {
  id: number;
  title: string;
  author: string;
  subject: { id: number; name: string } | null;
}
interface Member {
  email: string;
  token: string;
  id: string;
  name: string;
  user: unknown;
}

let stack: TestStack;
const browser = useBrowser();
let libreville = 0;
let sixth = 0;
let fifth = 0;
let fifthSubject = { id: 0, name: '' };
let sixthListId = 0;
let items: Item[] = [];

async function member(n: string): Promise<Member> {
  const m = await verifiedMember(stack, n);
  const me = await call(`${stack.api}/user`, { token: m.token });
  const user = me.body.user ?? me.body;
  return { ...m, name: user.name, user };
}

/** A listing open to exchange through the API (multipart, no photo) in Libreville. */
async function listForExchange(as: Member, title: string, categoryIds: number[]) {
  return postListing(stack, as.token, {
    title,
    author: 'Collectif',
    condition: 'bon',
    price: '3000',
    city_id: String(libreville),
    is_exchange_possible: 'true',
    category_ids: categoryIds.join(','),
  });
}

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  stack = sharedStack();
  libreville = (await call(`${stack.api}/locations/cities/search?q=libreville`)).body.cities[0].id;
  const tree = (await call(`${stack.api}/categories/hierarchy`)).body.categories as Array<{
    name: string;
    children?: Array<{ id: number; name: string; children?: Array<{ id: number; name: string }> }>;
  }>;
  const college = tree.find((c) => c.name === 'Collège')?.children ?? [];
  sixth = college.find((c) => c.name === '6e')?.id ?? 0;
  const fifthNode = college.find((c) => c.name === '5e');
  fifth = fifthNode?.id ?? 0;
  const subjects = (fifthNode?.children ?? []).filter((c) => !c.name.startsWith('5e '));
  fifthSubject = subjects.find((s) => s.name === 'Français') ?? subjects[0] ?? fifthSubject;
  expect(sixth * fifth * fifthSubject.id).toBeGreaterThan(0);
  const lists = await eventually(async () => {
    const answer = await call(`${stack.api}/class-lists?level_id=${sixth}`);
    return answer.status === 200 && answer.body.data.length > 0 ? answer.body.data : undefined;
  }, 30_000);
  sixthListId = lists.find((l: { kind: string }) => l.kind === 'official').id;
  items = (await call(`${stack.api}/class-lists/${sixthListId}`)).body.list.items;
  expect(items.filter((i) => i.subject).length).toBeGreaterThan(3);
}, 300_000);

async function newPage(errors: string[], as: Member): Promise<Page> {
  const context = await browser().newContext({
    // page.route sees only what the page fetches itself, not what a service worker fetches for it.
    serviceWorkers: 'block',
    viewport: { width: 360, height: 780 },
    locale: 'fr-FR',
    hasTouch: true,
    isMobile: true,
    bypassCSP: true,
  });
  await signInContext(context, as);
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  return page;
}

describe('exchanges', () => {
  it('two families in Libreville state their wishes, accept the suggested exchange and find the conversation', async () => {
    const errors: string[] = [];
    const base = stack.url('gateway');
    const tag = Date.now().toString(36);
    const [awa, brice] = await Promise.all([member(`awa${tag}`), member(`brice${tag}`)]);
    // Awa's 6e book (a book of the list, with its subject), Brice's 5e book: both open to exchange.
    const given = items.find((i) => i.subject)!;
    const awaBook = await eventually(
      () => listForExchange(awa, given.title, [sixth, given.subject!.id]).catch(() => undefined),
      30_000,
    );
    const briceTitle = `${fifthSubject.name} 5e – cahier d’exercices`;
    const briceBook = await eventually(
      () => listForExchange(brice, briceTitle, [fifth, fifthSubject.id]).catch(() => undefined),
      30_000,
    );

    // Awa: her offer is there; she looks for « 5e · <subject> » (a class and a subject).
    const awaPage = await newPage(errors, awa);
    await awaPage.goto(`${base}/ma-liste?level=${sixth}`);
    await awaPage.getByRole('link', { name: 'Échanger mes anciens manuels' }).click();
    await awaPage.waitForURL('**/echanges');
    await awaPage.getByTestId('exchange-offers').getByText(given.title).waitFor({ timeout: 20_000 });
    await awaPage.getByRole('button', { name: 'Une classe et une matière' }).click();
    await awaPage.getByLabel('Classe').selectOption({ label: '5e' });
    await awaPage.getByLabel('Matière').selectOption({ label: fifthSubject.name });
    await awaPage.getByRole('button', { name: 'Ajouter ce souhait' }).click();
    await awaPage.getByTestId('exchange-wishes').getByText(fifthSubject.name).waitFor({ timeout: 15_000 });
    await noHorizontalScroll(awaPage);
    await expect(smallTargets(awaPage, { labelledBoxes: true })).resolves.toEqual([]);
    await keepScreenshot(awaPage, { path: `${SCREENSHOTS}/echanges-awa-360.png`, fullPage: true });

    // Brice: from the account menu; he looks for Awa's book, chosen in the class lists.
    const bricePage = await newPage(errors, brice);
    await bricePage.goto(`${base}/`);
    await bricePage.getByRole('button', { name: /Menu du compte/ }).click();
    await bricePage.getByRole('menuitem', { name: 'Échanges' }).click();
    await bricePage.waitForURL('**/echanges');
    const combo = bricePage.getByRole('combobox', { name: 'Chercher dans les listes de classe' });
    await combo.waitFor({ timeout: 20_000 });
    await combo.fill(given.title.slice(0, 14));
    await bricePage.getByRole('option').filter({ hasText: given.title }).first().click({ timeout: 15_000 });
    await bricePage.getByTestId('exchange-wishes').getByText(given.title).waitFor({ timeout: 15_000 });

    // The matcher runs at once after a new wish: the pair shows up on both pages.
    await eventually(async () => {
      const overview = await call(`${stack.api}/exchanges`, { token: brice.token });
      return overview.body.suggestions?.length > 0 ? true : undefined;
    }, 30_000);
    await bricePage.reload();
    const briceCard = bricePage.getByTestId('exchange-suggestion').first();
    await briceCard.waitFor({ timeout: 20_000 });
    await briceCard.getByText(`Vous donnez « ${briceTitle} » à ${awa.name}`).waitFor();
    await briceCard.getByText(`Vous recevez « ${given.title} » de ${awa.name}`).waitFor();
    await briceCard.getByText('Libreville').first().waitFor();
    await noHorizontalScroll(bricePage);
    await expect(smallTargets(bricePage, { labelledBoxes: true })).resolves.toEqual([]);
    await expect(seriousViolations(bricePage)).resolves.toEqual([]);
    await keepScreenshot(bricePage, { path: `${SCREENSHOTS}/echanges-suggestion-360.png`, fullPage: true });

    // Brice accepts first (by keyboard), then Awa.
    await briceCard.getByRole('button', { name: 'Accepter' }).focus();
    await bricePage.keyboard.press('Enter');
    await briceCard.getByText(/Vous avez accepté\. Nous vous prévenons/).waitFor({ timeout: 15_000 });
    await awaPage.reload();
    const awaCard = awaPage.getByTestId('exchange-suggestion').first();
    await awaCard.waitFor({ timeout: 20_000 });
    await awaCard.getByText(`Vous donnez « ${given.title} » à ${brice.name}`).waitFor();
    await awaCard.getByTestId('exchange-answers').getByText(`${brice.name} a accepté`).waitFor();
    // The decline dialog says what a refusal means; Awa cancels it and accepts.
    await awaCard.getByRole('button', { name: 'Refuser' }).click();
    const dialog = awaPage.getByRole('alertdialog');
    await dialog.getByText(/elle ne vous sera plus proposée/).waitFor();
    await keepScreenshot(awaPage, { path: `${SCREENSHOTS}/echanges-refuser-360.png` });
    await dialog.getByRole('button', { name: 'Annuler' }).click();
    await awaCard.getByRole('button', { name: 'Accepter' }).click();
    // A conversation per leg: about Awa's book and about Brice's, both with Brice.
    const links = awaCard.getByTestId('exchange-conversation');
    await links.first().waitFor({ timeout: 15_000 });
    await awaCard.getByText('Acceptée par tous').waitFor();
    await keepScreenshot(awaPage, { path: `${SCREENSHOTS}/echanges-acceptee-360.png`, fullPage: true });
    const hrefs = await links.evaluateAll((els) => els.map((el) => el.getAttribute('href')));
    expect(hrefs.sort()).toEqual([`/messages/${awaBook}/${brice.id}`, `/messages/${briceBook}/${brice.id}`].sort());

    // Brice's link opens the conversation about Awa's book, with the automatic first message.
    await bricePage.reload();
    const briceLink = bricePage.getByTestId('exchange-conversation').filter({ hasText: given.title });
    await briceLink.waitFor({ timeout: 20_000 });
    await expect(briceLink.getAttribute('href')).resolves.toBe(`/messages/${awaBook}/${awa.id}`);
    await briceLink.click();
    await bricePage.waitForURL(/\/messages\/\d+\//);
    // messaging opens it from catalog's event: reload until it is there.
    await eventually(async () => {
      const opened = await bricePage
        .getByText(/\(Message automatique de Cartable\)/)
        .first()
        .waitFor({ timeout: 3000 })
        .then(() => true)
        .catch(() => false);
      if (opened) return true;
      await bricePage.reload();
      return undefined;
    }, 30_000);
    await noHorizontalScroll(bricePage);
    await keepScreenshot(bricePage, { path: `${SCREENSHOTS}/echanges-conversation-360.png` });
    expect(errors).toEqual([]);
  }, 180_000);

  it('a family lists three books of the 6e list at once through « Vendre ma liste » and finds them in Mes manuels', async () => {
    const errors: string[] = [];
    const base = stack.url('gateway');
    const family = await member(`famille${Date.now().toString(36)}`);
    // The member reaches the catalog through an event: wait for it as a seller.
    await eventually(async () => {
      const answer = await call(`${stack.api}/exchanges`, { token: family.token });
      return answer.status === 200 ? true : undefined;
    }, 30_000);
    const page = await newPage(errors, family);
    await page.goto(`${base}/ma-liste?level=${sixth}`);
    await page.getByRole('link', { name: 'Vendre ma liste' }).click();
    await page.waitForURL(`**/ma-liste/vendre?list=${sixthListId}`);
    await page.getByTestId('sell-item').first().waitFor({ timeout: 20_000 });
    await page.getByLabel('Ville de remise *').selectOption({ label: 'Libreville' });

    const chosen = items.slice(0, 3);
    const prices = ['2500', '0', '1500'];
    for (const [index, item] of chosen.entries()) {
      const card = page.getByTestId('sell-item').filter({ hasText: item.title }).first();
      await card.getByRole('checkbox', { name: item.title }).check();
      await card.getByLabel('État *').selectOption({ label: 'Bon état' });
      if (prices[index] === '0') await card.getByRole('button', { name: /Je le donne/ }).click();
      else await card.getByLabel('Prix (FCFA) *').fill(prices[index]!);
      if (index === 2) await card.getByRole('checkbox', { name: 'Échange possible' }).check();
    }
    await noHorizontalScroll(page);
    await expect(smallTargets(page, { labelledBoxes: true })).resolves.toEqual([]);
    await keepScreenshot(page, { path: `${SCREENSHOTS}/vendre-ma-liste-360.png`, fullPage: true });
    await expect(seriousViolations(page)).resolves.toEqual([]);

    // The connection drops during the second upload: that book alone fails, and is retried alone.
    let posts = 0;
    await page.route('**/api/books', (route) => {
      if (route.request().method() === 'POST' && ++posts === 2) return route.abort('internetdisconnected');
      return route.continue();
    });
    await page.getByRole('button', { name: 'Publier les 3 annonces' }).click();
    const failed = page.getByTestId('sell-item').filter({ hasText: chosen[1]!.title });
    await failed.getByTestId('sell-item-error').waitFor({ timeout: 30_000 });
    await page.getByTestId('sell-progress').getByText('2 sur 3 publiées · 1 en échec').waitFor();
    await keepScreenshot(page, { path: `${SCREENSHOTS}/vendre-ma-liste-echec-360.png` });
    await page.getByRole('button', { name: 'Réessayer l’annonce en échec' }).click();
    const summary = page.getByTestId('sell-summary');
    await summary.waitFor({ timeout: 30_000 });
    await summary.getByText('3 annonces publiées').waitFor();
    await keepScreenshot(page, { path: `${SCREENSHOTS}/vendre-ma-liste-fini-360.png`, fullPage: true });
    await summary.getByRole('link', { name: 'Voir Mes manuels' }).click();
    await page.waitForURL('**/my-books');
    for (const item of chosen) await page.getByText(item.title).first().waitFor({ timeout: 20_000 });
    await noHorizontalScroll(page);
    await keepScreenshot(page, { path: `${SCREENSHOTS}/mes-manuels-360.png`, fullPage: true });

    // Through the API: three listings of the family, separate, with the list's details.
    const mine = await call(`${stack.api}/books?user_id=${family.id}&per_page=10`, { token: family.token });
    const titles = (mine.body.data as Array<{ title: string; price: number; is_exchange_possible: boolean }>).map(
      (b) => b.title,
    );
    // Three listings, no book twice.
    expect(titles.sort()).toEqual(chosen.map((i) => i.title).sort());
    expect(posts).toBe(4);
    expect(errors).toEqual([]);
  }, 120_000);

  it('a family sells three books of the 6e list as one lot, found by each book in the catalogue and in « Ma liste »', async () => {
    const errors: string[] = [];
    const base = stack.url('gateway');
    const family = await member(`lot${Date.now().toString(36)}`);
    await eventually(async () => {
      const answer = await call(`${stack.api}/exchanges`, { token: family.token });
      return answer.status === 200 ? true : undefined;
    }, 30_000);
    const page = await newPage(errors, family);
    await page.goto(`${base}/ma-liste/vendre?list=${sixthListId}`);
    await page.getByTestId('sell-item').first().waitFor({ timeout: 20_000 });
    await page.getByLabel('Ville de remise *').selectOption({ label: 'Libreville' });
    await page.getByRole('radio', { name: /Un seul lot/ }).check();

    // One book is not a lot: the form says so and sends nothing.
    const chosen = items.slice(3, 6);
    await page.getByRole('checkbox', { name: chosen[0]!.title }).check();
    await page.getByRole('button', { name: 'Publier le lot' }).click();
    await page.getByText('Cochez au moins 2 manuels pour faire un lot').waitFor();
    for (const item of chosen.slice(1)) await page.getByRole('checkbox', { name: item.title }).check();
    const lotPanel = page.getByRole('article', { name: /Le lot/ });
    await expect(lotPanel.getByLabel('Titre de l’annonce *').inputValue()).resolves.toMatch(/^Lot de 3 manuels de 6e/);
    await lotPanel.getByLabel('État *').selectOption({ label: 'Bon état' });
    await lotPanel.getByLabel('Prix (FCFA) *').fill('7500');
    await noHorizontalScroll(page);
    await expect(smallTargets(page, { labelledBoxes: true })).resolves.toEqual([]);
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await keepScreenshot(page, { path: `${SCREENSHOTS}/vendre-un-lot-360.png`, fullPage: true });
    await page.getByRole('button', { name: 'Publier le lot de 3 manuels' }).click();
    const summary = page.getByTestId('sell-summary');
    await summary.getByText('Lot de 3 manuels publié').waitFor({ timeout: 30_000 });

    // The lot's page lists its books.
    await summary.getByRole('link', { name: /^Lot de 3 manuels de 6e/ }).click();
    await page.waitForURL(/\/books\/\d+$/);
    const lotId = Number(new URL(page.url()).pathname.split('/').pop());
    const contents = page.getByTestId('lot-contents');
    await contents.getByText('Ce lot contient 3 manuels').waitFor({ timeout: 20_000 });
    for (const item of chosen) await contents.getByText(item.title, { exact: true }).waitFor();
    await noHorizontalScroll(page);
    await keepScreenshot(page, { path: `${SCREENSHOTS}/lot-360.png`, fullPage: true });

    // Searching for one of its books finds the lot, marked as such.
    await page.goto(`${base}/books?query=${encodeURIComponent(chosen[2]!.title)}&literal=true`);
    const card = page.locator('article').filter({ has: page.locator(`a[href="/books/${lotId}"]`) });
    await card.getByText('Lot · 3 manuels').waitFor({ timeout: 20_000 });

    // « Ma liste » shows it under each of its books, its price not taken for one book's.
    await page.goto(`${base}/ma-liste?level=${sixth}`);
    const inLot = page.getByText('dont 1 dans un lot', { exact: true });
    await inLot.first().waitFor({ timeout: 20_000 });
    await expect(inLot.count()).resolves.toBe(3);
    const detail = await call(`${stack.api}/books/${lotId}`);
    expect(detail.body.book.lot.items.map((i: { title: string }) => i.title)).toEqual(chosen.map((i) => i.title));
    expect(detail.body.book.price).toBe(7500);
    expect(errors).toEqual([]);
  }, 120_000);
});
