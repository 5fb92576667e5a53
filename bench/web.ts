/**
 * What a person on a phone in Libreville sees:
 * Lighthouse in its mobile configuration (360-ish px Moto G Power, 150 ms round trip, 1.6 Mbps
 * down, CPU slowed ×4, simulated) on the home page, /books and a book page (the targets),
 * then /login, /register and /contact, against a fresh, isolated stack of the product with its
 * demo catalogue, driving the system Chromium.
 *   npm run bench -- web            (RUNS=1 by default; the median of RUNS is printed; RUNS=0: no Lighthouse;
 *                                    OBSERVED_RUNS=0: no observed loads)
 * Prints, per page: performance score, LCP, CLS, TBT, bytes transferred and JavaScript bytes.
 *   DETAIL=1 npm run bench -- web   also prints, per page (last run), the LCP element and its phases,
 *   the elements that shifted, the scripts by main-thread cost and every request (size, start, end):
 *   where to look first when a figure moves.
 *   LHR_DIR=/tmp/lhr npm run bench -- web   also writes each run's Lighthouse report (JSON) there.
 * Then, per page, what the main thread did in a real load (Chromium, CPU slowed ×4 on top of this
 * machine, no network throttling; median of OBSERVED_RUNS, 5 by default): the blocking time (each
 * long task's part over 50 ms, from navigation until the page shows its content and the network
 * and main thread are quiet), the longest task, the script time, and when the content showed
 * (`content shown ms`: the first card's picture on home and /books, the title on a book page, a
 * form's first field). Lighthouse's simulation rescales one observed load by the machine's
 * measured speed, which moves by a third between runs on a shared machine; these figures move
 * less, and say where a change to the main thread's work went.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHROMIUM } from '@cartable/stack/browser';
import { startTestStack } from '@cartable/stack/test-stack';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { benchEnv } from './support/stack-env.ts';

const runs = Number(process.env.RUNS ?? 1);
const detail = process.env.DETAIL === '1';
const root = join(import.meta.dirname, '..');

if (!existsSync(join(root, 'frontends/shell/dist/index.html'))) {
  const build = spawnSync('npm', ['run', 'build:frontends', '--silent'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const stack = await startTestStack({ env: { ...benchEnv, SEED_DEMO: '1' } });
const chrome = await chromeLauncher.launch({
  chromePath: CHROMIUM,
  chromeFlags: [
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
try {
  const origin = stack.url('gateway');
  // The demo catalogue is seeded at start-up: wait for a book page to point at.
  let bookId: number | undefined;
  for (let i = 0; i < 60 && bookId === undefined; i++) {
    const list = (await (await fetch(`${stack.api}/books?per_page=1`)).json()) as { data: Array<{ id: number }> };
    bookId = list.data[0]?.id;
    if (bookId === undefined) await new Promise((r) => setTimeout(r, 500));
  }
  if (bookId === undefined) throw new Error('no book in the demo catalogue');
  // Each page with what shows it drawn with its data (the observed loads wait for it).
  const pages = [
    ['home', `${origin}/`, 'main article img'],
    ['/books', `${origin}/books`, 'main article img'],
    ['book page', `${origin}/books/${bookId}`, 'main h1'],
    // Not the targets: the public forms a phone reaches from a link (an e-mail, a share).
    ['/login', `${origin}/login`, 'main form input'],
    ['/register', `${origin}/register`, 'main form input'],
    ['/contact', `${origin}/contact`, 'main form input'],
  ] as const;
  if (Number(process.env.VISITS ?? 1) > 0) {
    await measureVisits(chrome.port, [
      ...pages.slice(0, 3),
      // « Ma liste » as a visitor finds it: the class lists to choose from.
      ['« Ma liste »', `${origin}/ma-liste`, 'main h1'],
    ]);
  }
  if (runs > 0) await runLighthouse(chrome.port, pages);
  if (Number(process.env.OBSERVED_RUNS ?? 5) > 0) await observeMainThread(chrome.port, pages);
} finally {
  chrome.kill();
  await stack.teardown();
}

/** A page measured: its title, its address and a selector that shows it drawn with its data. */
type Page = readonly [title: string, url: string, ready: string];

/**
 * A phone's first visit of a page, then its next one once the service worker is in place: the
 * bytes that crossed the network before the page's data (the page, the app's files) and those of
 * its data (the API's reads), as Chromium counts them (headers and bodies; what the worker served
 * from the phone counts nothing). `VISITS=0` skips this part.
 */
