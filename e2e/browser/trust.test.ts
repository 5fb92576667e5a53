import { chooseFromAccountMenu, keepScreenshot, useBrowser } from '@cartable/stack/browser';
import { firstMessage, verifiedMember } from '@cartable/stack/members';
import { sharedStack } from '@cartable/stack/shared-stack';
import { call, eventually, type TestStack } from '@cartable/stack/test-stack';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * Deals and trust in Chromium at 360 px (favourites, the notice centre): a favourite added in one browser is there in another after login, with that
 * browser's offline copy merged in; the owner marks the book réservé and the member gets the
 * e-mail and a 1 on the bell; the conversation shows safety tips until closed; a visitor opens the seller's public profile from a comment and sees
 * their listings.
 */
let stack: TestStack;
const browser = useBrowser();
const PASSWORD = 'Cartable1a';
const WIDTH = 360;

type Member = Awaited<ReturnType<typeof verifiedMember>>;
let seller: Member;
let member: Member;
let maths = 0;
let french = 0;

async function createBook(token: string, title: string): Promise<number> {
  const hierarchy = await call(`${stack.api}/categories/hierarchy`);
  const cities = await call(`${stack.api}/locations/cities?country_id=266`);
  const form = new FormData();
  const fields = {
    title,
    author: 'IPN',
    price: '5000',
    condition: 'bon',
    city_id: String(cities.body.cities[0].id),
    category_ids: String(hierarchy.body.categories[0].id),
  };
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  // The seller reaches the catalog through an event: the first listing may have to wait for it.
  return eventually(async () => {
    const res = await fetch(`${stack.api}/books`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const body = (await res.json()) as { book?: { id: number } };
    return res.status === 201 ? body.book?.id : undefined;
  });
}

async function newPage(errors: string[], signedIn?: Member): Promise<Page> {
  const context = await browser().newContext({ viewport: { width: WIDTH, height: 780 }, locale: 'fr-FR' });
  if (signedIn)
    await context.addInitScript({
      content: `if (!localStorage.getItem('token')) {
        localStorage.setItem('token', ${JSON.stringify(signedIn.token)});
        localStorage.setItem('user', ${JSON.stringify(JSON.stringify(signedIn.user))});
      }`,
    });
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  return page;
}

/** No horizontal scroll at 360 px. */
const fitsWidth = async (page: Page) =>
  expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(WIDTH);

const favouriteIds = async (token: string) =>
  ((await call(`${stack.api}/favourites`, { token })).body.ids as number[]).slice().sort((a, b) => a - b);

beforeAll(async () => {
  stack = sharedStack();
  [seller, member] = await Promise.all([
    verifiedMember(stack, 'vendeuse', { name: 'Awa Nzé' }),
    verifiedMember(stack, 'parent', { name: 'Brice Ondo' }),
  ]);
  maths = await createBook(seller.token, 'Mathématiques 3e collection CIAM');
  french = await createBook(seller.token, 'Français 4e Le Livre Unique');
  // The seller answers on their own listing: published at once (no moderation for the owner).
  await eventually(async () => {
    const res = await call(`${stack.api}/books/${maths}/comments`, {
      token: seller.token,
      body: { content: 'Couverture neuve, disponible à Libreville.' },
    });
    return res.status === 201 ? true : undefined;
  });
});

describe('deals and trust', () => {
  it('follows a favourite across browsers, tells of its reservation, and shows the seller to visitors', async () => {
    const errors: string[] = [];
    const base = stack.url('gateway');

    // Browser 1, signed in: the heart on the book page adds the book to the account.
    const first = await newPage(errors, member);
    await first.goto(`${base}/books/${maths}`);
    const heart = first.getByRole('button', { name: 'Ajouter « Mathématiques 3e collection CIAM » aux favoris' });
    await heart.first().click();
    await first
      .getByRole('button', { name: 'Retirer « Mathématiques 3e collection CIAM » des favoris' })
      .first()
      .waitFor();
    await eventually(async () => ((await favouriteIds(member.token)).includes(maths) ? true : undefined));

    // Browser 2 holds an offline copy with another book; logging in merges both ways.
    const second = await newPage(errors);
    await second.goto(`${base}/login`);
    await second.evaluate(`localStorage.setItem('favourites', JSON.stringify([${french}]))`);
    await second.getByLabel('Adresse email').fill(member.email);
    await second.getByLabel('Mot de passe', { exact: true }).fill(PASSWORD);
    await second.getByRole('button', { name: 'Se connecter' }).click();
    await second.waitForURL((url) => url.pathname === '/dashboard');
    await eventually(async () =>
      JSON.stringify(await favouriteIds(member.token)) === JSON.stringify([maths, french].sort((a, b) => a - b))
        ? true
        : undefined,
    );
    await chooseFromAccountMenu(second, 'Mes favoris');
    await second.waitForURL((url) => url.pathname === '/favoris');
    await second.getByRole('heading', { name: 'Mes favoris' }).waitFor();
    await second
      .getByRole('link', { name: /Mathématiques 3e collection CIAM/ })
      .first()
      .waitFor();
    await second
      .getByRole('link', { name: /Français 4e Le Livre Unique/ })
      .first()
      .waitFor();
    const copy = JSON.parse(String(await second.evaluate(`localStorage.getItem('favourites')`))) as number[];
    expect(copy.map(Number).sort((a, b) => a - b)).toEqual([maths, french].sort((a, b) => a - b));
    await fitsWidth(second);
    await keepScreenshot(second, { path: '/tmp/trust-favourites-360.png', fullPage: true });

    // The owner marks the book réservé: the member gets the e-mail and the bell counts 1.
    const status = await call(`${stack.api}/books/${maths}/status`, {
      method: 'PUT',
      token: seller.token,
      body: { status: 'réservé' },
    });
    expect(status.status).toBe(200);
    const mail = await stack.mail.waitFor(member.email, {
      subject: 'Un de vos favoris est réservé',
      timeoutMs: 20_000,
    });
    expect(mail.text).toContain('Mathématiques 3e collection CIAM');
    expect(mail.text).toContain(`/books/${maths}`);
    const bell = second.getByRole('link', { name: 'Notifications, 1 non lues' });
    await eventually(async () => {
      await second.reload();
      return (await bell.isVisible({ timeout: 3000 }).catch(() => false)) ? true : undefined;
    }, 20_000);
    await bell.click();
    await second.waitForURL((url) => url.pathname === '/notifications');
    const notice = second.getByRole('button', { name: /Un de vos favoris est réservé/ });
    await notice.waitFor();
    await fitsWidth(second);
    await keepScreenshot(second, { path: '/tmp/trust-notices-360.png', fullPage: true });
    await notice.click();
    await second.waitForURL((url) => url.pathname === `/books/${maths}`);
    await second.getByRole('link', { name: 'Notifications', exact: true }).waitFor({ timeout: 10_000 });

    // Safety tips at the top of the conversation, until closed for that conversation.
    const sent = await firstMessage(stack, member.token, {
      receiver_id: seller.user.id,
      book_id: french,
      content: 'Bonjour, où peut-on se voir ?',
      send_email_copy: false,
    });
    expect(sent.status).toBe(201);
    await second.goto(`${base}/messages/${french}/${seller.user.id}`);
    const tips = second.getByTestId('safety-tips');
    await tips.getByText('Rencontrez-vous dans un lieu public').waitFor();
    await tips.getByText(/N’envoyez jamais d’argent par mobile money à l’avance/).waitFor();
    await fitsWidth(second);
    await second.getByRole('button', { name: 'Masquer les conseils de sécurité pour cette conversation' }).click();
    await tips.waitFor({ state: 'detached' });
    await second.reload();
    await second.getByTestId('message').first().waitFor();
    expect(await second.getByTestId('safety-tips').count()).toBe(0);

    // A visitor opens the seller's profile from their comment and sees the listings.
    const visitor = await newPage(errors);
    await visitor.goto(`${base}/books/${maths}`);
    await visitor.getByText('Couverture neuve, disponible à Libreville.').waitFor();
    await visitor.getByRole('link', { name: 'Awa Nzé', exact: true }).first().click();
    await visitor.waitForURL((url) => url.pathname === `/profile/${seller.user.id}`);
    await visitor.getByRole('heading', { name: 'Awa Nzé', level: 1 }).waitFor();
    await visitor.getByText(/Membre depuis le/).waitFor();
    await visitor.getByRole('heading', { name: /Annonces de Awa Nzé/ }).waitFor();
    await visitor
      .getByRole('link', { name: /Français 4e Le Livre Unique/ })
      .first()
      .waitFor();
    await visitor
      .getByRole('link', { name: /Mathématiques 3e collection CIAM/ })
      .first()
      .waitFor();
    await visitor.getByTestId('member-deals').waitFor();
    await fitsWidth(visitor);
    await keepScreenshot(visitor, { path: '/tmp/trust-profile-360.png', fullPage: true });

    // An unknown member: the French not-found state.
    await visitor.goto(`${base}/profile/00000000-0000-4000-8000-000000000000`);
    await visitor.getByText('Profil introuvable').waitFor();

    expect(errors).toEqual([]);
  });
});
