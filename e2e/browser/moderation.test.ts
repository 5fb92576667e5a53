import { signedInPage, useBrowser } from '@cartable/stack/browser';
import type { CaughtMail } from '@cartable/stack/mail-catcher';
import { sharedStack } from '@cartable/stack/shared-stack';
import { call, type TestStack } from '@cartable/stack/test-stack';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * Comments and contact in Chromium, on the real services (SPEC sections 2, 4, 5 and 8): a member's
 * comment on someone else's book waits for moderation, the admin approves it in /admin/comments,
 * a visitor then reads it; the contact form refuses a wrong answer to the math question.
 */
const PASSWORD = 'Manuels2026';
const JOURNEY_TIMEOUT = 120_000;

let stack: TestStack;
const browser = useBrowser();
let adminToken: string;
let bookId: number;
const bookTitle = 'Sciences de la Vie et de la Terre 4e';

function linkIn(mail: CaughtMail, path: string): string {
  const found = mail.text?.match(new RegExp(`https?://\\S+${path}\\S+`));
  if (!found) throw new Error(`pas de lien ${path} dans « ${mail.subject} »`);
  return found[0];
}

/** A verified member, registered and confirmed through the API. */
async function verifiedMember(name: string) {
  const n = Date.now().toString(36);
  const email = `membre.${n}@exemple.ga`;
  const registered = await call(`${stack.api}/register`, {
    body: {
      name,
      email,
      username: `membre_${n}`.slice(0, 20),
      password: PASSWORD,
      password_confirmation: PASSWORD,
      country_id: 266,
      city_id: 1,
    },
  });
  expect(registered.status).toBe(201);
  const link = new URL(linkIn(await stack.mail.waitFor(email), '/verify-email'));
  const verified = await call(`${stack.api}/verify-email`, {
    body: { token: link.searchParams.get('token'), email },
  });
  expect(verified.status).toBe(200);
  return { email, name };
}

