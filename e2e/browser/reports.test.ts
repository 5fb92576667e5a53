import { signedInPage, useBrowser } from '@cartable/stack/browser';
import { firstMessage, listBook, verifiedMember } from '@cartable/stack/members';
import { sharedStack } from '@cartable/stack/shared-stack';
import { call, eventually, type TestStack } from '@cartable/stack/test-stack';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * Report and block in Chromium at 360 px, on the real services: a member reports a listing (once),
 * the admin hides it from the « Signalements » queue in one decision (moderation asks catalog by
 * event, the report reads « Action en cours » until catalog has hidden it, then « Contenu
 * masqué ») and the owner is told why by e-mail; a seller blocks a member, who can then no
 * longer write to them, see their e-mail, comment on their listings nor propose them a deal.
 */
const ADMIN = { email: 'admin@cartable.ga', password: 'Cartable2026!' };
const JOURNEY = 150_000;

let stack: TestStack;
const browser = useBrowser();
let seller: { email: string; token: string; id: string };
let buyer: { email: string; token: string; id: string };
let bookId: number;
const title = 'Histoire-Géographie 3e à signaler';

beforeAll(async () => {
  stack = sharedStack();
  const n = Date.now().toString(36);
  [seller, buyer] = await Promise.all([verifiedMember(stack, `sell${n}`), verifiedMember(stack, `buy${n}`)]);
  bookId = await listBook(stack, seller.token, title);
}, 180_000);

const PHONE = { viewport: { width: 360, height: 780 }, locale: 'fr-FR' };

async function phone(): Promise<Page> {
  const context = await browser().newContext(PHONE);
  return context.newPage();
}

/** A phone's page signed in as this member (the login form is the accounts journey's subject). */
const signedIn = (email: string, password = 'Cartable1a') =>
  signedInPage(browser(), stack.url('gateway'), { email, password }, PHONE);