async function measureVisits(port: number, pages: ReadonlyArray<Page>): Promise<void> {
  console.log('# first and repeat visit at 360 px (service worker in place for the repeat), KiB');
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  for (const [title, url, ready] of pages) {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true });
    const page = await context.newPage();
    let rows: Array<{ api: boolean; bytes: number }> = [];
    context.on('response', async (response) => {
      if (response.fromServiceWorker()) return;
      const sizes = await response
        .request()
        .sizes()
        .catch(() => null);
      if (!sizes) return;
      const api = new URL(response.url()).pathname.startsWith('/api/');
      rows.push({ api, bytes: sizes.responseBodySize + sizes.responseHeadersSize });
    });
    const visit = async () => {
      rows = [];
      await page.goto(url, { waitUntil: 'load' });
      await page.locator(ready).first().waitFor();
      // Late reads (below the fold, the header's counters) are part of the visit.
      await page.waitForTimeout(1500);
      const sum = (api: boolean) => rows.filter((r) => r.api === api).reduce((total, r) => total + r.bytes, 0);
      return { app: sum(false) / 1024, data: sum(true) / 1024 };
    };
    const first = await visit();
    await page.waitForFunction(
      () =>
        (globalThis as { navigator?: { serviceWorker?: { controller: unknown } } }).navigator?.serviceWorker
          ?.controller != null,
      null,
      { timeout: 30_000 },
    );
    const repeat = await visit();
    console.log(
      JSON.stringify({
        page: title,
        'first: before data': Number(first.app.toFixed(1)),
        'first: data': Number(first.data.toFixed(1)),
        'repeat: before data': Number(repeat.app.toFixed(1)),
        'repeat: data': Number(repeat.data.toFixed(1)),
      }),
    );
    await context.close();
  }
}

/** Lighthouse, RUNS times on each page: the median of its figures. */
async function runLighthouse(port: number, pages: ReadonlyArray<Page>): Promise<void> {
  console.log(`# Lighthouse mobile (simulated: 150 ms RTT, 1.6 Mbps, CPU ×4), ${runs} run(s) each, median`);
  for (const [title, url] of pages) {
    const results: Array<Record<string, number>> = [];
    for (let i = 0; i < runs; i++) {
      const result = await lighthouse(url, {
        port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance'],
      });
      const audits = result?.lhr.audits ?? {};
      // A page Lighthouse could not measure (no LCP, a crash) says why instead of printing zeros.
      const failure = result?.lhr.runtimeError?.message ?? audits['largest-contentful-paint']?.errorMessage;
      if (failure) console.log(`${title}: ${failure}`);
      if (detail && i === runs - 1) printDetail(title, audits);
      if (process.env.LHR_DIR && result) {
        mkdirSync(process.env.LHR_DIR, { recursive: true });
        writeFileSync(join(process.env.LHR_DIR, `${title.replace(/\W+/g, '-')}-${i}.json`), JSON.stringify(result.lhr));
      }
      const items =
        (audits['network-requests']?.details as { items?: Array<{ transferSize?: number; resourceType?: string }> })
          ?.items ?? [];
      results.push({
        score: Math.round((result?.lhr.categories.performance?.score ?? 0) * 100),
        lcp: audits['largest-contentful-paint']?.numericValue ?? 0,
        cls: audits['cumulative-layout-shift']?.numericValue ?? 0,
        tbt: audits['total-blocking-time']?.numericValue ?? 0,
        bytes: items.reduce((sum, r) => sum + (r.transferSize ?? 0), 0),
        js: items.filter((r) => r.resourceType === 'Script').reduce((sum, r) => sum + (r.transferSize ?? 0), 0),
      });
    }
    const pick = (key: string) => median(results.map((r) => r[key] ?? 0));
    console.log(
      JSON.stringify({
        page: title,
        performance: pick('score'),
        'LCP s': Number((pick('lcp') / 1000).toFixed(2)),
        CLS: Number(pick('cls').toFixed(3)),
        'TBT ms': Math.round(pick('tbt')),
        'transferred KiB': Math.round(pick('bytes') / 1024),
        'JS KiB': Math.round(pick('js') / 1024),
      }),
    );
  }
}

