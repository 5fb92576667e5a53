import { mkdirSync } from 'node:fs';
import {
  keepScreenshot,
  logInThroughForm,
  noHorizontalScroll,
  signInContext,
  useBrowser,
} from '@cartable/stack/browser';
import { listBook, verifiedMember } from '@cartable/stack/members';
import { sharedStack } from '@cartable/stack/shared-stack';
import { call, eventually, type TestStack } from '@cartable/stack/test-stack';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * Subscriptions in Chromium at 360 px: a member boosts a listing from
 * /books/{id}/subscription and pays by manual declaration (Airtel Money, the SMS reference), the
 * admin validates it from /admin/subscription-payments/{id}, the listing shows in « À la une » on
 * home with « Sponsorisé »; then its end passes (ends_at moved into the past in the catalog's
 * database), the catalog's sweep (every second in the test stack) expires it and the badge goes.
 */
const ADMIN = { email: 'admin@cartable.ga', password: 'Cartable2026!' };
const TITLE = 'Physique-Chimie 3e à la une';
const SCREENSHOTS = process.env.SUBSCRIPTIONS_SCREENSHOTS ?? '/tmp/subscriptions';

let stack: TestStack;
const browser = useBrowser();
let member: { email: string; token: string; id: string; user: unknown };
let bookId = 0;
let subscriptionId = '';

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  stack = sharedStack();
  const m = await verifiedMember(stack, `boost${Date.now().toString(36)}`);
  const me = await call(`${stack.api}/user`, { token: m.token });
  member = { ...m, user: me.body.user ?? me.body };
  // The member reaches the catalog through an event: the first listing may have to wait for it.
  bookId = await eventually(async () => listBook(stack, member.token, TITLE).catch(() => undefined), 30_000);
}, 240_000);

async function newPage(errors: string[], as?: typeof member): Promise<Page> {
  const context = await browser().newContext({ viewport: { width: 360, height: 780 }, locale: 'fr-FR' });
  if (as) {
    await signInContext(context, as);
  }
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  return page;
}

/** The « À la une » section of the home page, fetched afresh. */
async function featured(page: Page) {
  await page.goto(`${stack.url('gateway')}/`);
  const section = page.locator('section[aria-labelledby="a-la-une-title"]');
  await section.getByRole('list').or(section.getByText('apparaîtront ici')).first().waitFor({ timeout: 15_000 });
  return section;
}

