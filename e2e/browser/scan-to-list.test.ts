import { isbn13Of } from '@cartable/contracts';
import { keepScreenshot, noHorizontalScroll, signInContext, smallTargets, useBrowser } from '@cartable/stack/browser';
import { postListing, verifiedMember } from '@cartable/stack/members';
import { sharedStack } from '@cartable/stack/shared-stack';
import { call, eventually, type TestStack } from '@cartable/stack/test-stack';
import bwipjs from 'bwip-js/node';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * « Scanner le code-barres » at 360 px: a member lists a book from its barcode. The camera is a
 * canvas showing a barcode drawn by bwip-js (getUserMedia replaced before the page runs); Linux
 * Chromium has no BarcodeDetector, and it is removed anyway, so ZXing's WebAssembly reader, served
 * by the gateway under its Content-Security-Policy, reads the frames. The ISBN fills the book from
 * another member's past listing of it. The same book is listed with its ISBN typed, and with every
 * field typed, and the three times printed (a figure, not a check: testing.md), with the bytes
 * /books/add loads before the scan and on pressing it.
 */
let stack: TestStack;
const browser = useBrowser();
type Member = Awaited<ReturnType<typeof verifiedMember>>;
let member: Member;
const SCREENSHOTS = process.env.SCAN_SCREENSHOTS ?? '/tmp/scan-to-list';
/** A phone typist's pace: what separates typing a book from scanning it is characters. */
const TYPING_DELAY_MS = 80;

interface Category {
  id: number;
  name: string;
  children?: Category[];
}

