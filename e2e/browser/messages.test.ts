import { signInContext, useBrowser } from '@cartable/stack/browser';
import { verifiedMember } from '@cartable/stack/members';
import { sharedStack } from '@cartable/stack/shared-stack';
import { call, type TestStack } from '@cartable/stack/test-stack';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * Conversations in Chromium: a member writes
 * to a seller from the book page, the seller's envelope badge counts it, the seller answers from
 * /messages, the answer reaches the buyer's open thread without a reload, and the badge clears.
 */
let stack: TestStack;
const browser = useBrowser();

type Member = Awaited<ReturnType<typeof verifiedMember>>;
let seller: Member;
let buyer: Member;
let bookId = 0;

async function createBook(token: string): Promise<number> {
  const hierarchy = await call(`${stack.api}/categories/hierarchy`);
  const cities = await call(`${stack.api}/locations/cities?country_id=266`);
  const form = new FormData();
  const fields = {
    title: 'Physique-Chimie 2nde',
    author: 'Hachette',
    price: '6000',
    condition: 'bon',
    city_id: String(cities.body.cities[0].id),
    category_ids: String(hierarchy.body.categories[0].id),
  };
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  const image = await sharp({ create: { width: 300, height: 400, channels: 3, background: '#3a75c4' } })
    .png()
    .toBuffer();
  form.set('image1', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'photo1.png');
  // The seller reaches the catalog through an event: the first listing may have to wait for it.
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await fetch(`${stack.api}/books`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const body = (await res.json()) as { book?: { id: number } };
    if (res.status === 201 && body.book) return body.book.id;
    if (Date.now() > deadline) throw new Error(`POST /books ${res.status}: ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  stack = sharedStack();
  [seller, buyer] = await Promise.all([
    verifiedMember(stack, 'vendeuse', { name: 'Awa Nzé' }),
    verifiedMember(stack, 'acheteur', { name: 'Brice Ondo' }),
  ]);
  bookId = await createBook(seller.token);
});

/** A signed-in page: the session is what a login stores (token and user in localStorage). */
async function pageFor(member: Member, width: number, height: number, errors: string[]): Promise<Page> {
  const context = await browser().newContext({ viewport: { width, height }, locale: 'fr-FR' });
  await signInContext(context, member);
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  return page;
}

describe('messages', () => {
  it('contacts the seller from the book page; the seller sees the badge, answers; the buyer gets it live', async () => {
    const errors: string[] = [];
    const base = stack.url('gateway');
    const thread = `/messages/${bookId}/${seller.user.id}`;

    // The buyer writes from the book page's dialog, then opens the conversation.
    const b = await pageFor(buyer, 1280, 800, errors);
    await b.goto(`${base}/books/${bookId}`);
    await b.getByRole('button', { name: 'Contacter le vendeur' }).click();
    const dialog = b.getByRole('dialog', { name: 'Contacter Awa Nzé' });
    await dialog.getByRole('button', { name: 'Envoyer le message' }).click();
    await dialog.getByText('Veuillez saisir un message').waitFor();
    await dialog.getByLabel('Votre message').fill('Bonjour, le manuel est-il encore disponible ?');
    await dialog.getByRole('button', { name: 'Envoyer le message' }).click();
    await b.getByText('Message envoyé avec succès').waitFor();
    await b.getByRole('dialog').getByRole('link', { name: 'Voir la conversation' }).click();
    await b.waitForURL((url) => url.pathname === thread);
    const buyerMessages = b.getByTestId('message');
    await buyerMessages.filter({ hasText: 'le manuel est-il encore disponible' }).waitFor();

    // The seller's envelope counts one unread message; the list shows the conversation.
    const s = await pageFor(seller, 390, 844, errors);
    await s.goto(`${base}/`);
    await s.getByRole('link', { name: 'Messages, 1 non lus' }).click();
    await s.waitForURL((url) => url.pathname === '/messages');
    const row = s.getByRole('link', { name: /^Conversation avec Brice Ondo.*1 non lu/ });
    await row.click();
    await s.waitForURL((url) => url.pathname === `/messages/${bookId}/${buyer.user.id}`);
    await s.getByTestId('message').filter({ hasText: 'le manuel est-il encore disponible' }).waitFor();
    // Opening the thread reads it: the badge clears without waiting for the 30 s poll.
    await s.getByRole('link', { name: 'Messages', exact: true }).waitFor({ timeout: 10_000 });

    // The seller answers with Enter (Shift+Enter for a new line).
    const composer = s.getByLabel('Votre message');
    await composer.fill('Oui, toujours disponible.');
    await composer.press('Shift+Enter');
    await composer.pressSequentially('Rendez-vous samedi à Nzeng-Ayong ?');
    await composer.press('Enter');
    await s.getByText('Message envoyé avec succès').waitFor();
    await expect.poll(() => composer.inputValue()).toBe('');
    await s.getByTestId('message').filter({ hasText: 'Rendez-vous samedi' }).waitFor();

    // The buyer's open thread shows the answer without a reload (5 s poll), and stays read.
    await buyerMessages.filter({ hasText: 'Rendez-vous samedi à Nzeng-Ayong' }).waitFor({ timeout: 12_000 });
    await b.getByRole('link', { name: 'Messages', exact: true }).waitFor({ timeout: 10_000 });
    expect(b.url()).toBe(`${base}${thread}`);

    expect(errors).toEqual([]);
  });
});
