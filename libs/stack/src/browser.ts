import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';

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

let workerBrowser: Promise<Browser> | undefined;

/**
 * The browser a test file drives, to call once at the top of the file; the getter it returns
 * works from the file's beforeAll on. One Chromium per vitest worker, launched by its first file
 * and kept for the next ones (a launch costs as much CPU as loading two or three pages). Each file
 * opens contexts of its own and leaves none behind: a context opened during a test is closed
 * when the test ends, since a page left open keeps polling and animating while the next tests
 * run; one opened in a beforeAll, when its file ends.
 */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  let kept = new Set<BrowserContext>();
  beforeAll(async () => {
    // A browser that crashed or failed to launch is launched again by the next file.
    workerBrowser ??= launchBrowser().then(
      (launched) => {
        launched.on('disconnected', () => {
          workerBrowser = undefined;
        });
        return launched;
      },
      (err) => {
        workerBrowser = undefined;
        throw err;
      },
    );
    browser = await workerBrowser;
  });
  beforeEach(() => {
    kept = new Set(browser?.contexts());
  });
  afterEach(async () => {
    await Promise.all(
      browser
        ?.contexts()
        .filter((context) => !kept.has(context))
        .map((c) => c.close()) ?? [],
    );
  });
  afterAll(async () => {
    await Promise.all(browser?.contexts().map((context) => context.close()) ?? []);
  });
  return () => {
    if (!browser) throw new Error('le navigateur n’est ouvert qu’à partir du beforeAll du fichier');
    return browser;
  };
}

/**
 * Signs a context in as a login leaves a browser: the member's token and user in localStorage
 * (the shell's two keys, as the spec names them), written before any script of each page.
 */
export function signInContext(context: BrowserContext, session: { token: string; user: unknown }) {
  return context.addInitScript({
    content: `localStorage.setItem('token', ${JSON.stringify(session.token)});
      localStorage.setItem('user', ${JSON.stringify(JSON.stringify(session.user))});`,
  });
}

/**
 * A page of a new context signed in through POST /api/login. For a journey whose subject is not
 * the login itself (the accounts journey proves the form): it spares loading the login page and
 * the dashboard it leads to.
 */
export async function signedInPage(
  browser: Browser,
  gatewayUrl: string,
  member: { email: string; password: string },
  options: BrowserContextOptions = {},
): Promise<Page> {
  const res = await fetch(`${gatewayUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(member),
  });
  const body = (await res.json()) as { access_token?: string; user?: unknown; message?: string };
  if (!res.ok || !body.access_token)
    throw new Error(`connexion de ${member.email} refusée : ${res.status} ${body.message}`);
  const context = await browser.newContext(options);
  await signInContext(context, { token: body.access_token, user: body.user });
  return context.newPage();
}

/** Logs in through the login form and waits for the dashboard it leads to. */
export async function logInThroughForm(page: Page, gatewayUrl: string, email: string, password: string) {
  await page.goto(`${gatewayUrl}/login`);
  await page.getByLabel('Adresse email').fill(email);
  await page.getByLabel('Mot de passe', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await page.waitForURL('**/dashboard');
}

/**
 * Opens the header's account menu and chooses an item. The menu closes when the header is drawn
 * again under it (the member's data arriving just after a login): it is opened again, as a
 * person would.
 */
export async function chooseFromAccountMenu(page: Page, item: string) {
  for (let attempt = 1; ; attempt++) {
    await page.getByRole('button', { name: /Menu du compte de/ }).click();
    try {
      await page.getByRole('menuitem', { name: item }).click({ timeout: 5000 });
      return;
    } catch (err) {
      if (attempt >= 3) throw err;
      await page.keyboard.press('Escape');
    }
  }
}

/** The page is no wider than its window (evaluated in the page: these files have no DOM types). */
export async function noHorizontalScroll(page: Page) {
  const [scroll, width] = await page.evaluate<[number, number]>(
    '[document.documentElement.scrollWidth, window.innerWidth]',
  );
  expect(scroll).toBeLessThanOrEqual(width);
}

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/**
 * axe-core's serious and critical findings on the page (WCAG 2.2 AA tags), as « rule: targets »;
 * `exclude` leaves regions out (a toast that comes and goes).
 */
export async function seriousViolations(page: Page, options: { exclude?: string[] } = {}): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  // Blocks below the fold are painted only near the viewport (content-visibility: auto), and axe
  // reads colours from what is painted: render them all, as a reader scrolling there sees them.
  await page.addStyleTag({ content: '* { content-visibility: visible !important; }' });
  const context = options.exclude?.length ? JSON.stringify({ exclude: options.exclude.map((s) => [s]) }) : 'document';
  return page.evaluate(`axe
    .run(${context}, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] } })
    .then((r) => r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => v.id + ': ' + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')))`);
}

/**
 * Visible controls of `main` under 44 px high. A link inside a sentence is exempt; with
 * `labelledBoxes`, so are check boxes and radios, whose 44 px label is the target.
 */
export async function smallTargets(page: Page, options: { labelledBoxes?: boolean } = {}): Promise<string[]> {
  const inputs = options.labelledBoxes
    ? 'main input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not(.sr-only)'
    : 'main input:not([type=hidden])';
  return page.evaluate(`(() => {
    const out = [];
    for (const el of document.querySelectorAll('main a[href], main button, ${inputs}, main select, main [role=button]')) {
      if (el.closest('[aria-hidden=true], [inert], .sr-only')) continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const style = getComputedStyle(el);
      if (el.tagName === 'A' && style.display === 'inline') {
        const parent = el.parentElement;
        if ((parent ? parent.textContent.trim().length : 0) > el.textContent.trim().length + 2) continue;
      }
      if (box.height < 43.5) out.push(el.tagName.toLowerCase() + ' « ' + el.textContent.trim().slice(0, 40) + ' » ' + Math.round(box.height));
    }
    return out;
  })()`);
}

/**
 * The scripts a page loads from now on that hold zod (its classes' names survive minification):
 * a page whose forms are drawn before their checks loads none until a form is touched.
 */
export function scriptsHoldingZod(page: Page) {
  const found: Array<Promise<string | null>> = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    found.push(
      response.text().then(
        (text) => (/\$ZodType|ZodError/.test(text) ? new URL(response.url()).pathname : null),
        () => null,
      ),
    );
  });
  return { loaded: async () => (await Promise.all(found)).filter((path) => path !== null) };
}

/**
 * A screenshot for a person to look at, written only when SCREENSHOTS=1: a full-page capture of
 * a phone's screen costs the browser more than the step it shows, and proves nothing by itself.
 */
export async function keepScreenshot(
  target: { screenshot(options: { path: string; fullPage?: boolean }): Promise<unknown> },
  options: { path: string; fullPage?: boolean },
) {
  if (process.env.SCREENSHOTS !== '1') return;
  await target.screenshot(options);
}
