import { mkdirSync } from 'node:fs';
import {
  keepScreenshot,
  logInThroughForm,
  noHorizontalScroll,
  scriptsHoldingZod,
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
 * « Ma liste » in Chromium at 360 px: a parent opens Ma liste from the
 * home page in two taps (the entry, then « 6e »), chooses Libreville, sees the listings under each
 * book of the seeded 6e list (two of them listed through the API first), marks one « déjà
 * obtenu » and sees the total still to pay drop by that book's best price; then a member's listing
 * form fills itself from « Choisir dans les listes de classe »; a member saves the list and
 * « Compléter ma liste » shows its baskets, with a message prepared per seller.
 */
const SCREENSHOTS = process.env.CLASS_LISTS_SCREENSHOTS ?? '/tmp/class-lists';
const ADMIN = { email: 'admin@cartable.ga', password: 'Cartable2026!' };
const SCHOOL = 'Lycée de test Akébé';

interface Item {
  id: number;
  title: string;
  author: string;
  publisher: string | null;
}

let stack: TestStack;
const browser = useBrowser();
let member: { email: string; token: string; id: string; user: unknown };
let libreville = 0;
let sixth = 0;
let items: Item[] = [];

/** A listing through the API (multipart, no photo) in Libreville at this price. */
async function list(title: string, price: number, categoryIds: number[]) {
  return postListing(stack, member.token, {
    title,
    author: 'Collectif',
    condition: 'bon',
    price: String(price),
    city_id: String(libreville),
    category_ids: categoryIds.join(','),
  });
}

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  stack = sharedStack();
  const m = await verifiedMember(stack, `liste${Date.now().toString(36)}`);
  const me = await call(`${stack.api}/user`, { token: m.token });
  member = { ...m, user: me.body.user ?? me.body };
  libreville = (await call(`${stack.api}/locations/cities/search?q=libreville`)).body.cities[0].id;
  const tree = (await call(`${stack.api}/categories/hierarchy`)).body.categories as Array<{
    name: string;
    children?: Array<{ id: number; name: string }>;
  }>;
  sixth = tree.find((c) => c.name === 'Collège')?.children?.find((c) => c.name === '6e')?.id ?? 0;
  expect(sixth).toBeGreaterThan(0);
  // The seeded 6e list (official), read as a parent would.
  const lists = await eventually(async () => {
    const answer = await call(`${stack.api}/class-lists?level_id=${sixth}`);
    return answer.status === 200 && answer.body.data.length > 0 ? answer.body.data : undefined;
  }, 30_000);
  const official = lists.find((l: { kind: string }) => l.kind === 'official');
  const detail = await call(`${stack.api}/class-lists/${official.id}`);
  items = detail.body.list.items;
  expect(items.length).toBeGreaterThan(2);
  // Two books of the list in Libreville; the member reaches the catalog through an event first.
  await eventually(async () => list(items[0]!.title, 1500, [sixth]).catch(() => undefined), 30_000);
  await list(items[1]!.title, 2500, [sixth]);
}, 300_000);

async function newPage(errors: string[], as?: typeof member): Promise<Page> {
  const context = await browser().newContext({
    viewport: { width: 360, height: 780 },
    locale: 'fr-FR',
    hasTouch: true,
    isMobile: true,
    // axe is injected as a script tag, which the site's CSP rightly refuses.
    bypassCSP: true,
  });
  if (as) {
    await signInContext(context, as);
  }
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  return page;
}

