import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';

/** Debian's Chromium (playwright's own browser download cannot work on our machines). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium introuvable à ${CHROMIUM} : apt-get install -y chromium (ou CHROMIUM_PATH).`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Logs in through the login form and waits for the dashboard it leads to. */
export async function logInThroughForm(page: Page, gatewayUrl: string, email: string, password: string) {
  await page.goto(`${gatewayUrl}/login`);
  await page.getByLabel('Adresse email').fill(email);
  await page.getByLabel('Mot de passe', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await page.waitForURL('**/dashboard');
}

/** The page is no wider than its window (evaluated in the page: these files have no DOM types). */
export async function noHorizontalScroll(page: Page) {
  const [scroll, width] = await page.evaluate<[number, number]>(
    '[document.documentElement.scrollWidth, window.innerWidth]',
  );
  expect(scroll).toBeLessThanOrEqual(width);
}
