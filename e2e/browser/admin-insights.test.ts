import { keepScreenshot, noHorizontalScroll, signedInPage, useBrowser } from '@cartable/stack/browser';
import { firstMessage, listBook, verifiedMember } from '@cartable/stack/members';
import { sharedStack } from '@cartable/stack/shared-stack';
import { call, eventually, type TestStack } from '@cartable/stack/test-stack';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The back office's figures and trees in Chromium, on the real services: the dashboard and
 * Rapports (reports.view) with figures that move when members act, the categories screen
 * (categories.update), comment moderation at 1366 px; as an admin, as a member holding just the
 * screen's permission, and as a plain member refused. Every screen is checked at 360 px and
 * 1366 px for horizontal scrolling.
 */
const ADMIN = { email: 'admin@cartable.ga', password: 'Cartable2026!' };
const JOURNEY = 150_000;
const MISSED = 'annales bepc introuvables';

let stack: TestStack;
const browser = useBrowser();
let adminToken: string;
let seller: { email: string; token: string; id: string };
let reader: { email: string; token: string; id: string };
let bookId: number;
const bookTitle = 'Mathématiques 5e – Collection Excellence';

beforeAll(async () => {
  stack = sharedStack();
  adminToken = (await call(`${stack.api}/login`, { body: ADMIN })).body.access_token;
  const n = Date.now().toString(36);
  [seller, reader] = await Promise.all([verifiedMember(stack, `vend${n}`), verifiedMember(stack, `lect${n}`)]);
  bookId = await listBook(stack, seller.token, bookTitle);
  // A listing filed under a level and a subject, for the supply report.
  const flat = (await call(`${stack.api}/categories`)).body.categories as Array<{ id: number; name: string }>;
  const idOf = (name: string) => flat.find((c) => c.name === name)?.id;
  const form = new FormData();
  for (const [key, value] of Object.entries({
    title: 'Physique-Chimie 5e',
    author: 'IPN',
    condition: 'bon',
    price: '2500',
    city_id: String((await call(`${stack.api}/locations/cities/search?q=libreville`)).body.cities[0].id),
    category_ids: `${idOf('Physique-Chimie')},${idOf('5e')}`,
  }))
    form.set(key, value);
  const listed = await fetch(`${stack.api}/books`, {
    method: 'POST',
    headers: { authorization: `Bearer ${seller.token}` },
    body: form,
  });
  expect(listed.status).toBe(201);
  // A pending comment (neither admin nor owner), a message, a search that finds nothing.
  const comment = await call(`${stack.api}/books/${bookId}/comments`, {
    token: reader.token,
    body: { content: 'Le corrigé est-il inclus ?' },
  });
  expect(comment.status).toBe(201);
  const sent = await firstMessage(stack, reader.token, {
    receiver_id: seller.id,
    book_id: bookId,
    content: 'Bonjour, toujours disponible ?',
  });
  expect(sent.status).toBe(201);
  expect((await call(`${stack.api}/books?query=${encodeURIComponent(MISSED)}`)).body.total).toBe(0);
}, 180_000);

const pageOptions = (width: number) => ({ viewport: { width, height: width < 600 ? 800 : 900 }, locale: 'fr-FR' });

/** A page signed in as this member (the login form is the accounts journey's subject). */
const signedIn = (width: number, email: string, password: string) =>
  signedInPage(browser(), stack.url('gateway'), { email, password }, pageOptions(width));

async function grant(userId: string, permissions: string[]) {
  const answer = await call(`${stack.api}/admin/users/${userId}/permissions`, {
    method: 'PUT',
    token: adminToken,
    body: { permissions },
  });
  expect(answer.status).toBe(200);
}

