import { chooseFromAccountMenu, useBrowser } from '@cartable/stack/browser';
import type { CaughtMail } from '@cartable/stack/mail-catcher';
import { sharedStack } from '@cartable/stack/shared-stack';
import { call, startExtraGateway, type TestStack } from '@cartable/stack/test-stack';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../libs/contracts/src/messages.ts';

/**
 * Accounts and identity in Chromium, on the real services:
 * sign-up and e-mail verification, two-factor sign-in by e-mailed code and by recovery code,
 * forgotten password, and the inactivity logout.
 */
const PASSWORD = 'Manuels2026';
const JOURNEY_TIMEOUT = 120_000;

let stack: TestStack;
const browser = useBrowser();

beforeAll(async () => {
  stack = sharedStack();
});

let counter = 0;
function unique(prefix: string) {
  counter += 1;
  const n = `${Date.now().toString(36)}${counter}`;
  return { email: `${prefix}.${n}@exemple.ga`, username: `${prefix}_${n}`.slice(0, 20) };
}

async function newPage(target: Browser, width = 390): Promise<Page> {
  const context = await target.newContext({
    // page.route sees only what the page fetches itself, not what a service worker fetches for it.
    serviceWorkers: 'block',
    viewport: { width, height: width < 600 ? 844 : 800 },
    locale: 'fr-FR',
  });
  return context.newPage();
}

/** Same origin as the page: the links of the e-mails use PUBLIC_URL (localhost). */
function onGateway(on: TestStack, link: string): string {
  const url = new URL(link);
  return new URL(`${url.pathname}${url.search}`, on.url('gateway')).href;
}

function linkIn(mail: CaughtMail, path: string): string {
  const found = mail.text?.match(new RegExp(`https?://\\S+${path}\\S+`));
  if (!found) throw new Error(`pas de lien ${path} dans « ${mail.subject} »`);
  return found[0];
}

/** The (n+1)-th mail to `address` (0: the first), waiting for it to arrive. */
async function nthMail(on: TestStack, address: string, n: number): Promise<CaughtMail> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const mails = (await on.mail.list()).filter((mail) => mail.to.some((to) => to.address === address));
    const mail = mails[n];
    if (mail) return mail;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`pas de mail n°${n + 1} pour ${address}`);
}

function codeIn(mail: CaughtMail): string {
  const code = mail.subject.match(/\b(\d{6})\b/)?.[1] ?? mail.text?.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`pas de code dans « ${mail.subject} »`);
  return code;
}

/** A verified member, registered and confirmed through the API (mail 0 is the verification). */
async function verifiedMember(on: TestStack, prefix: string) {
  const { email, username } = unique(prefix);
  const registered = await call(`${on.api}/register`, {
    body: {
      name: 'Nadège Mintsa',
      email,
      username,
      password: PASSWORD,
      password_confirmation: PASSWORD,
      country_id: 266,
      city_id: 1,
    },
  });
  expect(registered.status).toBe(201);
  const link = new URL(linkIn(await on.mail.waitFor(email), '/verify-email'));
  const verified = await call(`${on.api}/verify-email`, {
    body: { token: link.searchParams.get('token'), email },
  });
  expect(verified.status).toBe(200);
  return { email, username, name: 'Nadège Mintsa' };
}

