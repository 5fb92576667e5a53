import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keepScreenshot, noHorizontalScroll, signedInPage, useBrowser } from '@cartable/stack/browser';
import { listBook, verifiedMember } from '@cartable/stack/members';
import { sharedStack } from '@cartable/stack/shared-stack';
import { call, type TestStack } from '@cartable/stack/test-stack';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * Members and roles in the back office, in Chromium on the real services: an admin at 1366 px
 * finds a member, promotes and revokes them, deactivates them (their login is then refused) and
 * reads the trail; creates a role, gives it to a member and deletes it with confirmation; the
 * users list shows cards at 360 px; a member holding only users.view.any reads but cannot
 * change anything and is kept out of /admin/roles; a plain member is sent home.
 */
const ADMIN = { email: 'admin@cartable.ga', password: 'Cartable2026!' };
const JOURNEY = 150_000;
const SHOTS = join(tmpdir(), 'cartable-admin-accounts');
mkdirSync(SHOTS, { recursive: true });

let stack: TestStack;
const browser = useBrowser();
let adminToken: string;
type Member = Awaited<ReturnType<typeof verifiedMember>>;
let target: Member;
let holder: Member;
let viewer: Member;
let plain: Member;
const n = Date.now().toString(36);

beforeAll(async () => {
  stack = sharedStack();
  adminToken = (await call(`${stack.api}/login`, { body: ADMIN })).body.access_token;
  [target, holder, viewer, plain] = await Promise.all([
    verifiedMember(stack, `cible${n}`),
    verifiedMember(stack, `porteur${n}`),
    verifiedMember(stack, `lecteur${n}`),
    verifiedMember(stack, `simple${n}`),
  ]);
  await listBook(stack, target.token, 'Français 6e – Cahier d’activités');
  const granted = await call(`${stack.api}/admin/users/${viewer.id}/permissions`, {
    method: 'PUT',
    token: adminToken,
    body: { permissions: ['users.view.any'] },
  });
  expect(granted.status).toBe(200);
}, 180_000);

const pageOptions = (width: number) => ({ viewport: { width, height: width < 600 ? 800 : 900 }, locale: 'fr-FR' });

async function newPage(width: number): Promise<Page> {
  const context = await browser().newContext(pageOptions(width));
  return context.newPage();
}

/** A page signed in as this member (the login form is the accounts journey's subject). */
const signedIn = (width: number, email: string, password: string) =>
  signedInPage(browser(), stack.url('gateway'), { email, password }, pageOptions(width));

const nameOf = (who: Member) => who.name;

