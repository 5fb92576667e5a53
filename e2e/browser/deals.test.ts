import { keepScreenshot, scriptsHoldingZod, signInContext, useBrowser } from '@cartable/stack/browser';
import { firstMessage, listBook, postListing, verifiedMember } from '@cartable/stack/members';
import { sharedStack } from '@cartable/stack/shared-stack';
import { call, eventually, type TestStack } from '@cartable/stack/test-stack';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * Deals and trust in Chromium at 360 px: the buyer writes
 * to the seller about a book, the seller concludes from the conversation, the buyer is told by
 * e-mail and confirms on /transactions/{id}, both rate each other, and the seller's rating shows
 * in the seller block of the book page.
 */
let stack: TestStack;
const browser = useBrowser();
type Member = Awaited<ReturnType<typeof verifiedMember>> & { user: unknown };
let seller: Member;
let buyer: Member;
let bookId = 0;
const SCREENSHOTS = process.env.DEALS_SCREENSHOTS ?? '/tmp/deals';

async function member(n: string): Promise<Member> {
  const m = await verifiedMember(stack, n);
  const me = await call(`${stack.api}/user`, { token: m.token });
  return { ...m, user: me.body.user ?? me.body };
}

beforeAll(async () => {
  stack = sharedStack();
  [seller, buyer] = await Promise.all([member('vendeuse'), member('acheteur')]);
  // The seller reaches the catalog through an event: the first listing may have to wait for it.
  bookId = await eventually(async () =>
    listBook(stack, seller.token, 'Mathématiques 3e à conclure').catch(() => undefined),
  );
}, 240_000);

async function pageFor(m: Member, errors: string[]): Promise<Page> {
  const context = await browser().newContext({ viewport: { width: 360, height: 740 }, locale: 'fr-FR' });
  await signInContext(context, m);
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') console.error('[browser]', m.text());
  });
  return page;
}

/** The page does not scroll sideways (an inner strip may: the role tabs scroll on their own). */
const noHorizontalScroll = (page: Page) =>
  page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth + 1');