describe('figures API', () => {
  it('answers reports.view holders with figures that count what members did, and refuses others', async () => {
    const owners = ['members', 'catalog', 'messaging', 'moderation'];
    for (const owner of owners) {
      expect((await call(`${stack.api}/admin/stats/${owner}`, { token: reader.token })).status).toBe(403);
      expect((await call(`${stack.api}/admin/stats/${owner}`)).status).toBe(401);
      const bad = await call(`${stack.api}/admin/stats/${owner}?from=2026-02-30`, { token: adminToken });
      expect(bad.status).toBe(422);
      expect(bad.body.errors.from[0]).toBe('Cette date n’existe pas.');
    }
    const members = await call(`${stack.api}/admin/stats/members`, { token: adminToken });
    expect(members.status).toBe(200);
    expect(members.body.total).toBeGreaterThanOrEqual(3);
    expect(members.body.this_week.current).toBeGreaterThanOrEqual(2);
    expect(members.body.signups_per_day).toHaveLength(30);
    const catalog = await call(`${stack.api}/admin/stats/catalog`, { token: adminToken });
    expect(catalog.body.listings.current).toBeGreaterThanOrEqual(1);
    expect(catalog.body.top_cities[0].name).toBe('Libreville');
    expect(catalog.body.search_misses.map((m: { query: string }) => m.query)).toContain(MISSED);
    const messaging = await eventually(async () => {
      const answer = await call(`${stack.api}/admin/stats/messaging`, { token: adminToken });
      return answer.body.messages.current >= 1 ? answer : undefined;
    });
    expect(messaging.body.conversations.current).toBeGreaterThanOrEqual(1);
    const moderation = await call(`${stack.api}/admin/stats/moderation`, { token: adminToken });
    expect(moderation.body.pending_comments).toBeGreaterThanOrEqual(1);
  });
});