/** A random ISBN-13 of this run (978, nine digits, its check digit): no other journey lists it. */
function randomIsbn(): string {
  for (;;) {
    const first12 = `978${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
    for (let d = 0; d <= 9; d++) {
      const isbn = isbn13Of(`${first12}${d}`);
      if (isbn) return isbn;
    }
  }
}

const BOOK = {
  isbn: randomIsbn(),
  title: 'Mathématiques 5e – Le Nouvel Essai',
  author: 'Collectif CIAM',
  publisher: 'EDICEF',
  year: '2019',
};
let categoryIds: number[] = [];

beforeAll(async () => {
  stack = sharedStack();
  const hierarchy = await call(`${stack.api}/categories/hierarchy`);
  const college = (hierarchy.body.categories as Category[]).find((c) => c.name === 'Collège');
  const fifth = college?.children?.find((c) => c.name === '5e');
  const maths = fifth?.children?.find((c) => c.name === 'Mathématiques');
  categoryIds = [fifth?.id ?? 0, maths?.id ?? 0];
  const cities = await call(`${stack.api}/locations/cities?country_id=266`);
  const libreville = (cities.body.cities as Array<{ id: number; name: string }>).find((c) => c.name === 'Libreville');
  const [seller, scanner] = await Promise.all([verifiedMember(stack, 'vendeuse'), verifiedMember(stack, 'scanneur')]);
  member = scanner;
  // Another member listed this book before: what its ISBN finds. The seller reaches the catalog
  // through an event, so the first listing may have to wait for it.
  await eventually(
    () =>
      postListing(stack, seller.token, {
        title: BOOK.title,
        author: BOOK.author,
        publisher: BOOK.publisher,
        publication_year: BOOK.year,
        isbn: BOOK.isbn,
        condition: 'bon',
        price: '3000',
        city_id: String(libreville?.id ?? 1),
        category_ids: categoryIds.join(','),
      }).catch(() => undefined),
    30_000,
  );
}, 240_000);

/**
 * The page's camera films `barcode` (a PNG): getUserMedia answers a canvas's stream, the barcode
 * in the middle of a white back cover, as held 15 cm from the lens. The browser's BarcodeDetector
 * is removed (Linux Chromium has none anyway): the WebAssembly reader reads the frames. Page-side
 * code is a string: these files are typed without the DOM.
 */
const fakeCamera = (barcode: Buffer) => `(() => {
  const dataUrl = 'data:image/png;base64,${barcode.toString('base64')}';
  window.barcodeDetectorWasThere = 'BarcodeDetector' in window;
  delete window.BarcodeDetector;
  window.cameraStopped = false;
  navigator.mediaDevices.getUserMedia = async () => {
    const image = new Image();
    image.src = dataUrl;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = 640;
    canvas.height = 480;
    const context = canvas.getContext('2d');
    const draw = () => {
      context.fillStyle = '#fff';
      context.fillRect(0, 0, canvas.width, canvas.height);
      context.drawImage(image, (canvas.width - image.width) / 2, (canvas.height - image.height) / 2);
    };
    draw();
    setInterval(draw, 100);
    const stream = canvas.captureStream(10);
    for (const track of stream.getVideoTracks()) {
      const stop = track.stop.bind(track);
      track.stop = () => {
        window.cameraStopped = true;
        stop();
      };
    }
    return stream;
  };
})();`;

/** A phone's page, signed in, whose camera films `barcode` (a PNG) when getUserMedia is called. */
async function phone(barcode: Buffer | null, errors: string[]) {
  // No service worker: every file comes from the network, and the Resource Timing entries count
  // its bytes as a first visit receives them (a worker's answers count none).
  const context = await browser().newContext({
    viewport: { width: 360, height: 740 },
    locale: 'fr-FR',
    serviceWorkers: 'block',
  });
  await signInContext(context, { token: member.token, user: member.user });
  if (barcode) await context.addInitScript(fakeCamera(barcode));
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  return page;
}

/**
 * What the page received since `since` (performance.now()), from the Resource Timing entries:
 * bodies as sent (compressed) and headers, and their names. A stream still open counts nothing.
 */
async function received(page: Page, since = 0) {
  return page.evaluate<{ bytes: number; urls: string[] }>(`(() => {
    const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
      .filter((e) => e.startTime >= ${since});
    return { bytes: entries.reduce((sum, e) => sum + e.transferSize, 0), urls: entries.map((e) => e.name) };
  })()`);
}

/** Until no resource arrives for a second and a half (the page polls and streams: no « network idle »). */
async function settled(page: Page) {
  for (let seen = -1, rounds = 0; rounds < 10; rounds++) {
    const now = (await received(page)).urls.length;
    if (now === seen) return;
    seen = now;
    await page.waitForTimeout(1500);
  }
}

const typeSlowly = (page: Page, label: string, text: string) =>
  page.getByLabel(label, { exact: true }).pressSequentially(text, { delay: TYPING_DELAY_MS });

/** What is left once the book is known: its condition and price (the town is the member's own), then « Publier ». */
async function conditionPriceAndPublish(page: Page) {
  await page.getByLabel('État *').selectOption({ label: 'Bon état' });
  await typeSlowly(page, 'Prix (FCFA) *', '2500');
  await page.getByRole('button', { name: "Publier l'annonce" }).click();
  await page.waitForURL(/\/books\/\d+$/, { timeout: 30_000 });
  await page.getByRole('heading', { level: 1, name: BOOK.title }).waitFor();
  return Number(new URL(page.url()).pathname.split('/').pop());
}

async function expectListed(id: number) {
  const { body } = await call(`${stack.api}/books/${id}`);
  expect(body.book).toMatchObject({
    title: BOOK.title,
    author: BOOK.author,
    publisher: BOOK.publisher,
    publication_year: Number(BOOK.year),
    isbn: BOOK.isbn,
    condition: 'bon',
    price: 2500,
  });
  expect(body.book.category_ids).toEqual(expect.arrayContaining(categoryIds));
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

describe('scan to list', () => {
  it('lists a book from its barcode at 360 px, and from its ISBN or every field typed', async () => {
    const errors: string[] = [];
    const base = stack.url('gateway');
    const png = await bwipjs.toBuffer({
      // A back cover's EAN-13 with its price add-on.
      bcid: 'ean13',
      text: `${BOOK.isbn} 90000`,
      scale: 2,
      height: 18,
      includetext: true,
      paddingwidth: 16,
      paddingheight: 8,
      backgroundcolor: 'FFFFFF',
    });

    // The scan.
    const page = await phone(png, errors);
    await page.goto(`${base}/books/add`);
    const scan = page.getByRole('button', { name: 'Scanner le code-barres' });
    await scan.waitFor();
    await page.getByLabel('Titre *').waitFor();
    await settled(page);
    const before = await received(page);
    // Neither reader is part of the page before the scan.
    expect(before.urls.filter((u) => /barcode-|\.wasm/.test(u))).toEqual([]);
    await noHorizontalScroll(page);
    expect(await smallTargets(page, { labelledBoxes: true })).toEqual([]);

    const scanMark = await page.evaluate<number>('performance.now()');
    const scanStart = Date.now();
    await scan.click();
    await page.getByRole('dialog', { name: 'Scanner le code-barres' }).waitFor();
    await expect.poll(() => page.getByLabel('ISBN').inputValue(), { timeout: 30_000 }).toBe(BOOK.isbn);
    await expect.poll(() => page.getByLabel('Titre *').inputValue(), { timeout: 15_000 }).toBe(BOOK.title);
    await expect(page.getByRole('dialog', { name: 'Scanner le code-barres' }).count()).resolves.toBe(0);
    expect(await page.evaluate('window.cameraStopped')).toBe(true);
    expect(await page.getByLabel('Auteur *').inputValue()).toBe(BOOK.author);
    expect(await page.getByLabel('Éditeur').inputValue()).toBe(BOOK.publisher);
    expect(await page.getByLabel('Année de publication').inputValue()).toBe(BOOK.year);
    await page.getByText(`« ${BOOK.title} » : champs remplis.`).first().waitFor();
    const onScan = await received(page, scanMark);
    // The WebAssembly reader read the frames (the browser's detector was removed).
    expect(onScan.urls.some((u) => u.endsWith('.wasm'))).toBe(true);
    await keepScreenshot(page, { path: `${SCREENSHOTS}/scanned-360.png`, fullPage: true });
    const scanned = await conditionPriceAndPublish(page);
    const scanMs = Date.now() - scanStart;
    await expectListed(scanned);

    // The same book, its ISBN typed by hand: the look-up fills the rest when the field is left.
    const byIsbn = await phone(null, errors);
    await byIsbn.goto(`${base}/books/add`);
    await byIsbn.getByLabel('ISBN').waitFor();
    const isbnStart = Date.now();
    await typeSlowly(byIsbn, 'ISBN', BOOK.isbn);
    await byIsbn.getByLabel('ISBN').blur();
    await expect.poll(() => byIsbn.getByLabel('Titre *').inputValue(), { timeout: 15_000 }).toBe(BOOK.title);
    const typedIsbn = await conditionPriceAndPublish(byIsbn);
    const isbnMs = Date.now() - isbnStart;
    await expectListed(typedIsbn);

    // The same book, every field typed.
    const typing = await phone(null, errors);
    await typing.goto(`${base}/books/add`);
    await typing.getByLabel('Titre *').waitFor();
    const typedStart = Date.now();
    await typeSlowly(typing, 'Titre *', BOOK.title);
    await typeSlowly(typing, 'Auteur *', BOOK.author);
    const categories = typing.getByRole('combobox', { name: /^Catégories/ });
    await categories.pressSequentially('5e', { delay: TYPING_DELAY_MS });
    await typing.getByRole('option', { name: /^5e/ }).first().click();
    await categories.fill('');
    await categories.pressSequentially('mathé', { delay: TYPING_DELAY_MS });
    await typing
      .getByRole('option', { name: /^Mathématiques/ })
      .first()
      .click();
    await typing.keyboard.press('Escape');
    await typeSlowly(typing, 'Éditeur', BOOK.publisher);
    await typeSlowly(typing, 'Année de publication', BOOK.year);
    const typed = await conditionPriceAndPublish(typing);
    const typedMs = Date.now() - typedStart;
    const { body } = await call(`${stack.api}/books/${typed}`);
    expect(body.book).toMatchObject({ title: BOOK.title, author: BOOK.author, price: 2500 });

    console.log(
      [
        `scan to list, 360 px, scripted steps (typing at one character every ${TYPING_DELAY_MS} ms):`,
        `  scanned: « Scanner le code-barres » to the listing's page ${seconds(scanMs)}`,
        `  ISBN typed: first digit to the listing's page ${seconds(isbnMs)}`,
        `  every field typed: first letter to the listing's page ${seconds(typedMs)}`,
        `  /books/add before the scan: ${kib(before.bytes)} received (${before.urls.length} responses)`,
        `  on pressing « Scanner le code-barres »: ${kib(onScan.bytes)} more (${onScan.urls.length} responses)`,
      ].join('\n'),
    );
    expect(errors).toEqual([]);
  }, 180_000);
});