describe('reporting a listing', () => {
  it(
    'is sent once by a member, then handled in the admin queue: the listing is hidden and its owner told',
    async () => {
      const page = await signedIn(buyer.email);
      await page.goto(`${stack.url('gateway')}/books/${bookId}`);
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      await page.getByRole('button', { name: 'Signaler', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Signaler cette annonce' });
      // A listing's own reason: a school's stamp says the book was lent, not given.
      await dialog.getByLabel('Ce livre appartient à une école').waitFor();
      await dialog.getByRole('button', { name: 'Envoyer le signalement' }).click();
      await dialog.getByText('Choisissez une raison.').waitFor();
      await dialog.getByLabel('Autre').check();
      await dialog.getByRole('button', { name: 'Envoyer le signalement' }).click();
      await dialog.getByText('Précisez la raison (au moins 5 caractères).').waitFor();
      await dialog.getByLabel('Arnaque').check();
      await dialog.getByRole('button', { name: 'Envoyer le signalement' }).click();
      await page.getByText('Signalement envoyé. Merci, notre équipe va l’examiner.').waitFor();
      // Twice: the server says so.
      await page.getByRole('button', { name: 'Signaler', exact: true }).click();
      await page.getByRole('dialog', { name: 'Signaler cette annonce' }).getByLabel('Arnaque').check();
      await page.getByRole('button', { name: 'Envoyer le signalement' }).click();
      await page.getByText('Vous avez déjà signalé ce contenu.').waitFor();

      const admin = await signedIn(ADMIN.email, ADMIN.password);
      await admin.goto(`${stack.url('gateway')}/admin/signalements`);
      await admin.getByTestId('open-flags').getByText('1 à traiter').waitFor();
      const card = admin.getByTestId('flag-card').filter({ hasText: title });
      await card.getByText('Arnaque').waitFor();
      await card.getByRole('button', { name: 'Masquer le contenu' }).click();
      const confirm = admin.getByRole('alertdialog', { name: 'Masquer cette annonce ?' });
      await confirm.getByRole('button', { name: 'Confirmer' }).click();
      await confirm.getByText('Indiquez la raison (au moins 5 caractères).').waitFor();
      await confirm.getByLabel('Raison (communiquée au membre)').fill('Annonce signalée comme arnaque');
      await confirm.getByRole('button', { name: 'Confirmer' }).click();
      await admin.getByText('Décision enregistrée : l’annonce va être masquée.').waitFor();
      await admin.getByTestId('open-flags').getByText('0 à traiter').waitFor();
      const [scroll, width] = await admin.evaluate<[number, number]>(
        '[document.documentElement.scrollWidth, window.innerWidth]',
      );
      expect(scroll).toBeLessThanOrEqual(width);

      const mail = await stack.mail.waitFor(seller.email, { subject: 'Votre annonce a été masquée' });
      expect(mail.text).toContain('Annonce signalée comme arnaque');
      const visitor = await phone();
      await visitor.goto(`${stack.url('gateway')}/books/${bookId}`);
      await visitor.getByRole('heading', { name: "Cette annonce n'est plus disponible" }).waitFor();
      // Closed once catalog has answered (catalog.report.applied): « Traité » only when hidden.
      await eventually(async () => {
        await admin.goto(`${stack.url('gateway')}/admin/signalements?status=actioned`);
        await admin
          .getByTestId('flag-card')
          .filter({ hasText: title })
          .getByText('Contenu masqué')
          .waitFor({ timeout: 3_000 });
        return true;
      }, 30_000);
    },
    JOURNEY,
  );
});

describe('blocking', () => {
  it(
    'stops the blocked member writing to the seller, until unblocked',
    async () => {
      const other = await listBook(stack, seller.token, 'Physique-Chimie 3e');
      // The listing reaches messaging by an event: the first message may have to wait for it.
      const sent = await firstMessage(stack, buyer.token, {
        receiver_id: seller.id,
        book_id: other,
        content: 'Bonjour, je le prends.',
        send_email_copy: false,
      });
      expect(sent.status).toBe(201);

      const page = await signedIn(seller.email);
      await page.goto(`${stack.url('gateway')}/messages/${other}/${buyer.id}`);
      await page.getByText('Bonjour, je le prends.').waitFor();
      await page.getByRole('button', { name: 'Bloquer ce membre' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Bloquer' }).click();
      await page.getByText('Membre bloqué. Il ne peut plus vous écrire ni voir vos coordonnées.').waitFor();
      await page.getByRole('button', { name: 'Débloquer' }).waitFor();

      const refused = await call(`${stack.api}/messages`, {
        token: buyer.token,
        body: { receiver_id: seller.id, book_id: other, content: 'Vous êtes là ?', send_email_copy: false },
      });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe('Ce membre ne souhaite plus recevoir vos messages.');

      // On a phone the toast lies over the conversation's header, where « Débloquer » is, for its 5 s.
      // The answer is awaited so that a failure says what the server answered.
      await page.getByText('Membre bloqué. Il ne peut plus').waitFor({ state: 'detached' });
      const [unblocked] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'DELETE' && r.url().includes('/api/blocks/')),
        page.getByRole('button', { name: 'Débloquer' }).click(),
      ]);
      expect(unblocked.status()).toBe(200);
      await page.getByText('Membre débloqué.').waitFor();
      await eventually(async () => {
        const again = await call(`${stack.api}/messages`, {
          token: buyer.token,
          body: { receiver_id: seller.id, book_id: other, content: 'Merci !', send_email_copy: false },
        });
        return again.status === 201 ? true : undefined;
      });
    },
    JOURNEY,
  );

  it(
    "leaves the blocked member without the seller's e-mail, comments or deals, each refusal in French",
    async () => {
      const n = Date.now().toString(36);
      const [owner, blocked] = await Promise.all([verifiedMember(stack, `own${n}`), verifiedMember(stack, `blk${n}`)]);
      // The seller shares their e-mail on their listings.
      const shared = await call(`${stack.api}/user/profile`, {
        method: 'PUT',
        token: owner.token,
        body: {
          name: owner.name,
          username: owner.username,
          show_email: true,
          show_phone: false,
          country_id: 266,
          city_id: 1,
        },
      });
      expect(shared.status).toBe(200);
      const listing = await listBook(stack, owner.token, 'Anglais 4e bloqué');

      const page = await signedIn(blocked.email);
      const bookPage = `${stack.url('gateway')}/books/${listing}`;
      // The seller's choice reaches catalog by an event: reload until their e-mail is offered.
      await eventually(async () => {
        await page.goto(bookPage);
        await page.getByRole('heading', { name: 'Anglais 4e bloqué' }).waitFor();
        return (await page.getByRole('button', { name: "Afficher l'e-mail" }).count()) > 0 ? true : undefined;
      }, 30_000);

      const block = await call(`${stack.api}/blocks`, { token: owner.token, body: { user_id: blocked.id } });
      expect(block.status).toBe(200);
      // The block reaches catalog by an event too; then the e-mail is no longer offered.
      await eventually(async () => {
        await page.goto(bookPage);
        await page.getByRole('heading', { name: 'Anglais 4e bloqué' }).waitFor();
        return (await page.getByRole('button', { name: "Afficher l'e-mail" }).count()) === 0 ? true : undefined;
      }, 30_000);
      expect(await page.getByText(owner.email).count()).toBe(0);

      // The comment form loads when its section comes into view.
      await page.getByRole('heading', { name: /Commentaires/ }).scrollIntoViewIfNeeded();
      await page.getByLabel('Votre commentaire').fill('Est-il toujours disponible ?');
      await page.getByRole('button', { name: 'Publier' }).click();
      await page
        .getByText('Vous ne pouvez pas commenter les annonces de ce membre : l’un de vous a bloqué l’autre.')
        .first()
        .waitFor();

      await page.goto(`${stack.url('gateway')}/contact-seller/${listing}`);
      await page.getByLabel('Votre message').fill('Bonjour, je suis intéressé par ce manuel.');
      await page.getByRole('button', { name: 'Envoyer le message' }).click();
      await page.getByText('Ce membre ne souhaite plus recevoir vos messages.').first().waitFor();

      // Nor may the seller propose a deal to the member they blocked.
      const deal = await call(`${stack.api}/transactions`, {
        token: owner.token,
        body: { book_id: listing, buyer_id: blocked.id, kind: 'sale', price: 3000 },
      });
      expect(deal.status).toBe(403);
      expect(deal.body.message).toBe(
        'Vous ne pouvez pas conclure de transaction avec ce membre : l’un de vous a bloqué l’autre.',
      );
      await page.context().close();
    },
    JOURNEY,
  );
});