describe('dashboard and reports', () => {
  it(
    'shows the admin real figures with charts at 1366 px and 360 px, tiles leading to their screens',
    async () => {
      const page = await signedIn(1366, ADMIN.email, ADMIN.password);
      await page.goto(`${stack.url('gateway')}/admin`);
      await page.waitForURL('**/admin/dashboard');
      await page.getByRole('heading', { level: 1, name: 'Tableau de bord' }).waitFor();
      await page.getByTestId('stat-pending-comments').waitFor();
      expect(
        Number((await page.getByTestId('stat-pending-comments').textContent())?.replace(/\s/g, '')),
      ).toBeGreaterThanOrEqual(1);
      expect(Number((await page.getByTestId('stat-members').textContent())?.replace(/\s/g, ''))).toBeGreaterThanOrEqual(
        3,
      );
      // uPlot draws on a canvas once loaded.
      await page.getByTestId('chart-listings').locator('canvas').first().waitFor();
      await page.getByTestId('top-cities').getByRole('link', { name: 'Libreville' }).waitFor();
      // What families look for on the class lists and nobody offers (none saved here yet).
      await page
        .getByTestId('shortages')
        .getByText(/Aucune demande des familles|les plus recherchés et les moins proposés/)
        .waitFor();
      await noHorizontalScroll(page);
      await keepScreenshot(page, { path: '/tmp/admin-dashboard-1366.png', fullPage: true });
      await page.getByRole('link', { name: /Commentaires en attente/ }).click();
      await page.waitForURL('**/admin/comments');

      const phone = await signedIn(360, ADMIN.email, ADMIN.password);
      await phone.goto(`${stack.url('gateway')}/admin/dashboard`);
      await phone.getByTestId('stat-members').waitFor();
      await phone.getByTestId('chart-messages').locator('canvas').first().waitFor();
      await noHorizontalScroll(phone);
      await keepScreenshot(phone, { path: '/tmp/admin-dashboard-360.png', fullPage: true });
    },
    JOURNEY,
  );

  it(
    'reports a chosen period, exports it as CSV, and lists what was searched and not found',
    async () => {
      const page = await signedIn(1366, ADMIN.email, ADMIN.password);
      await page.goto(`${stack.url('gateway')}/admin/reports`);
      await page.getByRole('heading', { level: 1, name: 'Rapports' }).waitFor();
      await page.getByRole('button', { name: '7 jours' }).click();
      await page.waitForURL(/from=\d{4}-\d{2}-\d{2}/);
      await page.getByTestId('search-misses').getByText(MISSED).waitFor();
      const supply = page.getByTestId('supply').getByRole('row').filter({ hasText: 'Physique-Chimie' });
      await supply.getByRole('cell', { name: '5e' }).waitFor();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Exporter en CSV' }).click(),
      ]);
      const file = await download.path();
      const { readFileSync } = await import('node:fs');
      const csv = readFileSync(file, 'utf8');
      expect(csv.split('\r\n')[0]).toBe(
        '\uFEFFJour;Inscriptions;Nouvelles annonces;Conversations;Messages;Commentaires;Messages de contact',
      );
      expect(csv.trim().split('\r\n')).toHaveLength(8);
      await page.getByText('Rapport exporté avec succès').waitFor();
      // A reversed period is refused in the form.
      await page.getByLabel('Du', { exact: true }).fill('2026-11-20');
      await page.getByLabel('Au', { exact: true }).fill('2026-11-01');
      await page.getByText('La date de fin doit suivre la date de début.').waitFor();
      expect(await page.getByRole('button', { name: 'Afficher' }).isDisabled()).toBe(true);
      await noHorizontalScroll(page);
    },
    JOURNEY,
  );

  it(
    'lets a member holding only reports.view reach the figures and nothing else; a plain member is sent home',
    async () => {
      const analyst = await verifiedMember(stack, `anal${Date.now().toString(36)}`);
      await grant(analyst.id, ['reports.view']);
      const page = await signedIn(1366, analyst.email, 'Cartable1a');
      await page.goto(`${stack.url('gateway')}/admin/reports`);
      await page.getByRole('heading', { level: 1, name: 'Rapports' }).waitFor();
      const menu = page.getByRole('navigation', { name: 'Administration' });
      // SPEC section 6: the dashboard, plans, banners, contacts and comments always; the rest by permission.
      expect(await menu.getByRole('link').allTextContents()).toEqual([
        'Tableau de bord',
        "Plans d'abonnement",
        'Rapports',
        'Bannières',
        'Messages de contact',
        'Modération des commentaires',
      ]);
      // A screen he may not use says so where he asked for it.
      for (const [path, title] of [
        ['categories', 'Gestion des Cycles, Niveaux et Matières'],
        ['comments', 'Modération des commentaires'],
        ['contacts', 'Messages de contact'],
        ['books', 'Gestion des livres'],
      ]) {
        await page.goto(`${stack.url('gateway')}/admin/${path}`);
        await page.getByRole('heading', { level: 1, name: title }).waitFor();
        await page.getByText('Accès refusé').waitFor();
        expect(new URL(page.url()).pathname, path).toBe(`/admin/${path}`);
      }
      await page.goto(`${stack.url('gateway')}/admin/nowhere`);
      await page.waitForURL('**/admin/dashboard');
      // The API agrees (a token issued after the grant).
      const token = (await call(`${stack.api}/login`, { body: { email: analyst.email, password: 'Cartable1a' } })).body
        .access_token;
      expect((await call(`${stack.api}/admin/stats/catalog`, { token })).status).toBe(200);
      expect((await call(`${stack.api}/admin/categories/stats`, { token })).status).toBe(403);
      expect((await call(`${stack.api}/admin/contacts`, { token })).status).toBe(403);

      const plain = await signedIn(1366, reader.email, 'Cartable1a');
      await plain.goto(`${stack.url('gateway')}/admin/dashboard`);
      await plain.waitForURL((url) => url.pathname === '/');
    },
    JOURNEY,
  );
});