beforeAll(async () => {
  stack = sharedStack();
  const login = await call(`${stack.api}/login`, {
    body: { email: 'admin@cartable.ga', password: 'Cartable2026!' },
  });
  adminToken = login.body.access_token;
  const cities = await call(`${stack.api}/locations/cities?country_id=266`);
  const libreville = (cities.body.cities as Array<{ id: number; name: string }>).find((c) => c.name === 'Libreville');
  const hierarchy = await call(`${stack.api}/categories/hierarchy`);
  const form = new FormData();
  const fields = {
    title: bookTitle,
    author: 'Collectif IPN',
    condition: 'bon',
    price: '3000',
    city_id: String(libreville?.id ?? 1),
    category_ids: String(hierarchy.body.categories?.[0]?.id ?? 1),
  };
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  const res = await fetch(`${stack.api}/books`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}` },
    body: form,
  });
  const body = (await res.json()) as { book?: { id: number } };
  if (res.status !== 201 || !body.book) throw new Error(`POST /books ${res.status}: ${JSON.stringify(body)}`);
  bookId = body.book.id;
});

const pageOptions = (width: number) => ({
  viewport: { width, height: width < 600 ? 844 : 800 },
  locale: 'fr-FR',
});

async function newPage(width = 1280): Promise<Page> {
  const context = await browser().newContext(pageOptions(width));
  return context.newPage();
}

/** A page signed in as this member (the login form is the accounts journey's subject). */
const signedIn = (width: number, email: string, password: string) =>
  signedInPage(browser(), stack.url('gateway'), { email, password }, pageOptions(width));

/** The answer to « Combien font 7 + 5 ? » (add, larger minus smaller, multiply). */
function solve(question: string): number {
  const match = question.match(/(\d+)\s*([+\-−×x*])\s*(\d+)/);
  if (!match) throw new Error(`question inattendue : ${question}`);
  const a = Number(match[1]);
  const b = Number(match[3]);
  switch (match[2]) {
    case '+':
      return a + b;
    case '-':
    case '−':
      return a - b;
    default:
      return a * b;
  }
}

describe('comment moderation', () => {
  it(
    "holds a member's comment for moderation, lets the admin approve it, then shows it to visitors",
    async () => {
      const member = await verifiedMember('Nadège Mintsa');
      const content = `Le manuel est-il complet ? Merci (${Date.now().toString(36)})`;

      // The member comments on the admin's book: held for moderation.
      const memberPage = await signedIn(390, member.email, PASSWORD);
      await memberPage.goto(`${stack.url('gateway')}/books/${bookId}`);
      await memberPage.getByRole('heading', { level: 1, name: bookTitle }).waitFor();
      // The form loads as the reader scrolls down to the comments.
      await memberPage.locator('#commentaires').scrollIntoViewIfNeeded();
      const field = memberPage.getByRole('textbox', { name: 'Votre commentaire' });
      await field.waitFor();
      const publish = memberPage.getByRole('button', { name: 'Publier' });
      expect(await publish.isDisabled()).toBe(true);
      await field.fill('x');
      await publish.click();
      await memberPage.getByText('Le commentaire doit contenir au moins 2 caractères').waitFor();
      await field.fill(content);
      await publish.click();
      await memberPage.getByText('Commentaire ajouté avec succès (en attente de modération)').waitFor();
      const own = memberPage.getByRole('article', { name: `Commentaire de ${member.name}` });
      await own.getByText(content).waitFor();
      await own.getByText('En attente de modération').waitFor();

      // A visitor does not see it yet.
      const visitorPage = await newPage(1280);
      await visitorPage.goto(`${stack.url('gateway')}/books/${bookId}`);
      await visitorPage.getByRole('heading', { name: /^Commentaires/ }).waitFor();
      await visitorPage.getByText('Aucun commentaire pour le moment').waitFor();
      expect(await visitorPage.getByText(content).count()).toBe(0);

      // The admin approves it in /admin/comments.
      const adminPage = await signedIn(1280, 'admin@cartable.ga', 'Cartable2026!');
      await adminPage.goto(`${stack.url('gateway')}/admin/comments`);
      await adminPage.getByRole('heading', { level: 1, name: /Modération des commentaires/ }).waitFor();
      // Other comments may wait too (the stack is shared with other journeys): this one is among them.
      await adminPage
        .getByTestId('pending-count')
        .getByText(/\d+ en attente/)
        .waitFor();
      const row = adminPage.getByTestId('pending-comment').filter({ hasText: content });
      await row.getByRole('link', { name: member.name }).waitFor();
      expect(await row.getByRole('link', { name: member.name }).getAttribute('href')).toMatch(/^\/admin\/users\//);
      // The book by its title, not « Manuel n° 41 ».
      expect(await row.getByRole('link', { name: bookTitle }).getAttribute('href')).toBe(`/books/${bookId}`);
      await row.getByRole('button', { name: `Approuver le commentaire de ${member.name}` }).click();
      await adminPage.getByText('Commentaire approuvé avec succès').waitFor();
      await row.waitFor({ state: 'detached' });

      // Now public.
      await visitorPage.reload();
      const published = visitorPage.getByRole('article', { name: `Commentaire de ${member.name}` });
      await published.getByText(content).waitFor();
      expect(await published.getByText('En attente de modération').count()).toBe(0);
      // A visitor who wants to reply is asked to log in.
      await published.getByRole('button', { name: 'Répondre' }).click();
      await visitorPage.getByText('Vous devez être connecté pour répondre').waitFor();
    },
    JOURNEY_TIMEOUT,
  );
});

describe('contact', () => {
  it(
    'refuses a wrong answer to the math question, then sends the message with the right one',
    async () => {
      const page = await newPage(390);
      await page.goto(`${stack.url('gateway')}/contact`);
      await page.getByRole('heading', { level: 1, name: 'Contactez-nous' }).waitFor();
      await page.getByText('contact@cartable.ga').first().waitFor();

      // Required fields, in French; errors clear on edit.
      await page.getByRole('button', { name: 'Envoyer le message' }).click();
      await page.getByText('Le nom est requis').waitFor();
      await page.getByText('Le message est requis').waitFor();
      await page.getByLabel('Nom complet').fill('Jean Mba');
      expect(await page.getByText('Le nom est requis').count()).toBe(0);
      await page.getByLabel('Adresse email').fill('jean.mba@exemple');
      await page.getByLabel('Sujet').fill('Livraison à Port-Gentil');
      await page.getByLabel('Message').fill('Bonjour, est-il possible de trouver des manuels à Port-Gentil ?');

      // A wrong answer: refused, and a new question is asked.
      const question = page.getByTestId('captcha-question');
      const first = (await question.textContent()) ?? '';
      const firstId = await question.getAttribute('data-captcha-id');
      await page.getByLabel(first).fill(String(solve(first) + 1));
      await page.getByRole('button', { name: 'Envoyer le message' }).click();
      await page.getByText('Veuillez entrer une adresse email valide').waitFor();
      await page.getByLabel('Adresse email').fill('jean.mba@exemple.ga');
      await page.getByRole('button', { name: 'Envoyer le message' }).click();
      await page.getByText("Veuillez résoudre correctement l'opération mathématique").waitFor();

      // The right answer to the new question.
      await expect.poll(() => question.getAttribute('data-captcha-id')).not.toBe(firstId);
      const second = (await question.textContent()) ?? '';
      await page.getByLabel(second).fill(String(solve(second)));
      await page.getByRole('button', { name: 'Envoyer le message' }).click();
      await page.getByText('Message envoyé').waitFor();
      expect(await page.getByLabel('Nom complet').inputValue()).toBe('');

      // The admin finds it.
      const list = await call(`${stack.api}/admin/contacts?search=Port-Gentil`, { token: adminToken });
      expect(list.status).toBe(200);
      expect(list.body.data.map((c: { subject: string }) => c.subject)).toContain('Livraison à Port-Gentil');
    },
    JOURNEY_TIMEOUT,
  );
});