describe('class lists', () => {
  it('a parent opens Ma liste for 6e in Libreville from home, sees listings per book, marks one « déjà obtenu »', async () => {
    const errors: string[] = [];
    const base = stack.url('gateway');
    const parent = await newPage(errors);
    await parent.goto(`${base}/`);

    // Two taps: the home's entry, then the class.
    await parent.getByRole('link', { name: /Trouver les manuels de ma classe/ }).click();
    await parent.waitForURL('**/ma-liste');
    await parent.getByTestId('level-picker').getByRole('link').first().waitFor({ timeout: 15_000 });
    await expect(smallTargets(parent)).resolves.toEqual([]);
    await keepScreenshot(parent, { path: `${SCREENSHOTS}/ma-liste-levels-360.png` });
    await parent.getByTestId('level-picker').getByRole('link', { name: '6e', exact: true }).click();
    await parent.waitForURL(/\/ma-liste\?level=\d+/);
    await parent.getByTestId('list-summary').waitFor({ timeout: 20_000 });
    await parent.getByLabel('Ville').selectOption({ label: 'Libreville' });
    await parent.waitForURL(new RegExp(`city=${libreville}`));

    // Under the two listed books, their Libreville listings (exact matches).
    const first = parent.getByTestId('list-item').filter({ hasText: items[0]!.title }).first();
    // Counted in Libreville once the town's answer is in (the previous one stays on screen meanwhile).
    await first
      .getByText(/\d+ à Libreville/)
      .first()
      .waitFor({ timeout: 20_000 });
    await first.getByTestId('match-exact').waitFor();
    await first.getByTestId('list-book').filter({ hasText: items[0]!.title }).first().waitFor();
    const second = parent.getByTestId('list-item').filter({ hasText: items[1]!.title }).first();
    await second.getByTestId('list-book').first().waitFor();
    await noHorizontalScroll(parent);
    await keepScreenshot(parent, { path: `${SCREENSHOTS}/ma-liste-360.png` });
    await keepScreenshot(parent, { path: `${SCREENSHOTS}/ma-liste-360-full.png`, fullPage: true });
    await keepScreenshot(first, { path: `${SCREENSHOTS}/ma-liste-book-360.png` });
    await expect(smallTargets(parent)).resolves.toEqual([]);
    await expect(seriousViolations(parent)).resolves.toEqual([]);

    // What the API says for Libreville: the total and the first book's best price.
    const official = (await call(`${stack.api}/class-lists?level_id=${sixth}`)).body.data.find(
      (l: { kind: string }) => l.kind === 'official',
    );
    const availability = (await call(`${stack.api}/class-lists/${official.id}/availability?city_id=${libreville}`))
      .body;
    const entry = availability.items.find((i: { item: { id: number } }) => i.item.id === items[0]!.id);
    expect(entry.match).toBe('exact');
    expect(entry.cheapest_price).toBeGreaterThan(0);
    const digits = (text: string | null) => Number((text ?? '').replace(/\D/g, ''));
    const total = parent.getByTestId('list-total');
    await eventually(async () => (digits(await total.textContent()) === availability.totals.cost ? true : undefined));

    // « Déjà obtenu » on the first book: the total drops by its best price, one more marked.
    await first.getByRole('button', { name: /Déjà obtenu/ }).click();
    await expect(first.getByRole('button', { name: /Déjà obtenu/ }).getAttribute('aria-pressed')).resolves.toBe('true');
    await eventually(async () =>
      digits(await total.textContent()) === availability.totals.cost - entry.cheapest_price ? true : undefined,
    );
    await parent
      .getByTestId('list-found')
      .getByText(/1 déjà obtenu/)
      .waitFor();
    await keepScreenshot(parent, { path: `${SCREENSHOTS}/ma-liste-owned-360.png` });
    await expect(seriousViolations(parent)).resolves.toEqual([]);
    expect(errors).toEqual([]);
  }, 120_000);

  it('the listing form fills itself from « Choisir dans les listes de classe »', async () => {
    const errors: string[] = [];
    const page = await newPage(errors, member);
    await page.goto(`${stack.url('gateway')}/books/add`);
    const combo = page.getByRole('combobox', { name: 'Choisir dans les listes de classe' });
    await combo.waitFor({ timeout: 20_000 });
    const wanted = items[1]!;
    await combo.fill(wanted.title.slice(0, 12));
    const option = page.getByRole('option').filter({ hasText: wanted.title }).first();
    await option.waitFor({ timeout: 15_000 });
    await option.click();
    await expect(page.getByLabel('Titre *').inputValue()).resolves.toBe(wanted.title);
    await expect(page.getByLabel('Auteur *').inputValue()).resolves.toBe(wanted.author);
    if (wanted.publisher) await expect(page.getByLabel('Éditeur').inputValue()).resolves.toBe(wanted.publisher);
    // The level and the subject are among the chosen categories.
    await page.getByText('6e').first().waitFor();
    // Still editable.
    await page.getByLabel('Titre *').fill(`${wanted.title} (bon état)`);
    await expect(page.getByLabel('Titre *').inputValue()).resolves.toBe(`${wanted.title} (bon état)`);
    await noHorizontalScroll(page);
    await keepScreenshot(page, { path: `${SCREENSHOTS}/autofill-360.png`, fullPage: true });
    expect(errors).toEqual([]);
  }, 60_000);

  it('a member saves the list, sees its baskets in « Compléter ma liste » and finds it in « Mes listes »; proposes a school list that the admin approves; CSV import with its preview', async () => {
    const errors: string[] = [];
    const base = stack.url('gateway');
    const page = await newPage(errors, member);
    await page.goto(`${base}/ma-liste?level=${sixth}&city=${libreville}`);
    await page.getByRole('button', { name: 'Enregistrer ma liste' }).click();
    await page.getByTestId('list-saved').waitFor({ timeout: 15_000 });

    // « Compléter ma liste »: another parent sells the third book in Libreville (the member's own
    // listings are never proposed to them); the baskets show it, with a message prepared per seller.
    const other = await verifiedMember(stack, `vend${Date.now().toString(36)}`, { name: 'Vendeuse Panier' });
    const offered = await eventually(
      async () =>
        postListing(stack, other.token, {
          title: items[2]!.title,
          author: 'Collectif',
          condition: 'bon',
          price: '0',
          city_id: String(libreville),
          category_ids: String(sixth),
        }).catch(() => undefined),
      30_000,
    );
    await page.reload();
    const complete = page.getByTestId('complete-list');
    await complete.getByTestId('basket-total').waitFor({ timeout: 20_000 });
    await expect(complete.getByRole('button', { name: /Le moins cher/ }).count()).resolves.toBe(1);
    await complete.getByRole('button', { name: /Le moins de rendez-vous/ }).click();
    await complete.getByTestId('basket-seller').first().waitFor();
    await complete.getByRole('button', { name: /Contacter les vendeurs/ }).click();
    await expect(complete.getByRole('textbox').first().inputValue()).resolves.toMatch(
      /^Bonjour, je suis intéressé par « .+ » pour la liste de 6e\./,
    );
    await noHorizontalScroll(page);
    await expect(smallTargets(page)).resolves.toEqual([]);
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await keepScreenshot(complete, { path: `${SCREENSHOTS}/completer-ma-liste-360.png` });

    // The family sends the message prepared for the seller of the third book; she accepts by
    // proposing the deal, which reserves the book for the family; the family confirms it, and
    // « Ma liste » then counts the book as theirs.
    const toSeller = complete.getByTestId('basket-seller').filter({ hasText: 'Vendeuse Panier' });
    await toSeller.getByRole('button', { name: 'Envoyer' }).click();
    await toSeller.getByText('Message envoyé.').waitFor({ timeout: 15_000 });
    const deal: string = await eventually(async () => {
      const res = await call(`${stack.api}/transactions`, {
        token: other.token,
        body: { book_id: offered, buyer_id: member.id, kind: 'gift' },
      });
      return res.status === 201 ? res.body.transaction.id : undefined;
    }, 30_000);
    expect((await call(`${stack.api}/books/${offered}`)).body.book.status).toBe('réservé');
    await page.goto(`${base}/transactions/${deal}`);
    await page.getByRole('button', { name: 'Confirmer la transaction' }).click();
    await page
      .getByRole('alertdialog', { name: 'Confirmer cette transaction ?' })
      .getByRole('button', { name: 'Confirmer la transaction' })
      .click();
    await page.getByText('Transaction confirmée avec succès').waitFor();
    await page.goto(`${base}/ma-liste?level=${sixth}&city=${libreville}`);
    await expect(
      page.getByRole('button', { name: `Déjà obtenu : ${items[2]!.title}` }).getAttribute('aria-pressed'),
    ).resolves.toBe('true');
    await noHorizontalScroll(page);
    await page.goto(`${base}/mes-listes`);
    await page.getByTestId('saved-lists').getByText('6e').first().waitFor({ timeout: 15_000 });
    await noHorizontalScroll(page);
    await keepScreenshot(page, { path: `${SCREENSHOTS}/mes-listes-360.png` });

    // « Votre école a sa propre liste ? Proposez-la » from Ma liste. The form draws before its
    // checks (the contract's schema, with zod), which load when it is first touched.
    const zod = scriptsHoldingZod(page);
    await page.goto(`${base}/ma-liste?level=${sixth}`);
    await page.getByRole('link', { name: 'Proposez-la' }).click();
    await page.waitForURL('**/ma-liste/proposer?level=*');
    await page.getByLabel('Établissement *').waitFor();
    expect(await zod.loaded()).toEqual([]);
    await page.getByLabel('Établissement *').fill(SCHOOL);
    await page.getByLabel('Ville').selectOption({ label: 'Libreville' });
    await page.getByLabel('Titre *').fill('Cahier d’activités de mathématiques 6e');
    await page.getByLabel('Matière').selectOption({ label: 'Mathématiques' });
    await page.getByRole('button', { name: 'Envoyer la liste' }).click();
    await page.getByText('Liste envoyée').waitFor({ timeout: 15_000 });
    expect((await zod.loaded()).length).toBeGreaterThan(0);

    // The admin finds it among the proposals, at 360 px, and approves it.
    const admin = await newPage(errors);
    await logInThroughForm(admin, base, ADMIN.email, ADMIN.password);
    await admin.goto(`${base}/admin/class-lists?type=proposed`);
    const card = admin.getByTestId('class-list-card').filter({ hasText: SCHOOL });
    await card.waitFor({ timeout: 15_000 });
    await noHorizontalScroll(admin);
    await keepScreenshot(admin, { path: `${SCREENSHOTS}/admin-proposals-360.png`, fullPage: true });
    await card.getByRole('link', { name: 'Examiner' }).click();
    await admin.getByRole('button', { name: 'Valider et publier' }).click();
    await admin.getByTestId('class-list-status').getByText('Publiée').waitFor({ timeout: 15_000 });

    // CSV import: the preview says line by line, nothing is written until « Importer ».
    await admin.getByRole('button', { name: 'Importer (CSV)' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByLabel('Fichier CSV').setInputFiles({
      name: 'liste.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        'title;author;publisher;year;isbn;subject;required\nAtlas du Gabon;Collectif;EDICEF;2019;;Histoire-Géographie;non\n;;;;;;\n',
      ),
    });
    await dialog.getByRole('button', { name: 'Prévisualiser' }).click();
    await dialog.getByTestId('import-report').waitFor({ timeout: 15_000 });
    await expect(dialog.getByTestId('import-line').count()).resolves.toBe(1);
    await dialog.getByRole('button', { name: /Importer 1 manuel/ }).click();
    await dialog.getByText('Import terminé').waitFor({ timeout: 15_000 });
    await keepScreenshot(admin, { path: `${SCREENSHOTS}/admin-import-360.png` });
    await dialog.getByRole('button', { name: 'Fermer' }).first().click();
    await admin.getByTestId('class-list-item-card').filter({ hasText: 'Atlas du Gabon' }).waitFor({ timeout: 15_000 });
    await noHorizontalScroll(admin);

    // A book added in the dialog, then the list copied for the next school year (a draft).
    await admin.getByRole('button', { name: 'Ajouter un manuel' }).first().click();
    const add = admin.getByRole('dialog');
    await add.getByLabel('Titre').fill('Dictionnaire Larousse junior');
    await add.getByLabel('Éditeur').fill('Larousse');
    await add.getByLabel('Obligatoire ?').selectOption('recommended');
    await add.getByRole('button', { name: 'Ajouter' }).click();
    await admin.getByTestId('class-list-item-card').filter({ hasText: 'Dictionnaire Larousse junior' }).waitFor();
    await admin.getByRole('button', { name: 'Copier pour une autre année' }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Copier' }).click();
    await admin.getByRole('heading', { name: '6e · 2027-2028' }).waitFor({ timeout: 15_000 });
    await admin.getByTestId('class-list-status').getByText('Brouillon').waitFor();
    await admin.getByTestId('class-list-item-card').filter({ hasText: 'Dictionnaire Larousse junior' }).waitFor();
    expect(errors).toEqual([]);
  }, 120_000);

  it('an administrator reads the coverage of the saved lists at 360 px: the 6e list saved in Libreville is there', async () => {
    const errors: string[] = [];
    const admin = await newPage(errors);
    await logInThroughForm(admin, stack.url('gateway'), ADMIN.email, ADMIN.password);
    await admin.goto(`${stack.url('gateway')}/admin/class-lists?vue=couverture`);
    const card = admin.getByTestId('coverage-card').filter({ hasText: '6e · Libreville' });
    await card.waitFor({ timeout: 20_000 });
    await expect(card.textContent()).resolves.toMatch(/Familles\s*\d+/);
    await noHorizontalScroll(admin);
    await expect(smallTargets(admin)).resolves.toEqual([]);
    await expect(seriousViolations(admin)).resolves.toEqual([]);
    await keepScreenshot(admin, { path: `${SCREENSHOTS}/admin-coverage-360.png`, fullPage: true });
    // On a laptop, the same figures as a table.
    await admin.setViewportSize({ width: 1366, height: 900 });
    await admin.getByTestId('coverage-row').filter({ hasText: 'Libreville' }).first().waitFor();
    await noHorizontalScroll(admin);
    await keepScreenshot(admin, { path: `${SCREENSHOTS}/admin-coverage-1366.png`, fullPage: true });
    expect(errors).toEqual([]);
  }, 60_000);

  it('an administrator withdraws a book: the family sees the change on « Ma liste » at 360 px, the seller the notice and the mark on the listing', async () => {
    const errors: string[] = [];
    const base = stack.url('gateway');
    const tag = Date.now().toString(36);
    const school = `Collège des versions ${tag}`;
    const gone = `Sciences 6e retirées ${tag}`;
    const admin = (await call(`${stack.api}/login`, { body: ADMIN })).body.access_token as string;
    const created = await call(`${stack.api}/admin/class-lists`, {
      token: admin,
      body: {
        school_year: '2026-2027',
        level_id: sixth,
        kind: 'school',
        school_name: school,
        city_id: libreville,
        status: 'published',
        items: [{ title: gone }, { title: `Anglais 6e gardé ${tag}` }],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const listId = created.body.list.id as number;
    const withdrawnId = created.body.list.items[0].id as number;
    const signedIn = async (n: string) => {
      const m = await verifiedMember(stack, n);
      return { ...m, user: (await call(`${stack.api}/user`, { token: m.token })).body.user };
    };
    const family = await signedIn(`famille${tag}`);
    const saved = await call(`${stack.api}/my-class-lists/${listId}`, {
      method: 'PUT',
      token: family.token,
      body: { city_id: libreville, owned_item_ids: [withdrawnId] },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const seller = await signedIn(`vendeur${tag}`);
    const bookId = await eventually(
      async () =>
        postListing(stack, seller.token, {
          title: gone,
          author: 'Collectif',
          condition: 'bon',
          price: '2000',
          city_id: String(libreville),
          category_ids: String(sixth),
        }).catch(() => undefined),
      30_000,
    );

    // The administrator withdraws the book at 360 px; the history says so.
    const page = await newPage(errors);
    await logInThroughForm(page, base, ADMIN.email, ADMIN.password);
    await page.goto(`${base}/admin/class-lists/${listId}`);
    const card = page.getByTestId('class-list-item-card').filter({ hasText: gone });
    await card.getByRole('button', { name: /^Retirer/ }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText(/les vendeurs de ce manuel seront prévenus/).waitFor();
    await confirm.getByRole('button', { name: 'Retirer' }).click();
    const version = page.getByTestId('class-list-version').first();
    await version.getByText('Version 2').waitFor({ timeout: 15_000 });
    await version.getByText(gone).waitFor();
    await expect(page.getByTestId('class-list-item-card').filter({ hasText: gone }).count()).resolves.toBe(0);
    await noHorizontalScroll(page);
    await keepScreenshot(page, { path: `${SCREENSHOTS}/admin-versions-360.png`, fullPage: true });

    // The family's « Ma liste » follows the new version: the book is no longer asked, theirs no longer needed.
    const parent = await newPage(errors, family);
    await parent.goto(`${base}/ma-liste?level=${sixth}&list=${listId}`);
    const changes = parent.getByTestId('list-changes');
    await changes.getByRole('heading', { name: /^Liste mise à jour le / }).waitFor({ timeout: 20_000 });
    await changes.getByText(`« ${gone} » (plus demandé)`, { exact: false }).waitFor();
    await changes.getByTestId('no-longer-needed').getByText(gone, { exact: false }).waitFor();
    await expect(parent.getByTestId('list-item').filter({ hasText: gone }).count()).resolves.toBe(0);
    await noHorizontalScroll(parent);
    await expect(smallTargets(parent)).resolves.toEqual([]);
    await expect(seriousViolations(parent)).resolves.toEqual([]);
    await keepScreenshot(parent, { path: `${SCREENSHOTS}/ma-liste-changed-360.png` });

    // The seller's notice, then their listing as buyers see it.
    await eventually(async () => {
      const res = await call(`${stack.api}/notifications`, { token: seller.token });
      return res.body.data?.find((n: { type: string }) => n.type === 'class_list.listing_withdrawn');
    }, 30_000);
    const sellerPage = await newPage(errors, seller);
    await sellerPage.goto(`${base}/notifications`);
    const notice = sellerPage
      .getByTestId('notices')
      .getByRole('button', { name: /n’est plus sur la liste de 6e 2026-2027/ });
    await notice.first().waitFor({ timeout: 15_000 });
    await noHorizontalScroll(sellerPage);
    await keepScreenshot(sellerPage, { path: `${SCREENSHOTS}/seller-notice-360.png` });
    await notice.first().click();
    await sellerPage.waitForURL(`**/books/${bookId}`);
    await sellerPage
      .getByTestId('book-class-lists')
      .getByText(`Retiré de la liste 2026-2027 (6e, ${school})`)
      .waitFor({ timeout: 15_000 });
    await noHorizontalScroll(sellerPage);
    await keepScreenshot(sellerPage, { path: `${SCREENSHOTS}/listing-withdrawn-360.png` });
    expect(errors).toEqual([]);
  }, 120_000);
});