describe('deals and trust', () => {
  it('concludes from the conversation, confirms from the e-mail, rates both ways, shows the rating', async () => {
    const errors: string[] = [];
    const base = stack.url('gateway');

    // The buyer writes to the seller about the book.
    const sent = await firstMessage(stack, buyer.token, {
      receiver_id: seller.id,
      book_id: bookId,
      content: 'Bonjour, je suis intéressé par ce manuel.',
    });
    expect(sent.status).toBe(201);

    // The seller opens the conversation and concludes (catalog hears of the message by an event).
    const s = await pageFor(seller, errors);
    const sellerZod = scriptsHoldingZod(s);
    await eventually(async () => {
      await s.goto(`${base}/messages/${bookId}/${buyer.id}`);
      return s
        .getByRole('button', { name: /^Conclure avec Parent acheteur/ })
        .waitFor({ timeout: 8_000 })
        .then(() => true)
        .catch(() => undefined);
    }, 30_000).catch(async (error) => {
      await keepScreenshot(s, { path: `${SCREENSHOTS}/deals-failed-conversation.png`, fullPage: true });
      throw new Error(`${error}; page errors: ${errors.join(' | ')}`);
    });
    // The conversation draws without zod: its reply field and « Conclure » bring their checks
    // when first used.
    expect(await sellerZod.loaded()).toEqual([]);
    await s.getByRole('button', { name: /^Conclure avec Parent acheteur/ }).click();
    const dialog = s.getByRole('dialog', { name: 'Conclure avec Parent acheteur' });
    const price = dialog.getByLabel('Prix convenu (FCFA)');
    expect(await price.inputValue()).toBe('4000');
    await price.fill('');
    await dialog.getByRole('button', { name: 'Proposer' }).click();
    await dialog.getByText('Indiquez le prix convenu').waitFor();
    await price.fill('3500');
    await keepScreenshot(s, { path: `${SCREENSHOTS}/deals-conclude-dialog.png` });
    await dialog.getByRole('button', { name: 'Proposer' }).click();
    await s.getByText('Transaction proposée avec succès').waitFor();
    await s.waitForURL((url) => url.pathname.startsWith('/transactions/'));
    const dealId = new URL(s.url()).pathname.split('/').pop()!;
    await s.getByTestId('transaction-terms').filter({ hasText: 'Vente à' }).waitFor();
    await s.getByText('En attente de la réponse de Parent acheteur').waitFor();

    // The buyer gets the e-mail, follows its link and confirms.
    const mail = await stack.mail.waitFor(buyer.email, {
      subject: 'Parent vendeuse vous propose une transaction',
      timeoutMs: 30_000,
    });
    expect(mail.text).toContain('Parent vendeuse a enregistré une vente à 3 500 FCFA');
    const link = /http:\/\/\S+\/transactions\/[0-9a-f-]{36}/.exec(mail.text ?? '')?.[0] ?? '';
    expect(link).toContain(dealId);
    const b = await pageFor(buyer, errors);
    const buyerZod = scriptsHoldingZod(b);
    // The menu counts the deal awaiting the buyer's answer.
    await b.goto(`${base}/dashboard`);
    await b.getByTestId('pending-deals').waitFor();
    await b.goto(`${base}${new URL(link).pathname}`);
    await b.getByText('Cette transaction attend votre réponse').waitFor();
    await keepScreenshot(b, { path: `${SCREENSHOTS}/deals-detail-buyer.png`, fullPage: true });
    expect(await noHorizontalScroll(b)).toBe(true);
    await b.getByRole('button', { name: 'Confirmer la transaction' }).click();
    const confirm = b.getByRole('alertdialog', { name: 'Confirmer cette transaction ?' });
    await confirm.getByRole('button', { name: 'Confirmer la transaction' }).click();
    await b.getByText('Transaction confirmée avec succès').waitFor();
    await b.getByTestId('transaction-status').filter({ hasText: 'Confirmée' }).waitFor();

    // The buyer rates the seller: stars by keyboard, the counter, then publish.
    await b.getByRole('link', { name: 'Évaluer Parent vendeuse' }).click();
    await b.waitForURL((url) => url.pathname === `/rate-transaction/${dealId}`);
    // The page a phone opens from the e-mail draws its form before the form's checks.
    await b.getByRole('radio', { name: /^1 étoile/ }).waitFor();
    expect(await buyerZod.loaded()).toEqual([]);
    await b.getByRole('radio', { name: /^1 étoile/ }).focus();
    await b.keyboard.press('ArrowRight');
    await b.keyboard.press('ArrowRight');
    await b.keyboard.press('ArrowRight');
    await b.keyboard.press('ArrowRight');
    expect(await b.getByRole('radio', { name: /^5 étoiles/ }).isChecked()).toBe(true);
    await b.getByLabel('Votre commentaire').fill('Vendeuse ponctuelle, manuel conforme');
    await b.getByTestId('rating-counter').filter({ hasText: '464 caractères restants' }).waitFor();
    await keepScreenshot(b, { path: `${SCREENSHOTS}/deals-rating-form.png`, fullPage: true });
    await b.getByRole('button', { name: 'Publier mon évaluation' }).click();
    await b.getByText('Évaluation publiée avec succès').waitFor();
    expect((await buyerZod.loaded()).length).toBeGreaterThan(0);
    await b.waitForURL((url) => url.pathname === `/transactions/${dealId}`);
    await b.getByTestId('my-rating').waitFor();

    // The seller rates the buyer (4 stars, clicked).
    await s.goto(`${base}/rate-transaction/${dealId}`);
    await s.getByRole('radio', { name: /^4 étoiles/ }).check({ force: true });
    await s.getByLabel('Votre commentaire').fill('Acheteur sérieux');
    await s.getByRole('button', { name: 'Publier mon évaluation' }).click();
    await s.getByText('Évaluation publiée avec succès').waitFor();
    await s.getByTestId('their-rating').waitFor();

    // The book page's seller block shows the rating; the listing is sold.
    const visitor = await browser().newPage({ viewport: { width: 360, height: 740 }, locale: 'fr-FR' });
    await visitor.goto(`${base}/books/${bookId}`);
    await visitor.getByText('5/5').waitFor();
    await visitor.getByText('(1 avis)').waitFor();
    await keepScreenshot(visitor, { path: `${SCREENSHOTS}/deals-book-seller.png`, fullPage: true });

    // /my-ratings: received with the average.
    await s.goto(`${base}/my-ratings`);
    await s.getByTestId('rating-summary').filter({ hasText: '1 avis reçu' }).waitFor();
    expect(await noHorizontalScroll(s)).toBe(true);

    // /transactions lists it as confirmed, filtered by role.
    await s.goto(`${base}/transactions?role=seller&status=confirmed`);
    await s.getByRole('link', { name: /Mathématiques 3e à conclure/ }).waitFor();
    expect(await noHorizontalScroll(s)).toBe(true);
    await keepScreenshot(s, { path: `${SCREENSHOTS}/deals-list.png`, fullPage: true });
    expect(errors).toEqual([]);
  }, 180_000);

  it('suggests the usual price of a book from its confirmed sales, and shows it to buyers', async () => {
    const errors: string[] = [];
    const base = stack.url('gateway');
    const title = `Physique-Chimie 4e – prix ${Date.now().toString(36)}`;
    const city = (await call(`${stack.api}/locations/cities/search?q=libreville`)).body.cities[0].id;
    const category = (await call(`${stack.api}/categories/leaves`)).body.categories[0].id;
    const fields = (price: number) => ({
      title,
      author: 'Hachette',
      condition: 'bon',
      price: String(price),
      city_id: String(city),
      category_ids: String(category),
    });
    // Three buyers each bought the book from the seller, at 2,000, 3,000 and 4,000 FCFA.
    const buyers = [buyer, ...(await Promise.all([member('acheteur2'), member('acheteur3')]))];
    for (const [i, b] of buyers.entries()) {
      const listing = await postListing(stack, seller.token, fields(2000 + i * 1000));
      await firstMessage(stack, b.token, {
        receiver_id: seller.id,
        book_id: listing,
        content: 'Toujours disponible ?',
      });
      // Catalog hears of the message by an event: the proposal waits for it, as the seller would.
      const deal = await eventually(async () => {
        const res = await call(`${stack.api}/transactions`, {
          token: seller.token,
          body: { book_id: listing, buyer_id: b.id, kind: 'sale', price: 2000 + i * 1000 },
        });
        return res.status === 201 ? (res.body.transaction.id as string) : undefined;
      }, 30_000);
      expect((await call(`${stack.api}/transactions/${deal}/confirm`, { token: b.token, body: {} })).status).toBe(200);
    }

    // The seller lists one more copy: the form says what it sells for and takes the price in one tap.
    const s = await pageFor(seller, errors);
    await s.goto(`${base}/books/add`);
    await s.getByLabel('Titre *').fill(title);
    await s.getByLabel('État *').selectOption('bon');
    const guide = s.getByRole('region', { name: 'Prix habituel de ce manuel' });
    await guide.getByText('Prix habituel : 3 000 F CFA').waitFor();
    await guide.getByText(/3 ventes conclues en «\sBon état\s»/).waitFor();
    await guide.getByRole('button', { name: 'Utiliser ce prix' }).click();
    expect(await s.getByLabel('Prix (FCFA) *').inputValue()).toBe('3000');
    expect(await noHorizontalScroll(s)).toBe(true);
    await keepScreenshot(s, { path: `${SCREENSHOTS}/price-guide-form.png`, fullPage: true });

    // A visitor reads « Prix habituel » on another seller's listing of the same book.
    const offered = await postListing(stack, buyer.token, fields(5000));
    const visitor = await browser().newPage({ viewport: { width: 360, height: 740 }, locale: 'fr-FR' });
    await visitor.goto(`${base}/books/${offered}`);
    const usual = visitor.locator('p', { hasText: 'Prix habituel' });
    await usual.waitFor();
    expect((await usual.textContent())?.replace(/\s+/g, ' ')).toBe(
      'Prix habituel : 3 000 F CFA (de 2 000 F CFA à 4 000 F CFA, 3 ventes conclues en « Bon état »). Plus cher que d’habitude.',
    );
    await keepScreenshot(visitor, { path: `${SCREENSHOTS}/price-guide-book.png`, fullPage: true });
    expect(errors).toEqual([]);
  }, 180_000);
});