/** Real loads of each page, measured from inside (long tasks) and by Chromium (script time). */
async function observeMainThread(port: number, pages: ReadonlyArray<Page>): Promise<void> {
  const observedRuns = Number(process.env.OBSERVED_RUNS ?? 5);
  console.log(
    `# observed in Chromium, CPU ×4 on this machine, median of ${observedRuns} loads (after one not counted)`,
  );
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    for (const [title, url, ready] of pages) {
      const loads: Array<Record<string, number>> = [];
      for (let i = 0; i <= observedRuns; i++) {
        const context = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true });
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
        await cdp.send('Performance.enable');
        // Every long task from the start of the page (buffered), kept where the page can be asked.
        await page.addInitScript(
          `window.__longTasks = []; new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push(e.duration); }).observe({ type: 'longtask', buffered: true });`,
        );
        // The whole load: until the page shows its content, then until the network and the main
        // thread are quiet. Network idle alone came too early once the shell started in steps: a
        // page still evaluating its modules makes no request for half a second.
        await page.goto(url, { waitUntil: 'commit' });
        await page.waitForSelector(ready, { timeout: 30_000 });
        const shown = (await page.evaluate('performance.now()')) as number;
        await page.waitForLoadState('networkidle');
        // The renders the last answers queued run before the browser calls an idle callback.
        await page.evaluate('new Promise((resolve) => requestIdleCallback(resolve, { timeout: 5000 }))');
        const tasks = (await page.evaluate('window.__longTasks')) as number[];
        const { metrics } = await cdp.send('Performance.getMetrics');
        const script = metrics.find((m) => m.name === 'ScriptDuration')?.value ?? 0;
        await context.close();
        if (i === 0) continue; // the first load fills the server's caches
        loads.push({
          blocking: tasks.reduce((sum, d) => sum + Math.max(0, d - 50), 0),
          longest: Math.max(0, ...tasks),
          script: script * 1000,
          shown,
        });
      }
      const pick = (key: string) => Math.round(median(loads.map((l) => l[key] ?? 0)));
      console.log(
        JSON.stringify({
          page: title,
          'blocking ms': pick('blocking'),
          'longest task ms': pick('longest'),
          'script ms': pick('script'),
          'content shown ms': pick('shown'),
        }),
      );
    }
  } finally {
    await browser.close();
  }
}

type Audits = Record<
  string,
  { details?: unknown; numericValue?: number; displayValue?: string; errorMessage?: string }
>;
type Table = { items?: Array<Record<string, unknown>>; type?: string };

/** The Lighthouse details that explain the figures (DETAIL=1): LCP element, shifts, scripts, requests. */
function printDetail(page: string, audits: Audits): void {
  const table = (id: string) => (audits[id]?.details as Table | undefined)?.items ?? [];
  const kib = (n: unknown) => `${(Number(n ?? 0) / 1024).toFixed(1)} KiB`;
  const short = (url: unknown) => String(url ?? '').replace(/^https?:\/\/[^/]+/, '');
  console.log(`## ${page}`);
  // The LCP element audit is a list of tables: the element, then the phases of its timing.
  const lcpTables = ((audits['largest-contentful-paint-element']?.details as { items?: Table[] })?.items ??
    []) as Table[];
  for (const t of lcpTables) {
    for (const item of t.items ?? []) {
      const node = item.node as { snippet?: string; selector?: string } | undefined;
      if (node) console.log(`LCP element: ${node.snippet} (${node.selector})`);
      else if (item.phase) console.log(`  LCP phase ${item.phase}: ${Math.round(Number(item.timing))} ms`);
    }
  }
  for (const item of table('layout-shifts').length ? table('layout-shifts') : table('layout-shift-elements')) {
    const node = item.node as { snippet?: string; selector?: string } | undefined;
    console.log(`shift ${Number(item.score ?? 0).toFixed(3)}: ${node?.snippet ?? ''} (${node?.selector ?? ''})`);
  }
  for (const item of table('bootup-time').slice(0, 8)) {
    console.log(
      `script ${short(item.url)}: total ${Math.round(Number(item.total))} ms, eval ${Math.round(Number(item.scripting))} ms, parse ${Math.round(Number(item.scriptParseCompile))} ms`,
    );
  }
  for (const item of table('long-tasks')) {
    console.log(
      `long task ${short(item.url)}: ${Math.round(Number(item.startTime))} ms, ${Math.round(Number(item.duration))} ms`,
    );
  }
  for (const item of table('network-requests')) {
    console.log(
      `request ${short(item.url)} ${item.resourceType ?? ''} ${kib(item.transferSize)} ${Math.round(Number(item.networkRequestTime ?? 0))}→${Math.round(Number(item.networkEndTime ?? 0))} ms ${item.priority ?? ''}`,
    );
  }
  console.log(
    `main thread: ${audits['mainthread-work-breakdown']?.displayValue ?? ''}; FCP ${audits['first-contentful-paint']?.displayValue ?? ''}`,
  );
}
