import { signInContext, useBrowser } from '@cartable/stack/browser';
import { firstMessage, listBook, verifiedMember } from '@cartable/stack/members';
import { sharedStack } from '@cartable/stack/shared-stack';
import { call, eventually, type TestStack } from '@cartable/stack/test-stack';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * Live conversations in Chromium: with the
 * stream open, a message reaches the open thread and the header's badge with no polling request
 * in the network log; with the stream refused, the screens poll as before. Wire bytes of both
 * are measured over the same window (Chrome's own counts, through CDP).
 */
let stack: TestStack;
const browser = useBrowser();

type Member = Awaited<ReturnType<typeof verifiedMember>>;
let seller: Member;
let buyer: Member;
let bookId = 0;

beforeAll(async () => {
  stack = sharedStack();
  [seller, buyer] = await Promise.all([
    verifiedMember(stack, 'vendeuse_live', { name: 'Awa Nzé' }),
    verifiedMember(stack, 'acheteur_live', { name: 'Brice Ondo' }),
  ]);
  // The seller reaches the catalog through an event: the first listing may have to wait for it.
  bookId = await eventually(() => listBook(stack, seller.token, 'Mathématiques 3e').catch(() => undefined));
  // A conversation to open.
  const sent = await firstMessage(stack, buyer.token, {
    receiver_id: seller.user.id,
    book_id: bookId,
    content: 'Bonjour, il est disponible ?',
  });
  expect(sent.status).toBe(201);
}, 180_000);

/** A signed-in page whose /api/messages traffic is logged: requests, and wire bytes per request (CDP). */
async function watchedPage(who: Member, options: { refuseStream?: boolean } = {}) {
  const context = await browser().newContext({
    // page.route sees only what the page fetches itself, not what a service worker fetches for it.
    serviceWorkers: 'block',
    viewport: { width: 390, height: 844 },
    locale: 'fr-FR',
  });
  await signInContext(context, who);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  if (options.refuseStream) {
    // As a proxy that cuts event streams would: the screens must fall back to polling.
    await page.route('**/api/messages/stream', (route) => route.fulfill({ status: 502, body: '{}' }));
  }
  let streams = 0;
  page.on('response', (response) => {
    if (response.url().endsWith('/api/messages/stream') && response.status() === 200) streams++;
  });
  /** Resolves once a stream has answered 200 (its events follow at once). */
  const streamOpen = async () => {
    await eventually(async () => (streams > 0 ? true : undefined));
  };
  const requests: Array<{ method: string; path: string; at: number }> = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/messages')) {
      requests.push({ method: request.method(), path: url.pathname, at: Date.now() });
    }
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const urls = new Map<string, string>();
  const bytes: Array<{ path: string; n: number; at: number }> = [];
  cdp.on('Network.requestWillBeSent', (e) => urls.set(e.requestId, new URL(e.request.url).pathname));
  cdp.on('Network.dataReceived', (e) => {
    const path = urls.get(e.requestId) ?? '';
    if (path.startsWith('/api/messages')) bytes.push({ path, n: e.encodedDataLength, at: Date.now() });
  });
  cdp.on('Network.loadingFinished', (e) => {
    const path = urls.get(e.requestId) ?? '';
    // Headers and framing: what dataReceived does not count.
    if (path.startsWith('/api/messages')) bytes.push({ path, n: e.encodedDataLength, at: Date.now() });
  });
  /** Bytes received for /api/messages* since `since` (the refused stream's attempts never reach the network). */
  const bytesSince = (since: number) => bytes.filter((b) => b.at >= since).reduce((sum, b) => sum + b.n, 0);
  return { page, context, errors, requests, bytesSince, streamOpen };
}

/** Longer than two of the thread's 5 s polls: the live page would have polled at least twice. */
const WINDOW_MS = 12_000;
const threadPath = () => `/messages/${bookId}/${seller.user.id}`;

async function send(from: Member, to: Member, content: string) {
  const res = await call(`${stack.api}/messages`, {
    token: from.token,
    body: { receiver_id: to.user.id, book_id: bookId, content },
  });
  expect(res.status).toBe(201);
}

async function openThread(page: Page) {
  await page.goto(`${stack.url('gateway')}${threadPath()}`);
  await page.getByTestId('message').filter({ hasText: 'il est disponible' }).waitFor();
}

describe('live conversations', () => {
  it('brings a message to the open thread and the badge with no polling request; falls back to polling without the stream', async () => {
    const live = await watchedPage(buyer);
    await openThread(live.page);
    // The stream is open once the thread stops being polled: wait for its first event.
    await live.streamOpen();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const start = Date.now();

    const sentAt = Date.now();
    await send(seller, buyer, 'Oui, rendez-vous samedi à Akanda ?');
    await live.page
      .getByTestId('message')
      .filter({ hasText: 'rendez-vous samedi à Akanda' })
      .waitFor({ timeout: 5000 });
    const latency = Date.now() - sentAt;

    await new Promise((resolve) => setTimeout(resolve, Math.max(0, WINDOW_MS - (Date.now() - start))));
    const liveBytes = live.bytesSince(start);
    const polls = live.requests.filter((r) => r.at >= start && r.method === 'GET' && r.path !== '/api/messages/stream');
    // Reading the new message marks it read (a POST); nothing is fetched again.
    expect(polls).toEqual([]);
    await live.context.close();

    // The home page: the envelope's badge rises without the 30 s poll.
    const other = await watchedPage(buyer);
    await other.page.goto(`${stack.url('gateway')}/`);
    await other.streamOpen();
    await other.page.getByRole('link', { name: 'Messages', exact: true }).waitFor();
    const badgeStart = Date.now();
    await send(seller, buyer, 'Je peux aussi le déposer au lycée Léon Mba.');
    await other.page.getByRole('link', { name: 'Messages, 1 non lus' }).waitFor({ timeout: 5000 });
    const badgeLatency = Date.now() - badgeStart;
    expect(other.requests.filter((r) => r.at >= badgeStart && r.path === '/api/messages/unread/count')).toEqual([]);
    await other.context.close();

    // The same thread with the stream refused: it polls (5 s) as before.
    const polling = await watchedPage(buyer, { refuseStream: true });
    await openThread(polling.page);
    const pollStart = Date.now();
    await send(seller, buyer, 'Dernière question : le livre a-t-il des annotations ?');
    await polling.page.getByTestId('message').filter({ hasText: 'des annotations' }).waitFor({ timeout: 8000 });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, WINDOW_MS - (Date.now() - pollStart))));
    const pollBytes = polling.bytesSince(pollStart);
    const threadPolls = polling.requests.filter(
      (r) => r.at >= pollStart && r.method === 'GET' && r.path.startsWith('/api/messages/conversation/'),
    );
    expect(threadPolls.length).toBeGreaterThanOrEqual(2);

    console.info(
      `live: message on screen ${latency} ms after POST, badge ${badgeLatency} ms; ` +
        `/api/messages* bytes on the wire over ${WINDOW_MS / 1000} s with the thread open: ` +
        `stream ${liveBytes} B vs polling ${pollBytes} B (${threadPolls.length} thread polls)`,
    );
    expect(liveBytes).toBeLessThan(pollBytes);
    expect([...live.errors, ...other.errors, ...polling.errors]).toEqual([]);
  }, 150_000);
});