describe('subscriptions', () => {
  it('boost, manual payment, validation, « À la une » with « Sponsorisé », expiry by the sweep', async () => {
    const errors: string[] = [];
    const base = stack.url('gateway');

    // The public plans at 360 px.
    const visitor = await newPage(errors);
    await visitor.goto(`${base}/subscription`);
    await visitor.getByRole('heading', { name: 'Nos formules' }).waitFor();
    await visitor.getByTestId('plan-card').first().waitFor({ timeout: 15_000 });
    await expect(visitor.getByText('Questions fréquentes')).toBeTruthy();
    await noHorizontalScroll(visitor);
    await keepScreenshot(visitor, { path: `${SCREENSHOTS}/subscription-360.png`, fullPage: true });

    // The member boosts the listing for 7 days and pays by Airtel Money, then declares it.
    const owner = await newPage(errors, member);
    await owner.goto(`${base}/books/${bookId}/subscription`);
    await owner.getByTestId('boost-book').getByText(TITLE).waitFor({ timeout: 15_000 });
    await owner.getByRole('button', { name: 'Mettre en avant 7 jours' }).click();
    const dialog = owner.getByRole('dialog');
    await dialog.getByText('Airtel Money').first().waitFor();
    await dialog.getByRole('button', { name: 'Continuer' }).click();
    await dialog.getByText('J’ai payé : déclarer le paiement').waitFor({ timeout: 15_000 });
    await expect(dialog.getByTestId('pay-Référence').textContent()).resolves.toMatch(/\S/);
    await keepScreenshot(owner, { path: `${SCREENSHOTS}/checkout-360.png` });
    await dialog.getByLabel('Référence de la transaction (SMS)').fill('MP261126.1200.A12345');
    await dialog.getByLabel('Numéro qui a payé').fill('077 12 34 56');
    await dialog.getByRole('button', { name: 'Déclarer mon paiement' }).click();
    await dialog.getByText('Paiement déclaré', { exact: true }).waitFor({ timeout: 15_000 });
    await noHorizontalScroll(owner);

    const mine = await call(`${stack.api}/subscriptions`, { token: member.token });
    expect(mine.status).toBe(200);
    subscriptionId = mine.body.data[0].id as string;
    const detail = await call(`${stack.api}/subscriptions/${subscriptionId}`, { token: member.token });
    expect(detail.body.subscription.status).toBe('pending_payment');
    const payment = detail.body.subscription.payments[0];
    expect(payment.status).toBe('submitted');

    // The admin validates it from the payment's page.
    const admin = await newPage(errors);
    await logInThroughForm(admin, base, ADMIN.email, ADMIN.password);
    await admin.goto(`${base}/admin/subscription-payments/${payment.id}`);
    await admin.getByRole('heading', { name: `Paiement ${payment.reference}` }).waitFor({ timeout: 15_000 });
    await admin.getByText('MP261126.1200.A12345').first().waitFor();
    await noHorizontalScroll(admin);
    await keepScreenshot(admin, { path: `${SCREENSHOTS}/admin-payment-360.png`, fullPage: true });
    await admin.getByRole('button', { name: 'Valider le paiement' }).click();
    await admin.getByRole('alertdialog').getByRole('button', { name: 'Valider' }).click();
    await admin.getByTestId('payment-fields').waitFor();
    await eventually(async () =>
      (await admin.getByRole('button', { name: 'Rembourser' }).count()) > 0 ? true : undefined,
    );
    const active = await call(`${stack.api}/subscriptions/${subscriptionId}`, { token: member.token });
    expect(active.body.subscription.status).toBe('active');

    // Back on the boost page, the owner reads what runs and may extend it, with no second boost offered.
    await owner.goto(`${base}/books/${bookId}/subscription`);
    const running = owner.getByTestId('running-boost');
    await running.getByRole('heading', { name: /Déjà « À la une » jusqu’au/ }).waitFor({ timeout: 15_000 });
    await running.getByRole('button', { name: 'Prolonger de 7 jours' }).waitFor();
    expect(await owner.getByRole('button', { name: 'Mettre en avant 7 jours' }).count()).toBe(0);
    await noHorizontalScroll(owner);

    // Home: the listing is « À la une », marked « Sponsorisé ».
    await eventually(async () => {
      const section = await featured(visitor);
      const card = section.getByRole('listitem').filter({ hasText: TITLE });
      if ((await card.count()) === 0) return undefined;
      return (await card.getByText('Sponsorisé').count()) > 0 ? true : undefined;
    }, 30_000);
    const section = visitor.locator('section[aria-labelledby="a-la-une-title"]');
    await section.scrollIntoViewIfNeeded();
    await keepScreenshot(section, { path: `${SCREENSHOTS}/home-featured-360.png` });

    // The catalogue: first on page 1 of a matching search, in its own block, with the badge.
    await eventually(async () => {
      await visitor.goto(`${base}/books?query=${encodeURIComponent('physique chimie')}`);
      const block = visitor.getByTestId('sponsored-results');
      await block
        .or(visitor.getByRole('heading', { name: 'Aucun manuel trouvé' }))
        .first()
        .waitFor({ timeout: 15_000 });
      const card = block.getByRole('listitem').filter({ hasText: TITLE });
      return (await card.getByText('Sponsorisé').count()) > 0 ? true : undefined;
    }, 30_000);
    await noHorizontalScroll(visitor);

    // Its end passes: the sweep expires it and the badge leaves the home page.
    const db = new pg.Client({ connectionString: stack.databaseUrls.catalog });
    await db.connect();
    try {
      await db.query(`UPDATE subscriptions SET ends_at = now() - interval '1 minute' WHERE id = $1`, [subscriptionId]);
      await db.query(`UPDATE boosted_books SET ends_at = now() - interval '1 minute' WHERE subscription_id = $1`, [
        subscriptionId,
      ]);
    } finally {
      await db.end();
    }
    await eventually(async () => {
      const s = await call(`${stack.api}/subscriptions/${subscriptionId}`, { token: member.token });
      return s.body.subscription?.status === 'expired' ? true : undefined;
    }, 30_000);
    await eventually(async () => {
      const section = await featured(visitor);
      const card = section.getByRole('listitem').filter({ hasText: TITLE });
      return (await card.getByText('Sponsorisé').count()) === 0 ? true : undefined;
    }, 30_000);

    // The member's page says so.
    await owner.goto(`${base}/my-subscriptions`);
    await owner.getByTestId('subscription-card').filter({ hasText: 'Expiré' }).waitFor({ timeout: 15_000 });

    expect(errors).toEqual([]);
  }, 240_000);
  it('every subscription screen answers, with no « en préparation », at 360 px and 1366 px', async () => {
    const errors: string[] = [];
    const base = stack.url('gateway');
    const memberPage = await newPage(errors, member);
    for (const [path, heading] of [
      ['/my-subscriptions', 'Mes abonnements'],
      [`/subscription/details/${subscriptionId}`, 'Mise en avant 7 jours'],
    ] as const) {
      await memberPage.goto(`${base}${path}`);
      await memberPage.getByRole('heading', { name: heading, level: 1 }).waitFor({ timeout: 15_000 });
      expect(await memberPage.getByText('en préparation').count()).toBe(0);
      await noHorizontalScroll(memberPage);
    }
    await memberPage.getByText('Payé', { exact: true }).first().waitFor();
    await memberPage.getByRole('button', { name: 'Télécharger le reçu (PDF)' }).waitFor();

    for (const width of [360, 1366]) {
      const context = await browser().newContext({ viewport: { width, height: 900 }, locale: 'fr-FR' });
      const admin = await context.newPage();
      admin.on('pageerror', (e) => errors.push(e.message));
      await logInThroughForm(admin, base, ADMIN.email, ADMIN.password);
      for (const [path, heading] of [
        ['/admin/subscriptions', "Plans d'abonnement"],
        ['/admin/user-subscriptions', 'Abonnements'],
        ['/admin/book-subscriptions', 'Annonces à la une'],
        ['/admin/subscription-payments', "Paiements d'abonnements"],
        ['/admin/payments', 'Gestion des paiements'],
        ['/admin/dashboard', 'Tableau de bord'],
      ] as const) {
        await admin.goto(`${base}${path}`);
        await admin.getByRole('heading', { name: heading, level: 1 }).waitFor({ timeout: 15_000 });
        await admin
          .locator('[aria-busy="true"]')
          .first()
          .waitFor({ state: 'detached', timeout: 15_000 })
          .catch(() => {});
        expect(await admin.getByText('en préparation').count()).toBe(0);
        await noHorizontalScroll(admin);
        const name = path.replace(/\W+/g, '-');
        await keepScreenshot(admin, { path: `${SCREENSHOTS}/${name}-${width}.png`, fullPage: true });
      }
      // The plans and the payment of the journey are listed.
      await admin.goto(`${base}/admin/subscriptions`);
      await admin.locator('p:visible', { hasText: 'Mise en avant 7 jours' }).first().waitFor();
      await admin.goto(`${base}/admin/payments`);
      await admin.getByRole('heading', { name: 'Totaux par mois' }).waitFor({ timeout: 15_000 });
      if (width === 1366) {
        // A plan created in the dialog (planRequestSchema); a used plan is not deleted: the server says why.
        await admin.goto(`${base}/admin/subscriptions`);
        await admin.getByRole('button', { name: 'Nouveau plan' }).click();
        const form = admin.getByRole('dialog');
        await form.getByLabel('Nom').fill('Mise en avant 3 jours');
        await form.getByLabel('Prix (FCFA)').fill('500');
        await form.getByLabel('Durée (jours)').fill('3');
        await form.getByRole('button', { name: 'Créer le plan' }).click();
        await admin.getByTestId('plan-row').filter({ hasText: 'Mise en avant 3 jours' }).waitFor({ timeout: 15_000 });
        await admin.getByRole('button', { name: 'Supprimer Mise en avant 7 jours' }).click();
        await admin.getByRole('alertdialog').getByRole('button', { name: 'Supprimer' }).click();
        await admin
          .getByText(/désactivez-le plutôt/)
          .first()
          .waitFor({ timeout: 15_000 });
      }
      await context.close();
    }
    expect(errors).toEqual([]);
  }, 180_000);
});