describe('members in the back office', () => {
  it(
    'finds a member, promotes and revokes them, deactivates them (login refused) and shows the trail',
    async () => {
      const page = await signedIn(1366, ADMIN.email, ADMIN.password);
      await page.goto(`${stack.url('gateway')}/admin/users`);
      await page.getByRole('heading', { level: 1, name: 'Gestion des utilisateurs' }).waitFor();
      await page.getByTestId('user-row').first().waitFor();
      await noHorizontalScroll(page);

      // The search goes to the URL once typing stops.
      await page.getByLabel('Rechercher').fill(`cible${n}`);
      await page.waitForURL(/search=cible/);
      const row = page.getByTestId('user-row').filter({ hasText: target.email });
      await row.waitFor();
      // The previous page stays on screen until the filtered one arrives.
      await expect.poll(() => page.getByTestId('user-row').count()).toBe(1);
      await row.getByRole('link', { name: nameOf(target), exact: true }).click();
      await page.waitForURL(`**/admin/users/${target.id}`);
      await page.getByRole('heading', { level: 1, name: nameOf(target) }).waitFor();
      // Their listing, from catalog's back office.
      await page.getByRole('link', { name: 'Français 6e – Cahier d’activités', exact: true }).waitFor();

      // Promote, then revoke, each confirmed.
      await page.getByRole('button', { name: 'Promouvoir administrateur' }).click();
      const promote = page.getByRole('alertdialog', { name: 'Promouvoir administrateur ?' });
      await promote.getByRole('button', { name: 'Promouvoir' }).click();
      await page.getByText('Cet utilisateur est maintenant administrateur.').waitFor();
      await expect.poll(() => page.getByRole('alertdialog').count()).toBe(0);
      await page.getByRole('button', { name: 'Retirer les droits d’admin' }).click();
      await page
        .getByRole('alertdialog', { name: 'Retirer les droits d’administrateur ?' })
        .getByRole('button', { name: 'Retirer' })
        .click();
      await page.getByText("Cet utilisateur n'est plus administrateur.").waitFor();

      // Deactivate: a reason is required. The previous confirmation must be gone first: a click
      // while it is still closing can land on its overlay (seen once on a loaded CI machine).
      await expect.poll(() => page.getByRole('alertdialog').count()).toBe(0);
      await page.getByRole('button', { name: 'Désactiver le compte' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Désactiver ce compte ?' });
      await dialog.getByRole('button', { name: 'Désactiver' }).click();
      await dialog.getByText('Le motif doit contenir au moins 2 caractères').waitFor();
      await dialog.getByLabel(/Motif/).fill('Annonces en double signalées');
      await dialog.getByRole('button', { name: 'Désactiver' }).click();
      await page.getByText('Compte désactivé avec succès').waitFor();
      await page.getByText(/Compte désactivé le/).waitFor();
      await page.getByRole('button', { name: 'Réactiver le compte' }).waitFor();

      // The trail, newest first, in French, with who did it.
      const trail = page.getByTestId('audit-entry');
      await trail.filter({ hasText: 'Compte désactivé (motif : Annonces en double signalées)' }).waitFor();
      expect(await trail.allInnerTexts()).toEqual([
        expect.stringContaining('Compte désactivé'),
        expect.stringContaining('Droits d’administrateur retirés'),
        expect.stringContaining('Promu administrateur'),
      ]);
      expect(await trail.first().getByRole('link').getAttribute('href')).toMatch(/^\/admin\/users\//);
      await noHorizontalScroll(page);
      await keepScreenshot(page, { path: join(SHOTS, 'user-detail-1366.png'), fullPage: true });

      // The member's open token is refused, and their login too.
      expect((await call(`${stack.api}/user`, { token: target.token })).status).toBe(401);
      const member = await newPage(1366);
      await member.goto(`${stack.url('gateway')}/login`);
      await member.getByLabel('Adresse email').fill(target.email);
      await member.getByLabel('Mot de passe', { exact: true }).fill('Cartable1a');
      await member.getByRole('button', { name: 'Se connecter' }).click();
      await member.getByText('Ce compte a été désactivé. Contactez le support.').first().waitFor();
      expect(new URL(member.url()).pathname).toBe('/login');

      // The list filters deactivated accounts.
      await page.goto(`${stack.url('gateway')}/admin/users?status=deactivated`);
      await page.getByTestId('user-row').filter({ hasText: target.email }).waitFor();
      await expect.poll(() => page.getByTestId('user-row').count()).toBe(1);
    },
    JOURNEY,
  );

  it(
    'creates a role with a permission, gives it to a member, and deletes it after confirming',
    async () => {
      const page = await signedIn(1366, ADMIN.email, ADMIN.password);
      await page.goto(`${stack.url('gateway')}/admin/roles`);
      await page.getByRole('heading', { level: 1, name: 'Gestion des rôles' }).waitFor();
      await page.getByTestId('role-row').first().waitFor();

      await page.getByRole('button', { name: 'Nouveau rôle' }).click();
      const form = page.getByRole('dialog', { name: 'Nouveau rôle' });
      await form.getByLabel('Nom').fill('Analyste');
      await form.getByLabel('Identifiant').fill('analyste');
      await form.getByLabel('Voir les rapports').check();
      await form.getByRole('button', { name: 'Créer le rôle' }).click();
      await page.getByText('Rôle créé avec succès').waitFor();
      const roleRow = page.getByTestId('role-row').filter({ hasText: 'analyste' });
      await roleRow.getByText('Voir les rapports').waitFor();
      await noHorizontalScroll(page);

      // Given to a member from their page.
      await page.goto(`${stack.url('gateway')}/admin/users/${holder.id}`);
      await page.getByRole('heading', { level: 1, name: nameOf(holder) }).waitFor();
      await page.getByLabel('Analyste').check();
      await page.getByRole('button', { name: 'Enregistrer les rôles' }).click();
      await page.getByText('Rôles mis à jour.').waitFor();
      await page.getByTestId('audit-entry').filter({ hasText: 'Rôles modifiés : aucun → Analyste' }).waitFor();

      // Held by one member: the confirmation says it will be taken from them.
      await page.goto(`${stack.url('gateway')}/admin/roles`);
      await roleRow.getByRole('button', { name: /Voir les 1 membre/ }).waitFor();
      await keepScreenshot(page, { path: join(SHOTS, 'roles-1366.png'), fullPage: true });
      await roleRow.getByRole('button', { name: 'Supprimer le rôle Analyste' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Supprimer ce rôle ?' });
      await confirm.getByText(/attribué à 1 membre : il leur sera retiré/).waitFor();
      await confirm.getByRole('button', { name: 'Supprimer et retirer' }).click();
      await page.getByText('Rôle supprimé avec succès').waitFor();
      await page.getByTestId('role-row').filter({ hasText: 'analyste' }).waitFor({ state: 'detached' });
      const detail = await call(`${stack.api}/admin/users/${holder.id}`, { token: adminToken });
      expect(detail.body.user.roles).toEqual([]);
    },
    JOURNEY,
  );

  it(
    'shows the users list as cards at 360 px, without horizontal scrolling',
    async () => {
      const page = await signedIn(360, ADMIN.email, ADMIN.password);
      await page.goto(`${stack.url('gateway')}/admin/users`);
      await page.getByTestId('user-card').first().waitFor();
      expect(await page.getByTestId('user-row').first().isVisible()).toBe(false);
      const scroll = await page.evaluate<number>('document.documentElement.scrollWidth');
      expect(scroll).toBeLessThanOrEqual(360);
      await keepScreenshot(page, { path: join(SHOTS, 'users-360.png'), fullPage: true });
    },
    JOURNEY,
  );

  it(
    'lets a users.view.any holder read members but change nothing, keeps them out of roles; sends a plain member home',
    async () => {
      const page = await signedIn(1366, viewer.email, 'Cartable1a');
      await page.goto(`${stack.url('gateway')}/admin/users`);
      await page.getByRole('heading', { level: 1, name: 'Gestion des utilisateurs' }).waitFor();
      // The list goes by name, a page at a time: among everyone the suite has made, search.
      await page.getByLabel('Rechercher').fill(holder.email);
      await page.waitForURL(/search=/); // the search is in place before the row is opened
      await page.getByTestId('user-row').filter({ hasText: holder.email }).getByRole('link').first().click();
      await page.getByRole('heading', { level: 1, name: nameOf(holder) }).waitFor();
      await page.getByRole('heading', { name: 'Rôles et permissions' }).waitFor();
      for (const label of [
        'Promouvoir administrateur',
        'Désactiver le compte',
        'Enregistrer les rôles',
        'Enregistrer les permissions',
      ]) {
        expect(await page.getByRole('button', { name: label }).count(), label).toBe(0);
      }
      await page.goto(`${stack.url('gateway')}/admin/roles`);
      await page.getByText('Cet écran demande la permission « Voir les rôles »', { exact: false }).waitFor();

      const home = await signedIn(1366, plain.email, 'Cartable1a');
      await home.goto(`${stack.url('gateway')}/admin`);
      await home.waitForURL((url) => url.pathname === '/');
    },
    JOURNEY,
  );
});
