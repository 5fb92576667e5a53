import { mkdirSync } from 'node:fs';
import {
  keepScreenshot,
  logInThroughForm,
  noHorizontalScroll,
  signInContext,
  smallTargets,
  useBrowser,
} from '@cartable/stack/browser';
import { listBook, verifiedMember } from '@cartable/stack/members';
import { sharedStack } from '@cartable/stack/shared-stack';
import { call, eventually, type TestStack } from '@cartable/stack/test-stack';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * Aggregator payments in Chromium: a member at 360 px boosts a listing and pays with eBilling,
 * then another with MyPVit, through the checkout dialog (way to pay, operator, number), follows
 * the payment on /payment/{id}, reloads it while the payer has not confirmed, and sees it paid and
 * the boost running; a refused number shows the refusal and « Réessayer le paiement », which leads
 * to paying again. An admin at 1366 px reads the payments list and a payment's detail.
 *
 * The eBilling payer's number ends in 4444: the simulated payer takes three times the usual
 * delay (15 s on the shared stacks), long enough to reload the page mid-way.
 */
const ADMIN = { email: 'admin@cartable.ga', password: 'Cartable2026!' };
const SCREENSHOTS = process.env.PAYMENTS_SCREENSHOTS ?? '/tmp/payments';
/** The longest a payer of this file takes to confirm (a number ending in 4444). */
const CONFIRM_MS = 15_000;

let stack: TestStack;
const browser = useBrowser();
let member: { email: string; token: string; id: string; user: unknown };

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  stack = sharedStack();
  const m = await verifiedMember(stack, `pay${Date.now().toString(36)}`);
  const me = await call(`${stack.api}/user`, { token: m.token });
  member = { ...m, user: me.body.user ?? me.body };
}, 240_000);

async function newPage(errors: string[], width: number, as?: typeof member): Promise<Page> {
  const context = await browser().newContext({ viewport: { width, height: 780 }, locale: 'fr-FR' });
  if (as) {
    await signInContext(context, as);
  }
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  return page;
}

const listing = (title: string) =>
  eventually(async () => listBook(stack, member.token, title).catch(() => undefined), 30_000);

