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
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * Saved searches with alerts in Chromium at 360 px: a visitor searches
 * « maths 6e » in Libreville on /books, taps « Enregistrer cette recherche », logs in and comes
 * back to the dialog (name prefilled « Mathématiques 6e à Libreville », instant alerts), saves;
 * another member lists a matching book through the API; the alert e-mail arrives with the link of
 * the unsubscribe page, opened without logging in: « Ne plus recevoir ces alertes » stops them;
 * the member switches them back on from « Mes recherches ». A wrong link says so.
 */
const SCREENSHOTS = process.env.SAVED_SEARCHES_SCREENSHOTS ?? '/tmp/saved-searches';
const NAME = 'Mathématiques 6e à Libreville';
/** axe leaves the toasts aside: sonner fades those stacked behind the front one, which axe reads as low contrast. */
const TOASTS = ['[data-sonner-toaster]'];

let stack: TestStack;
const browser = useBrowser();
let parent: { email: string; token: string; id: string };
let seller: { email: string; token: string; id: string };
const ids = { libreville: 0, sixth: 0, maths: 0 };

/** A listing through the API (multipart, no photo) in Libreville, under 6e and its Mathématiques. */
async function listMathsBook(token: string, title: string) {
  return postListing(stack, token, {
    title,
    author: 'Collectif IPN',
    condition: 'bon',
    price: '3500',
    city_id: String(ids.libreville),
    category_ids: `${ids.sixth},${ids.maths}`,
  });
}

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  stack = sharedStack();
  const tag = Date.now().toString(36);
  [parent, seller] = await Promise.all([verifiedMember(stack, `alerte${tag}`), verifiedMember(stack, `vend${tag}`)]);
  ids.libreville = (await call(`${stack.api}/locations/cities/search?q=libreville`)).body.cities[0].id;
  const tree = (await call(`${stack.api}/categories/hierarchy`)).body.categories as Array<{
    name: string;
    children?: Array<{ id: number; name: string; children?: Array<{ id: number; name: string }> }>;
  }>;
  const sixth = tree.find((c) => c.name === 'Collège')?.children?.find((c) => c.name === '6e');
  ids.sixth = sixth?.id ?? 0;
  ids.maths = sixth?.children?.find((c) => c.name === 'Mathématiques')?.id ?? 0;
  expect(ids.sixth).toBeGreaterThan(0);
  expect(ids.maths).toBeGreaterThan(0);
}, 300_000);

async function phone(errors: string[]): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser().newContext({
    viewport: { width: 360, height: 780 },
    locale: 'fr-FR',
    hasTouch: true,
    isMobile: true,
    // axe is injected as a script tag, which the site's CSP rightly refuses.
    bypassCSP: true,
  });
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page };
}