async function logIn(page: Page, gateway: string, email: string, password: string) {
  if (!page.url().endsWith('/login')) await page.goto(`${gateway}/login`);
  await page.getByLabel('Adresse email').fill(email);
  await page.getByLabel('Mot de passe', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
}

async function logOut(page: Page) {
  await chooseFromAccountMenu(page, 'Déconnexion');
  await page.waitForURL('**/login');
  // The notice of an earlier logout may still be on screen.
  await page.getByText('Vous avez été déconnecté avec succès.').first().waitFor();
}

const storedSession = (page: Page) =>
  page.evaluate("[localStorage.getItem('token'), localStorage.getItem('user')]") as Promise<[unknown, unknown]>;

describe('accounts', () => {
  it(
    'registers in the UI, verifies the address from the e-mail and logs in',
    async () => {
      const page = await newPage(browser());
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      const { email, username } = unique('inscription');

      await page.goto(`${stack.url('gateway')}/register`);
      await page.getByRole('heading', { name: 'Créer un compte' }).waitFor();
      // Gabon is chosen by default and its towns are loaded from the catalog service.
      const city = page.getByLabel('Ville', { exact: true });
      await expect.poll(() => page.getByLabel('Pays').inputValue()).toBe('266');
      await expect.poll(() => city.locator('option', { hasText: 'Libreville' }).count()).toBe(1);

      await page.getByRole('button', { name: 'Créer mon compte' }).click();
      await page.getByText('Veuillez corriger les erreurs dans le formulaire').waitFor();
      await page.getByText('Le nom est obligatoire').waitFor();
      await page.getByText('La ville est obligatoire').waitFor();

      await page.getByLabel('Nom complet').fill('Awa Nzé');
      await page.getByLabel('Pseudonyme').fill(username);
      await page.getByLabel('Adresse email').fill(email);
      await page.getByLabel('Mot de passe', { exact: true }).fill(PASSWORD);
      await page.getByLabel('Confirmer le mot de passe').fill(PASSWORD);
      await page.getByLabel('Rechercher une ville').fill('l');
      await page.getByText('La recherche doit contenir au moins 2 caractères').waitFor();
      await page.getByLabel('Rechercher une ville').fill('librev');
      await expect.poll(() => city.locator('option').count()).toBe(2);
      await city.selectOption({ label: 'Libreville' });
      // Fields validate live after the first attempt: the errors are gone.
      await expect.poll(() => page.getByText('Le nom est obligatoire').count()).toBe(0);
      await page.getByRole('button', { name: 'Créer mon compte' }).click();

      await page.waitForURL('**/register-success');
      expect(await page.getByTestId('pending-email').textContent()).toBe(email);

      const mail = await stack.mail.waitFor(email);
      await page.goto(onGateway(stack, linkIn(mail, '/verify-email')));
      await page.getByRole('heading', { name: 'Adresse email vérifiée !' }).waitFor();
      await page.getByTestId('redirect-countdown').waitFor();

      // Five seconds later, the login page with the message and the address.
      await page.waitForURL('**/login', { timeout: 15_000 });
      await page.getByText('Votre adresse email a été vérifiée').waitFor();
      expect(await page.getByLabel('Adresse email').inputValue()).toBe(email);
      await page.getByLabel('Mot de passe', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Se connecter' }).click();
      // The dashboard greets the member: no toast to hide its controls.
      await page.waitForURL('**/dashboard');
      await page.getByRole('heading', { name: 'Bonjour, Awa Nzé !' }).waitFor();
      expect(await page.getByText('Connexion réussie !').count()).toBe(0);
      await page.getByText('Manuels publiés').waitFor();
      expect(errors).toEqual([]);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'turns two-factor on, then logs in with the e-mailed code and with a recovery code',
    async () => {
      const member = await verifiedMember(stack, 'deuxetapes');
      const page = await newPage(browser(), 1280);
      await logIn(page, stack.url('gateway'), member.email, PASSWORD);
      await page.waitForURL('**/dashboard');

      await page.goto(`${stack.url('gateway')}/profile`);
      await page.getByRole('heading', { name: 'Vérification en deux étapes' }).waitFor();
      await page.getByRole('button', { name: 'Activer la vérification' }).click();
      const enableCode = codeIn(await nthMail(stack, member.email, 1));
      await page.getByLabel('Code de vérification').fill(enableCode);
      await page.getByRole('button', { name: "Confirmer l'activation" }).click();

      const dialog = page.getByRole('alertdialog', { name: 'Vos codes de récupération' });
      await dialog.waitFor();
      await dialog.getByText('Ces codes ne seront plus jamais affichés').waitFor();
      const codes = await dialog.getByTestId('recovery-code').allTextContents();
      expect(codes.length).toBeGreaterThan(0);
      const recoveryCode = codes[0] ?? '';
      await dialog.getByRole('button', { name: "J'ai conservé mes codes" }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByText('Activée', { exact: true }).waitFor();
      // Still on after a reload (which also clears the notices of this step).
      await page.reload();
      await page.getByText('Activée', { exact: true }).waitFor();

      // Log in again: the password step, then the code e-mailed to the member.
      await logOut(page);
      await logIn(page, stack.url('gateway'), member.email, PASSWORD);
      await page.getByText('Code de vérification envoyé par email').waitFor();
      const codeField = page.getByLabel('Code de vérification');
      await codeField.waitFor();
      expect(await page.getByLabel('Adresse email').getAttribute('readonly')).not.toBeNull();
      const loginCode = codeIn(await nthMail(stack, member.email, 2));
      // Digits only, at most six.
      await codeField.fill(`a${loginCode}99`);
      expect(await codeField.inputValue()).toBe(loginCode);
      await page.getByRole('button', { name: 'Vérifier et se connecter' }).click();
      await page.waitForURL('**/dashboard');

      // And with a recovery code instead of the e-mailed one.
      await logOut(page);
      await logIn(page, stack.url('gateway'), member.email, PASSWORD);
      await page.getByLabel('Code de vérification').waitFor();
      await page.getByRole('button', { name: 'Utiliser un code de récupération' }).click();
      await page.getByLabel('Code de récupération').fill(recoveryCode);
      await page.getByRole('button', { name: 'Vérifier et se connecter' }).click();
      await page.waitForURL('**/dashboard');
      const [token] = await storedSession(page);
      expect(typeof token).toBe('string');
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'resets a forgotten password from the e-mailed link and logs in with the new one',
    async () => {
      const member = await verifiedMember(stack, 'oubli');
      const page = await newPage(browser());
      await page.goto(`${stack.url('gateway')}/login`);
      await page.getByLabel('Adresse email').fill(member.email);
      await page.getByRole('link', { name: 'Mot de passe oublié ?' }).click();
      await page.waitForURL('**/forgot-password');
      expect(await page.getByLabel('Adresse email').inputValue()).toBe(member.email);
      await page.getByRole('button', { name: 'Envoyer le lien' }).click();
      await page.getByText('Email de récupération envoyé avec succès !').waitFor();
      expect(await page.getByTestId('sent-to').textContent()).toBe(member.email);
      await page.getByRole('button', { name: /Renvoyer dans \d+s/ }).waitFor();

      const mail = await nthMail(stack, member.email, 1);
      await page.goto(onGateway(stack, linkIn(mail, '/reset-password')));
      const newPassword = 'Cartable-2027';
      await page.getByLabel('Nouveau mot de passe').fill(newPassword);
      await page
        .getByTestId('password-strength')
        .getByText(/^Excellent/)
        .first()
        .waitFor();
      await page.getByLabel('Confirmer le mot de passe').fill(newPassword);
      await page.getByRole('button', { name: 'Réinitialiser le mot de passe' }).click();

      await page.waitForURL('**/login');
      await page.getByText(/mot de passe a été réinitialisé/).waitFor();
      expect(await page.getByLabel('Adresse email').inputValue()).toBe(member.email);
      const old = await call(`${stack.api}/login`, { body: { email: member.email, password: PASSWORD } });
      expect(old.status).toBe(401);
      await page.getByLabel('Mot de passe', { exact: true }).fill(newPassword);
      await page.getByRole('button', { name: 'Se connecter' }).click();
      await page.waitForURL('**/dashboard');

      // The link was single use.
      await page.goto(onGateway(stack, linkIn(mail, '/reset-password')));
      await page.getByRole('heading', { name: 'Lien invalide' }).waitFor();
    },
    JOURNEY_TIMEOUT,
  );
});

describe('forms drawn before their checks', () => {
  it(
    'the login page loads its checks when the form is touched, says so when they cannot load, and tries again',
    async () => {
      const page = await newPage(browser());
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      const scripts: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
      });
      const checks = /\/auth-checks\.[\w.]+\.js$/;

      await page.goto(`${stack.url('gateway')}/login`, { waitUntil: 'networkidle' });
      await page.getByRole('heading', { name: 'Connexion' }).waitFor();
      // The page is drawn, its form usable, and its schemas (with zod) are not loaded yet.
      await page.getByLabel('Adresse email').waitFor();
      expect(scripts.filter((path) => checks.test(path))).toEqual([]);

      // The connection drops: the submit says the form could not be checked, and sends nothing.
      await page.route(checks, (route) => route.abort('internetdisconnected'));
      const logins: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/api/login') logins.push(request.method());
      });
      await page.getByRole('button', { name: 'Se connecter' }).click();
      // @cartable/ui's FORM_CHECKS_UNAVAILABLE_MESSAGE (the page's own, not the API's).
      await page
        .getByText("Le formulaire n'a pas pu être vérifié. Vérifiez votre connexion internet et réessayez.")
        .waitFor();
      expect(logins).toEqual([]);

      // Back online: the next submit loads them and checks the fields.
      await page.unroute(checks);
      await page.getByRole('button', { name: 'Se connecter' }).click();
      await page.getByText(messages.auth.emailRequired).waitFor();
      await page.getByText(messages.auth.passwordRequired).waitFor();
      expect(scripts.filter((path) => checks.test(path)).length).toBeGreaterThan(0);
      expect(logins).toEqual([]);
      expect(errors).toEqual([]);
    },
    JOURNEY_TIMEOUT,
  );
  it(
    'the resend forms of /verify-email and /register-success check the address with their lazily loaded schema',
    async () => {
      const page = await newPage(browser());
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      const { email } = await verifiedMember(stack, 'renvoi');

      // A link without its token: the page says so and offers a new link.
      await page.goto(`${stack.url('gateway')}/verify-email`);
      await page.getByRole('heading', { name: 'La vérification a échoué' }).waitFor();
      const address = page.getByLabel('Adresse email');
      await address.fill('pas-une-adresse');
      await page.getByRole('button', { name: 'Recevoir un nouveau lien' }).click();
      await page.getByText(messages.auth.emailInvalid).first().waitFor();
      expect(page.url()).toContain('/verify-email');

      // /register-success opened without an address asks for one, and checks it the same way.
      await page.goto(`${stack.url('gateway')}/register-success`);
      await page.getByRole('heading', { name: 'Vérifiez votre adresse email' }).waitFor();
      await page.getByLabel('Adresse email').fill('encore@');
      await page.getByRole('button', { name: 'Continuer' }).click();
      await page.getByText(messages.auth.emailInvalid).first().waitFor();
      await page.getByLabel('Adresse email').fill(`  ${email.toUpperCase()} `);
      await page.getByRole('button', { name: 'Continuer' }).click();
      // The schema trimmed and lowered it: the page waits for that address, and says nothing of its
      // account to a browser that has not proved holding it (the address is verified already).
      await page.getByTestId('pending-email').filter({ hasText: email }).waitFor();
      await page.getByRole('main').getByRole('link', { name: 'Se connecter', exact: true }).click();
      await page.waitForURL('**/login');
      expect(await page.getByLabel('Adresse email').inputValue()).toBe(email);
      expect(errors).toEqual([]);
    },
    JOURNEY_TIMEOUT,
  );
  it(
    'the profile page draws without its checks, then checks the password change and the account deletion',
    async () => {
      const member = await verifiedMember(stack, 'profilchecks');
      const page = await newPage(browser());
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await logIn(page, stack.url('gateway'), member.email, PASSWORD);
      await page.waitForURL('**/dashboard');
      const scripts: string[] = [];
      const changes: string[] = [];
      page.on('request', (request) => {
        const path = new URL(request.url()).pathname;
        if (request.resourceType() === 'script') scripts.push(path);
        if (path === '/api/user/change-password' || path === '/api/user/account') changes.push(request.method());
      });
      const checks = /\/account-checks\.[\w.]+\.js$/;

      // A member's pages keep the messages' event stream open: never « network idle ».
      await page.goto(`${stack.url('gateway')}/profile`);
      await page.getByRole('heading', { name: 'Mot de passe', exact: true }).waitFor();
      await page.getByRole('heading', { name: 'Vérification en deux étapes' }).waitFor();
      expect(scripts.filter((path) => checks.test(path))).toEqual([]);

      // A strong new password typed twice differently, the current one forgotten: refused here.
      await page.getByLabel('Nouveau mot de passe', { exact: true }).fill('Cartable-2027');
      await page.getByLabel('Confirmer le nouveau mot de passe').fill('Cartable-2028');
      await page.getByRole('button', { name: 'Changer le mot de passe' }).click();
      await page.getByText(messages.auth.currentPasswordRequired).waitFor();
      await page.getByText(messages.auth.confirmationMismatch).waitFor();
      expect(scripts.filter((path) => checks.test(path)).length).toBeGreaterThan(0);
      expect(changes).toEqual([]);

      // The account's deletion asks for the password, with the same loaded checks.
      await page.getByRole('button', { name: 'Supprimer mon compte' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Supprimer définitivement votre compte ?' });
      await dialog.getByRole('button', { name: 'Supprimer définitivement' }).click();
      await dialog.getByText(messages.auth.passwordMissing).waitFor();
      expect(changes).toEqual([]);
      expect(errors).toEqual([]);
    },
    JOURNEY_TIMEOUT,
  );
});

describe('inactivity', () => {
  /**
   * The same services behind a gateway that tells browsers to log out after a minute of
   * inactivity, warning 30 s before. The page's clock moves when the test says so, and also as
   * real time passes: a minute leaves a loaded machine's real seconds no way to reach the limit.
   */
  let idleGateway: Awaited<ReturnType<typeof startExtraGateway>>;

  beforeAll(async () => {
    idleGateway = await startExtraGateway(stack, { INACTIVITY_LIMIT_MS: '60000', INACTIVITY_WARNING_MS: '30000' });
  });
  afterAll(async () => {
    await idleGateway?.stop();
  });

  it(
    'warns before the limit, keeps the session on "Continuer ma session", then logs out with the notice',
    async () => {
      const member = await verifiedMember(stack, 'inactif');
      const page = await newPage(browser());
      // The page's clock is the test's: idle time passes when the test says so, not in real seconds.
      await page.clock.install();
      await logIn(page, idleGateway.url, member.email, PASSWORD);
      await page.waitForURL('**/dashboard');
      await page.getByRole('heading', { name: /^Bonjour/ }).waitFor();

      const warning = page.getByRole('alertdialog', { name: 'Votre session va bientôt expirer' });
      await page.clock.runFor(30_500); // past the warning, 29.5 s before the limit
      await warning.waitFor();
      await warning.getByTestId('idle-countdown').waitFor();
      await warning.getByRole('button', { name: 'Continuer ma session' }).click();
      await warning.waitFor({ state: 'detached' });
      expect(new URL(page.url()).pathname).toBe('/dashboard');
      expect(typeof (await storedSession(page))[0]).toBe('string');

      // No more activity: the warning comes back, then the logout.
      await page.clock.runFor(30_500);
      await warning.waitFor();
      await page.clock.runFor(30_000);
      const notice = page.getByText("Vous avez été déconnecté en raison d'inactivité prolongée.");
      await notice.waitFor();
      await page.waitForURL('**/login');
      expect(await storedSession(page)).toEqual([null, null]);
      // Shown for 8 s (not the 5 s of other notices): still there after 6.5 s, gone after 8.
      await page.clock.runFor(6500);
      expect(await notice.isVisible()).toBe(true);
      await page.clock.runFor(2000);
      await notice.waitFor({ state: 'detached' });
    },
    JOURNEY_TIMEOUT,
  );
});