describe('categories', () => {
  it(
    'creates, renames, reorders and deletes a category from the tree; a categories.update holder manages it too',
    async () => {
      const page = await signedIn(1366, ADMIN.email, ADMIN.password);
      await page.goto(`${stack.url('gateway')}/admin/categories`);
      await page.getByRole('heading', { level: 1, name: 'Gestion des Cycles, Niveaux et Matières' }).waitFor();
      await page.getByRole('button', { name: 'Déplier Collège' }).waitFor();

      // A new root.
      await page.getByRole('button', { name: 'Nouvelle catégorie' }).click();
      const dialog = page.getByRole('dialog', { name: 'Nouvelle catégorie' });
      await dialog.getByLabel('Nom').fill('x');
      await dialog.getByRole('button', { name: 'Créer la catégorie' }).click();
      await dialog.getByText('Le nom doit contenir au moins 2 caractères').waitFor();
      await dialog.getByLabel('Nom').fill('Formation professionnelle');
      await dialog.getByRole('button', { name: 'Créer la catégorie' }).click();
      await page.getByText('Catégorie créée avec succès').first().waitFor();
      await page.getByRole('button', { name: 'Renommer Formation professionnelle' }).waitFor();

      // Renamed.
      await page.getByRole('button', { name: 'Renommer Formation professionnelle' }).click();
      const rename = page.getByRole('dialog', { name: /Renommer/ });
      await rename.getByLabel('Nom').fill('Enseignement technique');
      await rename.getByRole('button', { name: 'Renommer' }).click();
      await page.getByRole('button', { name: 'Supprimer Enseignement technique' }).waitFor();

      // Moved down one place among the roots.
      const rootsBefore = await page
        .getByRole('button', { name: /^Supprimer / })
        .evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')));
      await page.getByRole('button', { name: 'Descendre Enseignement technique' }).click();
      await page.getByText('Ordre enregistré avec succès').waitFor();
      await eventually(async () => {
        const after = await page
          .getByRole('button', { name: /^Supprimer / })
          .evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')));
        return after.indexOf('Supprimer Enseignement technique') ===
          rootsBefore.indexOf('Supprimer Enseignement technique') + 1
          ? true
          : undefined;
      });

      // A used category cannot be deleted: the server's French reason is shown.
      await page.getByRole('button', { name: 'Supprimer Collège' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Supprimer' }).click();
      await page.getByText('Impossible de supprimer une catégorie qui a des sous-catégories.').waitFor();

      // Deleted after confirmation.
      await page.getByRole('button', { name: 'Supprimer Enseignement technique' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Supprimer' }).click();
      await page.getByText('Catégorie supprimée avec succès').waitFor();
      await eventually(async () =>
        (await page.getByRole('button', { name: 'Supprimer Enseignement technique' }).count()) === 0 ? true : undefined,
      );
      await noHorizontalScroll(page);

      // At 360 px, the tree keeps within the screen.
      const phone = await signedIn(360, ADMIN.email, ADMIN.password);
      await phone.goto(`${stack.url('gateway')}/admin/categories`);
      await phone.getByRole('button', { name: 'Déplier Collège' }).waitFor();
      await noHorizontalScroll(phone);
      await keepScreenshot(phone, { path: '/tmp/admin-categories-360.png', fullPage: true });

      // A member holding categories.update: the screen, without the admin-only parent changes.
      const editor = await verifiedMember(stack, `cate${Date.now().toString(36)}`);
      await grant(editor.id, ['categories.update']);
      const editorPage = await signedIn(1366, editor.email, 'Cartable1a');
      await editorPage.goto(`${stack.url('gateway')}/admin/categories`);
      await editorPage.getByRole('button', { name: 'Renommer Collège' }).waitFor();
      expect(await editorPage.getByRole('button', { name: 'Ajouter un parent à Collège' }).count()).toBe(0);
      expect(await editorPage.getByRole('button', { name: 'Déplacer Collège' }).count()).toBe(0);
      await editorPage.goto(`${stack.url('gateway')}/admin/reports`);
      await editorPage.getByText('Accès refusé').waitFor();
    },
    JOURNEY,
  );
});

describe('comment moderation', () => {
  it(
    'fits 1366 px with the book title and a link to the author’s admin page',
    async () => {
      const page = await signedIn(1366, ADMIN.email, ADMIN.password);
      await page.goto(`${stack.url('gateway')}/admin/comments`);
      const row = page.getByTestId('pending-comment').filter({ hasText: 'Le corrigé est-il inclus ?' });
      await row.getByRole('link', { name: bookTitle }).waitFor();
      const reject = row.getByRole('button', { name: /^Rejeter/ });
      const box = await reject.boundingBox();
      expect(box && box.x + box.width).toBeLessThanOrEqual(1366);
      await noHorizontalScroll(page);
      expect(await row.getByRole('link').first().getAttribute('href')).toBe(`/admin/users/${reader.id}`);
    },
    JOURNEY,
  );
});