describe('saved searches', () => {
  it('saves « maths 6e » in Libreville from /books, e-mails the new listing, stops from the link, re-activates', async () => {
    const errors: string[] = [];
    const base = stack.url('gateway');
    const { page } = await phone(errors);

    // A visitor searches « maths 6e » and picks Libreville in the filters.
    await page.goto(`${base}/books`);
    const box = page.getByLabel('Rechercher un manuel');
    await box.fill('maths 6e');
    await box.press('Enter');
    await expect.poll(() => page.getByTestId('understood').textContent(), { timeout: 15_000 }).toContain('6e');
    await page.getByRole('button', { name: /^Filtres/ }).click();
    await page.getByLabel('Ville').selectOption({ label: 'Libreville' });
    await page.waitForURL(/city_id=/);
    await page.getByRole('button', { name: /^Voir \d+ résultat|^Recherche/ }).click();

    // « Enregistrer cette recherche »: the login first, then back to the search with the dialog open.
    await page.getByTestId('save-search').click();
    await page.waitForURL(/\/login\?return_url=/);
    await page.getByLabel('Adresse email').fill(parent.email);
    await page.getByLabel('Mot de passe', { exact: true }).fill('Cartable1a');
    await page.getByRole('button', { name: 'Se connecter' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enregistrer cette recherche' });
    await dialog.waitFor({ timeout: 20_000 });
    expect(page.url()).toContain('/books?');
    expect(page.url()).not.toContain('enregistrer=');
    const name = dialog.getByLabel('Nom de la recherche');
    await expect.poll(() => name.inputValue(), { timeout: 10_000 }).toBe(NAME);
    expect(await dialog.getByRole('radio', { name: /Immédiate/ }).isChecked()).toBe(true);
    await expect.poll(() => dialog.getByText(/Un e-mail dès qu’une annonce correspond/).count()).toBe(1);
    await keepScreenshot(page, { path: `${SCREENSHOTS}/1-save-dialog.png` });
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();

    // The toast leads to « Mes recherches ».
    await page.getByText('Recherche enregistrée : vous serez prévenu des nouvelles annonces.').waitFor();
    await keepScreenshot(page, { path: `${SCREENSHOTS}/2-saved-toast.png` });
    await page.getByRole('button', { name: 'Mes recherches' }).click();
    await page.waitForURL('**/mes-recherches');
    const card = page.getByTestId('saved-search').filter({ hasText: NAME });
    await card.waitFor();
    expect(await card.textContent()).toContain('Libreville');
    expect(await card.textContent()).toContain('Alertes actives');
    await noHorizontalScroll(page);
    await expect(smallTargets(page)).resolves.toEqual([]);
    await expect(seriousViolations(page, { exclude: TOASTS })).resolves.toEqual([]);
    await keepScreenshot(page, { path: `${SCREENSHOTS}/3-my-searches.png`, fullPage: true });
    const saved = await call(`${stack.api}/saved-searches`, { token: parent.token });
    expect(saved.body.data[0]).toMatchObject({ name: NAME, frequency: 'instant', active: true });
    expect(saved.body.data[0].filters).toMatchObject({ query: 'maths 6e', city_id: ids.libreville });

    // Another member lists a matching book: the instant alert e-mail carries the page's link.
    const title = 'Mathématiques 6e – Collection Le Baobab';
    const bookId = await eventually(async () => listMathsBook(seller.token, title).catch(() => undefined), 30_000);
    const mail = await stack.mail.waitFor(parent.email, {
      subject: `Nouvelle annonce pour « ${NAME} »`,
      timeoutMs: 30_000,
    });
    expect(mail.text).toContain(`/books/${bookId}`);
    const link = /\/mes-recherches\/desabonnement\?token=[^\s>)"]+/.exec(mail.text ?? '')?.[0];
    expect(link, mail.text).toBeTruthy();

    // The link, opened on a phone where nobody is logged in: what it stops, then stop it.
    const visitor = await phone(errors);
    await visitor.page.goto(`${base}${link}`);
    const panel = visitor.page.getByTestId('unsubscribe');
    await panel.waitFor();
    expect(await panel.textContent()).toContain(NAME);
    await noHorizontalScroll(visitor.page);
    await expect(smallTargets(visitor.page)).resolves.toEqual([]);
    await expect(seriousViolations(visitor.page, { exclude: TOASTS })).resolves.toEqual([]);
    await keepScreenshot(visitor.page, { path: `${SCREENSHOTS}/4-unsubscribe.png`, fullPage: true });
    await visitor.page.getByRole('button', { name: 'Ne plus recevoir ces alertes' }).click();
    await visitor.page.getByText('Vous ne recevrez plus d’alertes pour cette recherche.').waitFor();
    await visitor.page.getByRole('link', { name: 'Mes recherches' }).waitFor();
    await keepScreenshot(visitor.page, { path: `${SCREENSHOTS}/5-unsubscribed.png`, fullPage: true });
    expect((await call(`${stack.api}/saved-searches`, { token: parent.token })).body.data[0].active).toBe(false);

    // The same link again (already used) and a wrong one say so plainly.
    await visitor.page.reload();
    await visitor.page.getByText('Les alertes de cette recherche étaient déjà arrêtées.').waitFor();
    await visitor.page.goto(`${base}/mes-recherches/desabonnement?token=1.faux`);
    await visitor.page.getByText('Ce lien de désabonnement n’est pas valide.').waitFor();
    await keepScreenshot(visitor.page, { path: `${SCREENSHOTS}/6-invalid-link.png` });
    await visitor.context.close();

    // The member switches the alerts back on from « Mes recherches ».
    await page.goto(`${base}/mes-recherches`);
    await card.waitFor();
    expect(await card.textContent()).toContain('Alertes en pause');
    await keepScreenshot(page, { path: `${SCREENSHOTS}/7-paused.png`, fullPage: true });
    await card.getByRole('button', { name: /Réactiver/ }).click();
    await card.getByText('Alertes actives').waitFor();
    expect((await call(`${stack.api}/saved-searches`, { token: parent.token })).body.data[0].active).toBe(true);

    // « Voir les résultats » reopens /books with the saved filters: the listing is there.
    await card.getByRole('link', { name: /Voir les résultats/ }).click();
    await page.waitForURL(/\/books\?.*query=maths/);
    await page.getByText(title).first().waitFor({ timeout: 15_000 });
    expect(errors).toEqual([]);
  });

  it('changes the frequency, renames and deletes a search on « Mes recherches », then explains alerts', async () => {
    const errors: string[] = [];
    const base = stack.url('gateway');
    const member = await verifiedMember(stack, `gere${Date.now().toString(36)}`);
    const created = await eventually(async () => {
      const answer = await call(`${stack.api}/saved-searches`, {
        token: member.token,
        body: { name: 'Français 5e', frequency: 'weekly', filters: { query: 'français 5e', page: '2' } },
      });
      return answer.status === 201 ? answer.body.saved_search : undefined;
    }, 30_000);
    const me = await call(`${stack.api}/user`, { token: member.token });
    const { context, page } = await phone(errors);
    await signInContext(context, { token: member.token, user: me.body.user ?? me.body });
    await page.goto(`${base}/mes-recherches`);
    const card = page.getByTestId('saved-search').filter({ hasText: 'Français 5e' });
    await card.waitFor();

    // Frequency: weekly → daily, saved at once.
    const select = card.getByLabel('Fréquence des alertes');
    expect(await select.inputValue()).toBe('weekly');
    await select.selectOption('daily');
    await page.getByText('Fréquence des alertes modifiée').waitFor();
    await expect
      .poll(async () => (await call(`${stack.api}/saved-searches`, { token: member.token })).body.data[0].frequency)
      .toBe('daily');

    // Rename.
    await card.getByRole('button', { name: /Renommer/ }).click();
    const field = page.getByLabel('Nouveau nom');
    await field.fill('Français 5e au Gabon');
    await keepScreenshot(page, { path: `${SCREENSHOTS}/8-rename.png` });
    await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
    const renamed = page.getByTestId('saved-search').filter({ hasText: 'Français 5e au Gabon' });
    await renamed.waitFor();
    expect((await call(`${stack.api}/saved-searches`, { token: member.token })).body.data[0].name).toBe(
      'Français 5e au Gabon',
    );

    // Delete, after a confirmation; then the empty state leads to /books.
    await renamed.getByRole('button', { name: /Supprimer/ }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Supprimer cette recherche ?' });
    await confirm.waitFor();
    await keepScreenshot(page, { path: `${SCREENSHOTS}/9-delete-confirm.png` });
    await confirm.getByRole('button', { name: 'Supprimer' }).click();
    await page.getByText('Aucune recherche enregistrée').waitFor();
    expect((await call(`${stack.api}/saved-searches`, { token: member.token })).body.data).toHaveLength(0);
    await noHorizontalScroll(page);
    await expect(seriousViolations(page, { exclude: TOASTS })).resolves.toEqual([]);
    await keepScreenshot(page, { path: `${SCREENSHOTS}/10-empty.png` });
    await page.getByRole('link', { name: /Chercher un manuel/ }).click();
    await page.waitForURL('**/books');
    expect(created.id).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });
});
