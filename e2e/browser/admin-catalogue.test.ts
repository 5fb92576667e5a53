import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keepScreenshot, logInThroughForm, signedInPage, useBrowser } from '@cartable/stack/browser';
import type { CaughtMail } from '@cartable/stack/mail-catcher';
import { sharedStack } from '@cartable/stack/shared-stack';
import { call, type TestStack } from '@cartable/stack/test-stack';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The back office's catalogue screens in Chromium, on the real services (SPEC section 2 « Admin »,
 * sections 6 and 8): an admin finds a member's book, hides it with a reason (the owner is e-mailed
 * the reason, the public catalogue loses it), deletes another; manages cities (create, edit,
 * delete, a CSV import previewed then done); creates and reorders banners the home carousel then
 * shows. At 360 px the books list is cards; a member holding only cities.manage reaches the cities
 * and nothing else.
 */
const PASSWORD = 'Manuels2026';
const ADMIN = { email: 'admin@cartable.ga', password: 'Cartable2026!' };
const JOURNEY_TIMEOUT = 180_000;
const SHOTS = join(tmpdir(), 'cartable-admin-catalogue');
mkdirSync(SHOTS, { recursive: true });

let stack: TestStack;
const browser = useBrowser();
let adminToken: string;
let owner: { email: string; name: string; token: string; id: string };
const suffix = Date.now().toString(36).slice(-5);
const hiddenTitle = `Histoire-Géographie 5e ${suffix}`;
const deletedTitle = `Physique-Chimie 2nde ${suffix}`;
const keptTitle = `Anglais 4e ${suffix}`;

function linkIn(mail: CaughtMail, path: string): string {
  const found = mail.text?.match(new RegExp(`https?://\\S+${path}\\S+`));
  if (!found) throw new Error(`pas de lien ${path} dans « ${mail.subject} »`);
  return found[0];
}

/** A verified member, registered, confirmed and signed in through the API. */
async function verifiedMember(name: string) {
  const n = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
  const email = `membre.${n}@exemple.ga`;
  const registered = await call(`${stack.api}/register`, {
    body: {
      name,
      email,
      username: `m_${n}`.slice(0, 20),
      password: PASSWORD,
      password_confirmation: PASSWORD,
      country_id: 266,
      city_id: 1,
    },
  });
  expect(registered.status).toBe(201);
  const link = new URL(linkIn(await stack.mail.waitFor(email), '/verify-email'));
  expect(
    (await call(`${stack.api}/verify-email`, { body: { token: link.searchParams.get('token'), email } })).status,
  ).toBe(200);
  const login = await call(`${stack.api}/login`, { body: { email, password: PASSWORD } });
  const me = await call(`${stack.api}/user`, { token: login.body.access_token });
  return { email, name, token: login.body.access_token as string, id: (me.body.user ?? me.body).id as string };
}

async function listBook(token: string, title: string, cityId: number, categoryId: number) {
  const form = new FormData();
  const fields = { title, author: 'Collectif IPN', condition: 'bon', price: '4500', city_id: String(cityId) };
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  form.set('category_ids', String(categoryId));
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
  adminToken = (await call(`${stack.api}/login`, { body: ADMIN })).body.access_token;
  owner = await verifiedMember('Awa Nguema');
  const cities = await call(`${stack.api}/locations/cities?country_id=266`);
  const libreville = (cities.body.cities as Array<{ id: number; name: string }>).find((c) => c.name === 'Libreville');
  const hierarchy = await call(`${stack.api}/categories/hierarchy`);
  const categoryId = hierarchy.body.categories?.[0]?.id ?? 1;
  for (const title of [hiddenTitle, deletedTitle, keptTitle])
    await listBook(owner.token, title, libreville!.id, categoryId);
}, JOURNEY_TIMEOUT);

const pageOptions = (width: number) => ({ viewport: { width, height: width < 600 ? 800 : 900 }, locale: 'fr-FR' });

async function newPage(width = 1366): Promise<Page> {
  const context = await browser().newContext(pageOptions(width));
  return context.newPage();
}

const logIn = (page: Page, email: string, password: string) =>
  logInThroughForm(page, stack.url('gateway'), email, password);

/** A page signed in as this member (the login form is the accounts journey's subject). */
const signedIn = (width: number, email: string, password: string) =>
  signedInPage(browser(), stack.url('gateway'), { email, password }, pageOptions(width));

/** The page's width as the browser lays it out (evaluated there: no DOM types here). */
const noHorizontalScroll = async (page: Page, width: number) =>
  (await page.evaluate<number>('document.documentElement.scrollWidth')) <= width;