/** The boost dialog of a listing, filled: way to pay, operator, number; « Continuer ». */
async function checkout(page: Page, bookId: number, provider: RegExp, operator: string, phone: string, shot?: string) {
  await page.goto(`${stack.url('gateway')}/books/${bookId}/subscription`);
  await page.getByRole('button', { name: 'Mettre en avant 7 jours' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('group', { name: 'Comment payer' }).waitFor({ timeout: 15_000 });
  // Manual declaration and the three aggregators: four ways to pay.
  expect(await dialog.getByRole('group', { name: 'Comment payer' }).getByRole('radio').count()).toBe(4);
  await dialog.getByRole('group', { name: 'Comment payer' }).locator('label').filter({ hasText: provider }).click();
  await dialog.getByRole('group', { name: 'Payer avec' }).locator('label').filter({ hasText: operator }).click();
  await dialog.getByLabel('Numéro qui paiera').fill(phone);
  await noHorizontalScroll(page);
  if (shot) await keepScreenshot(page, { path: `${SCREENSHOTS}/${shot}` });
  await dialog.getByRole('button', { name: 'Continuer' }).click();
  return dialog;
}

/** The listing's boost page shows the boost running. */
async function boostRuns(page: Page, bookId: number) {
  await page.goto(`${stack.url('gateway')}/books/${bookId}/subscription`);
  await page
    .getByTestId('running-boost')
    .getByRole('heading', { name: /Déjà « À la une » jusqu’au/ })
    .waitFor({ timeout: 15_000 });
}

describe('aggregator payments', () => {
  it('eBilling: waits for the payer, survives a reload, then paid and the boost runs', async () => {
    const errors: string[] = [];
    const bookId = await listing('Histoire-Géographie 4e payée par eBilling');
    const page = await newPage(errors, 360, member);

    const dialog = await checkout(page, bookId, /^eBilling/, 'Airtel Money', '077 12 44 44', 'checkout-choose-360.png');
    await dialog.getByText('En attente de votre confirmation').waitFor({ timeout: 15_000 });
    await keepScreenshot(page, { path: `${SCREENSHOTS}/checkout-wait-360.png` });
    await dialog.getByRole('link', { name: 'Suivre ce paiement' }).click();

    await page.waitForURL(/\/payment\/[^/]+$/);
    const state = page.getByTestId('payment-state');
    await state.getByText('En attente de votre confirmation').waitFor({ timeout: 15_000 });
    await state.getByText('077 12 44 44').waitFor();
    await expect.poll(() => page.getByTestId('payment-countdown').textContent()).toMatch(/expire dans \d+/);
    await noHorizontalScroll(page);
    expect(await smallTargets(page)).toEqual([]);
    await keepScreenshot(page, { path: `${SCREENSHOTS}/follow-pending-360.png`, fullPage: true });

    // A reload mid-way reads the state again from the server: still waiting, still counting.
    await page.reload();
    await state.getByText('En attente de votre confirmation').waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId('payment-countdown').textContent()).toMatch(/expire dans \d+/);

    await state.getByText('Paiement confirmé').waitFor({ timeout: CONFIRM_MS + 20_000 });
    await state.getByRole('link', { name: 'Voir l’abonnement' }).waitFor();
    await noHorizontalScroll(page);
    await keepScreenshot(page, { path: `${SCREENSHOTS}/follow-paid-360.png`, fullPage: true });

    await boostRuns(page, bookId);
    expect(errors).toEqual([]);
  }, 120_000);

  it('MyPVit: a refused number shows the refusal and « Réessayer le paiement », then pays', async () => {
    const errors: string[] = [];
    const bookId = await listing('SVT 5e payée par MyPVit');
    const page = await newPage(errors, 360, member);

    // Numbers ending 0000 are refused by the simulated payer.
    const dialog = await checkout(page, bookId, /^MyPVit/, 'Moov Money', '062 50 00 00');
    await dialog.getByText('Paiement non abouti').waitFor({ timeout: 30_000 });
    await dialog.getByText(/Paiement refusé/).waitFor();
    await noHorizontalScroll(page);
    await keepScreenshot(page, { path: `${SCREENSHOTS}/checkout-refused-360.png` });

    // The follow page says it too, with the way to pay again.
    const mine = await call(`${stack.api}/subscriptions`, { token: member.token });
    const sub = mine.body.data.find((s: { book: { id: number } | null }) => s.book?.id === bookId);
    const detail = await call(`${stack.api}/subscriptions/${sub.id}`, { token: member.token });
    const refused = detail.body.subscription.payments[0];
    expect(refused).toMatchObject({ provider: 'mypvit', status: 'failed' });
    await page.goto(`${stack.url('gateway')}/payment/${refused.id}`);
    const state = page.getByTestId('payment-state');
    await state.getByText(/Paiement refusé/).waitFor({ timeout: 15_000 });
    await noHorizontalScroll(page);
    await keepScreenshot(page, { path: `${SCREENSHOTS}/follow-refused-360.png`, fullPage: true });
    await state.getByRole('link', { name: 'Réessayer le paiement' }).click();

    // The subscription's page offers to pay again, here with another number.
    const retry = page.getByTestId('retry-payment');
    await retry.getByText(/Paiement refusé/).waitFor({ timeout: 15_000 });
    await noHorizontalScroll(page);
    await keepScreenshot(page, { path: `${SCREENSHOTS}/subscription-retry-360.png`, fullPage: true });
    await retry.getByRole('button', { name: 'Réessayer le paiement' }).click();
    const again = page.getByRole('dialog');
    await again.getByRole('heading', { name: /Payer à nouveau/ }).waitFor({ timeout: 15_000 });
    // By keyboard this time: the cards are radios underneath.
    await again.getByRole('radio', { name: /^MyPVit/ }).focus();
    await page.keyboard.press('Space');
    await again.getByRole('radio', { name: /^Moov Money/ }).focus();
    await page.keyboard.press('Space');
    expect(await again.getByRole('radio', { name: /^MyPVit/ }).isChecked()).toBe(true);
    expect(await again.getByRole('radio', { name: /^Moov Money/ }).isChecked()).toBe(true);
    await again.getByLabel('Numéro qui paiera').focus();
    await page.keyboard.type('062 12 34 56');
    await again.getByRole('button', { name: 'Continuer' }).click();
    await again.getByText('En attente de votre confirmation').waitFor({ timeout: 15_000 });
    await again.getByText('Paiement confirmé').waitFor({ timeout: CONFIRM_MS + 20_000 });

    await boostRuns(page, bookId);
    expect(errors).toEqual([]);
  }, 120_000);

  it('the admin at 1366 px: the payments list and a payment’s detail', async () => {
    const errors: string[] = [];
    const base = stack.url('gateway');
    const admin = await newPage(errors, 1366);
    await logInThroughForm(admin, base, ADMIN.email, ADMIN.password);
    await admin.goto(`${base}/admin/payments`);
    await admin.getByRole('heading', { name: 'Gestion des paiements' }).waitFor({ timeout: 15_000 });
    await admin.getByRole('button', { name: 'Totaux par opérateur (CSV)' }).waitFor();
    await keepScreenshot(admin, { path: `${SCREENSHOTS}/admin-payments-1366.png`, fullPage: true });
    const table = admin.getByRole('table', { name: 'Gestion des paiements' });
    await table.getByText('eBilling (Airtel Money, Moov Money)').first().waitFor({ timeout: 15_000 });
    await table.getByText('MyPVit (Airtel Money, Moov Money)').first().waitFor();
    await noHorizontalScroll(admin);
    await keepScreenshot(admin, { path: `${SCREENSHOTS}/admin-payments-1366.png`, fullPage: true });

    const row = table.getByRole('row').filter({ hasText: 'MyPVit' }).filter({ hasText: 'Échoué' }).first();
    await row.getByRole('link').first().click();
    await admin.getByRole('heading', { name: /^Paiement / }).waitFor({ timeout: 15_000 });
    await admin.getByText('Échoué').first().waitFor();
    await noHorizontalScroll(admin);
    await keepScreenshot(admin, { path: `${SCREENSHOTS}/admin-payment-1366.png`, fullPage: true });

    // The same screens on a phone: the list as cards, the detail in one column.
    await admin.setViewportSize({ width: 360, height: 780 });
    await admin.getByRole('heading', { name: /^Paiement / }).waitFor();
    await noHorizontalScroll(admin);
    await keepScreenshot(admin, { path: `${SCREENSHOTS}/admin-payment-360.png`, fullPage: true });
    await admin.goto(`${base}/admin/payments`);
    await admin.getByRole('list', { name: 'Gestion des paiements' }).getByRole('listitem').first().waitFor();
    await noHorizontalScroll(admin);
    await keepScreenshot(admin, { path: `${SCREENSHOTS}/admin-payments-360.png`, fullPage: true });
    expect(errors).toEqual([]);
  }, 60_000);
});
