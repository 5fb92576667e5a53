import { listBook, verifiedMember } from '@cartable/stack/members';
import { sharedStack } from '@cartable/stack/shared-stack';
import { call, eventually, type TestStack } from '@cartable/stack/test-stack';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * Saved searches as processes: a parent saves a search with instant alerts; a
 * seller lists a matching book; the alert e-mail arrives through catalog's outbox, NATS,
 * notifications, BullMQ and SMTP with its one-click unsubscribe headers (RFC 8058); posting to
 * that URL as a mail client does stops the search: the next matching listing alerts another
 * member's identical search (saved since) but not the parent's.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = sharedStack();
});

type Notice = { type: string; link: string | null; title: string };
const noticesOf = async (token: string) =>
  ((await call(`${stack.api}/notifications`, { token })).body.data ?? []) as Notice[];

describe('a saved search with instant alerts', () => {
  it('e-mails the new listing with List-Unsubscribe headers, and the one-click POST stops the next alert', async () => {
    const libreville = (await call(`${stack.api}/locations/cities/search?q=libreville`)).body.cities[0].id as number;
    const filters = { query: 'horizon', city_id: String(libreville), page: '1', sort_by: 'created_at' };
    const parent = await verifiedMember(stack, 'alerte1');
    const saved = await call(`${stack.api}/saved-searches`, {
      token: parent.token,
      body: { name: 'Collection Horizon à Libreville', frequency: 'instant', filters },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    expect(saved.body.saved_search.summary).toBe('« horizon » · Libreville');
    const seller = await verifiedMember(stack, 'vendeur9');
    const first = await listBook(stack, seller.token, 'Mathématiques 6e – Collection Horizon');

    const mail = (await stack.mail.waitFor(parent.email, {
      subject: 'Nouvelle annonce pour « Collection Horizon à Libreville »',
      timeoutMs: 20_000,
    })) as Awaited<ReturnType<TestStack['mail']['waitFor']>> & { headers: Record<string, string> };
    expect(mail.text).toContain(`/books/${first}`);
    expect(mail.text).toContain('Mathématiques 6e – Collection Horizon');
    const header = mail.headers['list-unsubscribe'] ?? '';
    const match = /^<(http:\/\/[^>]+\/api\/saved-searches\/unsubscribe\?token=[^>]+)>$/.exec(header);
    expect(match, header).not.toBeNull();
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    const notice = await eventually(async () =>
      (await noticesOf(parent.token)).find((n) => n.type === 'saved_search.matched'),
    );
    expect(notice).toMatchObject({ link: `/books/${first}` });

    // The page's view of the link, then the mail client's one-click POST (no login).
    const url = match![1]!;
    const shown = await call(url);
    expect(shown.status).toBe(200);
    expect(shown.body.saved_search).toMatchObject({ name: 'Collection Horizon à Libreville', active: true });
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { message: string }).message).toBe(
      'Vous ne recevrez plus d’alertes pour cette recherche.',
    );
    const mine = await call(`${stack.api}/saved-searches`, { token: parent.token });
    expect(mine.body.data[0]).toMatchObject({ active: false, match_count: 1 });

    // Another parent saves the same search now: the control for the next listing.
    const other = await verifiedMember(stack, 'alerte2');
    const control = await call(`${stack.api}/saved-searches`, {
      token: other.token,
      body: { name: 'Horizon', frequency: 'instant', filters },
    });
    expect(control.status).toBe(201);

    // The next listing: the control search hears of it, the unsubscribed one does not.
    const second = await listBook(stack, seller.token, 'Français 6e – Collection Horizon');
    const controlMail = await stack.mail.waitFor(other.email, {
      subject: 'Nouvelle annonce pour « Horizon »',
      timeoutMs: 20_000,
    });
    expect(controlMail.text).toContain(`/books/${second}`);
    await eventually(async () => (await noticesOf(other.token)).find((n) => n.link === `/books/${second}`));
    expect((await noticesOf(parent.token)).filter((n) => n.type === 'saved_search.matched')).toHaveLength(1);
    const toParent = (await stack.mail.list()).filter(
      (m) => m.to.some((t) => t.address === parent.email) && m.subject.startsWith('Nouvelle annonce'),
    );
    expect(toParent).toHaveLength(1);
  });
});