describe('the back office’s catalogue', () => {
  let admin: Page;
  beforeAll(async () => {
    admin = await newPage(1366);
    await logIn(admin, ADMIN.email, ADMIN.password);
  }, JOURNEY_TIMEOUT);

  it(
    'finds a book, hides it with a reason the owner receives, and the public catalogue loses it; deletes another',
    async () => {
      await admin.goto(`${stack.url('gateway')}/admin/books`);
      await admin.getByRole('heading', { level: 1, name: 'Gestion des livres' }).waitFor();
      await admin.getByLabel('Rechercher').fill(hiddenTitle);
      await admin.waitForURL((url) => url.searchParams.get('search') === hiddenTitle);
      const row = admin.getByTestId('book-row').filter({ hasText: hiddenTitle });
      await row.waitFor();
      // The previous page stays on screen while the search loads.
      await expect.poll(() => admin.getByTestId('book-row').count()).toBe(1);
      expect(await row.getByRole('link', { name: owner.name }).getAttribute('href')).toBe(`/admin/users/${owner.id}`);
      await row.getByText('4 500').waitFor();
      expect(await noHorizontalScroll(admin, 1366)).toBe(true);

      // Hide, with the reason refused when too short.
      await row.getByRole('button', { name: `Masquer ${hiddenTitle}` }).click();
      const dialog = admin.getByRole('dialog', { name: 'Masquer l’annonce' });
      await dialog.getByLabel(/Motif/).fill('abc');
      await dialog.getByTestId('book-action-confirm').click();
      await dialog.getByText('Le motif doit contenir au moins 5 caractères').waitFor();
      const reason = 'Photos reprises d’une autre annonce';
      await dialog.getByLabel(/Motif/).fill(reason);
      await dialog.getByTestId('book-action-confirm').click();
      await admin.getByText('Annonce masquée avec succès').waitFor();
      await row.getByText('Masquée').waitFor();
      await keepScreenshot(admin, { path: join(SHOTS, 'books-1366.png'), fullPage: true });

      const mail = await stack.mail.waitFor(owner.email, { subject: 'Votre annonce a été masquée' });
      expect(mail.subject).toContain(hiddenTitle);
      expect(mail.text).toContain(`Motif : ${reason}`);

      // The public catalogue: the owner's other book is there, the hidden one is not; its page is gone.
      const visitor = await newPage(1280);
      await visitor.goto(`${stack.url('gateway')}/books`);
      const found = visitor.getByRole('region', { name: /trouvés?$/ });
      await found.getByRole('link', { name: keptTitle }).waitFor();
      expect(await found.getByRole('link', { name: hiddenTitle }).count()).toBe(0);
      const search = await call(`${stack.api}/books/search?query=${encodeURIComponent(hiddenTitle)}`);
      expect(search.body.data.map((b: { title: string }) => b.title)).not.toContain(hiddenTitle);
      // The owner still has it, with the state and the reason.
      const mine = await call(`${stack.api}/user/books`, { token: owner.token });
      expect(mine.body.data.find((b: { title: string }) => b.title === hiddenTitle)).toMatchObject({
        hidden: true,
        hidden_reason: reason,
      });

      // Delete the second one, with a reason and the confirmation.
      await admin.getByLabel('Rechercher').fill(deletedTitle);
      const other = admin.getByTestId('book-row').filter({ hasText: deletedTitle });
      await other.waitFor();
      await other.getByRole('button', { name: `Supprimer ${deletedTitle}` }).click();
      const confirm = admin.getByRole('alertdialog', { name: 'Supprimer l’annonce' });
      await confirm.getByLabel(/Motif/).fill('Contrefaçon signalée par un éditeur');
      await confirm.getByRole('button', { name: 'Supprimer définitivement' }).click();
      await admin.getByText('Annonce supprimée avec succès').waitFor();
      await admin.getByText('Aucune annonce ne correspond à ces critères').waitFor();
      await stack.mail.waitFor(owner.email, { subject: 'Votre annonce a été supprimée' });
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'creates, edits and deletes a city, refuses to delete a used one, previews a CSV import then imports it',
    async () => {
      const name = `Nzeng ${suffix}`;
      await admin.goto(`${stack.url('gateway')}/admin/cities`);
      await admin.getByRole('heading', { level: 1, name: 'Gestion des villes' }).waitFor();
      await admin.getByRole('button', { name: 'Nouvelle ville' }).first().click();
      const create = admin.getByRole('dialog', { name: 'Nouvelle ville' });
      await create.getByLabel('Nom').fill(name);
      await create.getByLabel('Province').fill('Estuaire');
      await create.getByText('Ville principale').click();
      await create.getByRole('button', { name: 'Créer la ville' }).click();
      await admin.getByText(`Ville ${name} créée avec succès`).waitFor();

      await admin.getByLabel('Rechercher').fill(name);
      const row = admin.getByTestId('city-row').filter({ hasText: name });
      await row.getByText('Principale').waitFor();
      await row.getByRole('button', { name: `Modifier ${name}` }).click();
      const edit = admin.getByRole('dialog', { name: `Modifier ${name}` });
      await edit.getByLabel('Nom').fill(`${name} Village`);
      await edit.getByRole('button', { name: 'Enregistrer' }).click();
      await admin.getByText(`Ville ${name} Village modifiée avec succès`).waitFor();
      await admin.getByLabel('Rechercher').fill(`${name} Village`);
      const renamed = admin.getByTestId('city-row').filter({ hasText: `${name} Village` });
      await renamed.getByRole('button', { name: `Supprimer ${name} Village` }).click();
      await admin.getByRole('alertdialog').getByRole('button', { name: 'Supprimer' }).click();
      await admin.getByText('Ville supprimée avec succès').waitFor();

      // Libreville holds listings: the server's 409 shows as an error toast.
      await admin.getByLabel('Rechercher').fill('Libreville');
      await admin
        .getByTestId('city-row')
        .filter({ hasText: 'Libreville' })
        .getByRole('button', { name: 'Supprimer Libreville' })
        .click();
      await admin.getByRole('alertdialog').getByRole('button', { name: 'Supprimer' }).click();
      await admin.getByText(/Impossible de supprimer Libreville : la ville est utilisée par/).waitFor();

      // CSV import: the preview shows what would go in and why a line is refused; nothing is written.
      await admin.getByRole('button', { name: 'Importer (CSV)' }).click();
      const importing = admin.getByRole('dialog', { name: 'Importer des villes (CSV)' });
      expect(await importing.getByLabel('Pays').inputValue()).toBe('266');
      const csv = [
        'name;province;is_major',
        `Akok ${suffix};Estuaire;oui`,
        'Libreville;Estuaire;',
        `Bolossoville ${suffix};Ngounié;`,
      ].join('\n');
      await importing
        .getByLabel('Fichier CSV')
        .setInputFiles({ name: 'villes.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await importing.getByRole('button', { name: 'Prévisualiser' }).click();
      await importing.getByText('Prévisualisation').waitFor();
      expect(await importing.getByTestId('import-line').count()).toBe(2);
      const rejected = importing.getByTestId('import-rejected');
      await rejected.getByText('Libreville existe déjà').waitFor();
      await rejected.getByText('Libreville;Estuaire;').waitFor();
      const before = await call(`${stack.api}/cities?search=${encodeURIComponent(`Akok ${suffix}`)}`);
      expect(before.body.total).toBe(0);
      await keepScreenshot(admin, { path: join(SHOTS, 'cities-import-1366.png'), fullPage: true });
      await importing.getByRole('button', { name: 'Importer 2 villes' }).click();
      await importing.getByText('Import terminé').waitFor();
      await admin.getByText('2 villes importées avec succès').waitFor();
      await importing.getByRole('button', { name: 'Fermer' }).last().click();
      await admin.getByLabel('Rechercher').fill(`Akok ${suffix}`);
      await admin
        .getByTestId('city-row')
        .filter({ hasText: `Akok ${suffix}` })
        .getByText('Principale')
        .waitFor();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'creates two banners with their images, reorders them, and the home carousel shows them in that order',
    async () => {
      const image = await sharp({ create: { width: 1600, height: 500, channels: 3, background: '#009E60' } })
        .png()
        .toBuffer();
      await admin.goto(`${stack.url('gateway')}/admin/banners`);
      await admin.getByRole('heading', { level: 1, name: 'Bannières' }).waitFor();
      const titles = [`Rentrée ${suffix}`, `Vendez vos manuels ${suffix}`];
      for (const title of titles) {
        await admin.getByRole('button', { name: 'Nouvelle bannière' }).first().click();
        const form = admin.getByRole('dialog', { name: 'Nouvelle bannière' });
        await form.getByLabel(/^Image/).setInputFiles({ name: 'banniere.png', mimeType: 'image/png', buffer: image });
        await form.getByRole('img', { name: 'Aperçu de la bannière' }).waitFor();
        await form.getByLabel('Titre', { exact: true }).fill(title);
        await form.getByLabel('Sous-titre (facultatif)').fill('Des manuels à petit prix');
        await form.getByLabel('Texte du bouton (facultatif)').fill('Voir');
        await form.getByLabel('Lien du bouton (facultatif)').fill('http://exemple.ga');
        await form.getByRole('button', { name: 'Créer la bannière' }).click();
        await form.getByText('Lien interne (/books…) ou https:// attendu').waitFor();
        await form.getByLabel('Lien du bouton (facultatif)').fill('/books');
        await form.getByRole('button', { name: 'Créer la bannière' }).click();
        await admin.getByText('Bannière créée avec succès').last().waitFor();
        await admin.getByTestId('banner-row').filter({ hasText: title }).waitFor();
      }
      // The second one up to the top, one step at a time, by keyboard.
      const second = admin.getByTestId('banner-row').filter({ hasText: titles[1]! });
      const position = async () =>
        (await admin.getByTestId('banner-row').allTextContents()).findIndex((text) => text.includes(titles[1]!));
      while (await second.getByRole('button', { name: `Monter ${titles[1]}` }).isEnabled()) {
        const before = await position();
        await second.getByRole('button', { name: `Monter ${titles[1]}` }).focus();
        await admin.keyboard.press('Enter');
        await admin.getByText('Ordre des bannières enregistré').last().waitFor();
        // The list shows the new order before the next step.
        await expect.poll(position).toBeLessThan(before);
      }
      await keepScreenshot(admin, { path: join(SHOTS, 'banners-1366.png'), fullPage: true });
      const active = await call(`${stack.api}/banners/active`);
      expect(active.headers.get('cache-control')).toBe('no-cache');
      const order = active.body.banners.map((b: { title: string }) => b.title);
      expect(order[0]).toBe(titles[1]);
      expect(order.indexOf(titles[0])).toBeGreaterThan(0);

      const home = await newPage(1280);
      await home.goto(`${stack.url('gateway')}/`);
      await home
        .locator(`[aria-roledescription="diapositive"][aria-label^="1 sur "][aria-label$=": ${titles[1]}"]`)
        .waitFor({
          state: 'attached',
        });
      await home
        .locator(`[aria-roledescription="diapositive"][aria-label$=": ${titles[0]}"]`)
        .waitFor({ state: 'attached' });
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'shows books as cards at 360 px, without horizontal scrolling',
    async () => {
      const phone = await signedIn(360, ADMIN.email, ADMIN.password);
      await phone.goto(`${stack.url('gateway')}/admin/books`);
      await phone.getByTestId('book-card').filter({ hasText: keptTitle }).waitFor();
      expect(await phone.getByTestId('book-row').first().isVisible()).toBe(false);
      expect(await noHorizontalScroll(phone, 360)).toBe(true);
      await keepScreenshot(phone, { path: join(SHOTS, 'books-360.png'), fullPage: true });
    },
    JOURNEY_TIMEOUT,
  );
});

describe('a member holding only cities.manage', () => {
  it(
    'reaches the cities, reads in French which permission books and banners need, and the API refuses them',
    async () => {
      const member = await verifiedMember('Paul Mba');
      const granted = await call(`${stack.api}/admin/users/${member.id}/permissions`, {
        method: 'PUT',
        body: { permissions: ['cities.manage'] },
        token: adminToken,
      });
      expect(granted.status).toBe(200);
      const login = await call(`${stack.api}/login`, { body: { email: member.email, password: PASSWORD } });
      const token = login.body.access_token as string;
      expect((await call(`${stack.api}/admin/cities?per_page=1`, { token })).status).toBe(200);
      expect((await call(`${stack.api}/admin/books`, { token })).status).toBe(403);
      expect((await call(`${stack.api}/banners`, { token })).status).toBe(403);

      const page = await signedIn(1366, member.email, PASSWORD);
      await page.goto(`${stack.url('gateway')}/admin/cities`);
      await page.getByRole('heading', { level: 1, name: 'Gestion des villes' }).waitFor();
      for (const [path, permission] of [
        ['/admin/books', 'Gérer tous les livres'],
        ['/admin/banners', 'Gérer les bannières'],
      ]) {
        await page.goto(`${stack.url('gateway')}${path}`);
        await page.getByText(`Cet écran demande la permission « ${permission} »`, { exact: false }).waitFor();
      }
    },
    JOURNEY_TIMEOUT,
  );
});
