import { randomUUID } from 'node:crypto';
import { type Envelope, SAVED_SEARCH_MAILS_PER_DAY, type SavedSearchFrequency } from '@cartable/contracts';
import type { Db } from '@cartable/service-kit';
import { and, asc, eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members, notices, notificationPreferences, outgoingMails, savedSearchAlerts } from '../src/db/schema.ts';
import {
  flushSavedSearch,
  periodStart,
  SAVED_SEARCH_TEMPLATE,
  savedSearchMails,
  sendDueSavedSearchMails,
} from '../src/events/saved-search-mails.ts';
import { type Mail, render } from '../src/queue/mail-queue.ts';
import { mailCatcher, notificationsDatabase } from './helpers.ts';

let database: Awaited<ReturnType<typeof notificationsDatabase>>;
let db: Db;
const PUBLIC_URL = 'https://cartable.ga';
let nextSearch = 100;
let nextBook = 1000;

beforeAll(async () => {
  database = await notificationsDatabase();
  db = database.db;
});
afterAll(() => database?.close());

async function member(name: string, prefs?: { emails: boolean; notices: boolean }) {
  const id = randomUUID();
  await db.insert(members).values({ id, name, email: `${name.toLowerCase()}.${id.slice(0, 6)}@example.ga` });
  if (prefs)
    await db
      .insert(notificationPreferences)
      .values({ userId: id, favouriteEmails: prefs.emails, favouriteNotices: prefs.notices });
  const [row] = await db.select().from(members).where(eq(members.id, id));
  return row!;
}

const matched = (userId: string, savedSearchId: number, frequency: SavedSearchFrequency, title = 'Maths 6e') =>
  ({
    id: randomUUID(),
    type: 'catalog.saved_search.matched',
    occurred_at: new Date().toISOString(),
    data: {
      saved_search_id: savedSearchId,
      user_id: userId,
      name: 'Maths 6e à Libreville',
      frequency,
      summary: '« maths 6e » · Libreville',
      query_string: 'query=maths+6e&city_id=1',
      unsubscribe_token: `${savedSearchId}.secret-token-of-twenty-chars`,
      book: { id: nextBook++, title, price: 2500, city_name: 'Libreville', thumbnail: null },
      at: new Date().toISOString(),
    },
  }) as unknown as Envelope;

async function handle(event: Envelope) {
  await db.transaction((tx) => savedSearchMails[event.type]!(tx, event as never));
}
const mailsTo = (address: string) =>
  db
    .select()
    .from(outgoingMails)
    .where(and(eq(outgoingMails.recipient, address), eq(outgoingMails.template, SAVED_SEARCH_TEMPLATE)))
    .orderBy(asc(outgoingMails.createdAt));
/** Moves the search's waiting matches and last e-mail `ms` into the past. */
async function age(savedSearchId: number, ms: number) {
  await db.execute(
    `update saved_search_alerts set created_at = created_at - interval '${ms} milliseconds' where saved_search_id = ${savedSearchId}` as never,
  );
  await db.execute(
    `update saved_search_mail_state set last_mailed_at = last_mailed_at - interval '${ms} milliseconds' where saved_search_id = ${savedSearchId}` as never,
  );
}

describe('instant alerts', () => {
  it('a match is a notice and an e-mail at once, with the one-click unsubscribe headers', async () => {
    const m = await member('Sandra');
    const id = nextSearch++;
    const event = matched(m.id, id, 'instant', 'Maths 6e <Excellence>');
    await handle(event);
    await handle(event); // redelivered: nothing twice
    const bell = await db.select().from(notices).where(eq(notices.userId, m.id));
    expect(bell).toHaveLength(1);
    expect(bell[0]).toMatchObject({
      type: 'saved_search.matched',
      title: 'Nouvelle annonce pour « Maths 6e à Libreville »',
      link: `/books/${nextBook - 1}`,
    });
    expect(bell[0]!.body).toBe('« Maths 6e <Excellence> » · 2 500 FCFA · Libreville vient d’être mis en ligne.');
    const mails = await mailsTo(m.email);
    expect(mails).toHaveLength(1);
    const rendered = render({ template: SAVED_SEARCH_TEMPLATE, to: m.email, data: mails[0]!.data } as Mail, PUBLIC_URL);
    expect(rendered.subject).toBe('Nouvelle annonce pour « Maths 6e à Libreville » – Cartable');
    expect(rendered.headers).toEqual({
      'List-Unsubscribe': `<${PUBLIC_URL}/api/saved-searches/unsubscribe?token=${id}.secret-token-of-twenty-chars>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    expect(rendered.html).toContain('Maths 6e &lt;Excellence&gt;');
    expect(rendered.html).toContain(
      `${PUBLIC_URL}/mes-recherches/desabonnement?token=${id}.secret-token-of-twenty-chars`,
    );
    expect(rendered.text).toContain(`${PUBLIC_URL}/books?query=maths+6e&city_id=1`);
  });

  it('sends at most one e-mail per saved search per 15 minutes: the matches meanwhile go together in the next', async () => {
    const m = await member('Brice');
    const id = nextSearch++;
    await handle(matched(m.id, id, 'instant', 'Premier'));
    await handle(matched(m.id, id, 'instant', 'Deuxième'));
    await handle(matched(m.id, id, 'instant', 'Troisième'));
    expect(await mailsTo(m.email)).toHaveLength(1);
    // Within the 15 minutes, the pass sends nothing.
    expect(await sendDueSavedSearchMails(db)).toBe(0);
    await age(id, 16 * 60_000);
    expect(await sendDueSavedSearchMails(db)).toBeGreaterThanOrEqual(1);
    const mails = await mailsTo(m.email);
    expect(mails).toHaveLength(2);
    const second = mails[1]!.data as { books: Array<{ title: string }> };
    expect(second.books.map((b) => b.title)).toEqual(['Troisième', 'Deuxième']);
    const rendered = render({ template: SAVED_SEARCH_TEMPLATE, to: m.email, data: second } as Mail, PUBLIC_URL);
    expect(rendered.subject).toBe('2 nouvelles annonces pour « Maths 6e à Libreville » – Cartable');
    // Nothing left waiting.
    const waiting = await db.select().from(savedSearchAlerts).where(eq(savedSearchAlerts.savedSearchId, id));
    expect(waiting.every((a) => a.mailedAt !== null)).toBe(true);
  });

  it(`caps a member at ${SAVED_SEARCH_MAILS_PER_DAY} alert e-mails a day; the rest wait, then go`, async () => {
    const m = await member('Carine');
    const ids = Array.from({ length: SAVED_SEARCH_MAILS_PER_DAY + 2 }, () => nextSearch++);
    for (const id of ids) await handle(matched(m.id, id, 'instant'));
    expect(await mailsTo(m.email)).toHaveLength(SAVED_SEARCH_MAILS_PER_DAY);
    // Notices are not capped.
    expect(await db.select().from(notices).where(eq(notices.userId, m.id))).toHaveLength(ids.length);
    const later = ids.slice(-2);
    const tx = (id: number) => db.transaction((t) => flushSavedSearch(t, id));
    expect(await tx(later[0]!)).toBe('capped');
    // A day later the cap is free again: the two waiting searches get their e-mail.
    expect(await sendDueSavedSearchMails(db, new Date(Date.now() + 24 * 3600_000 + 60_000))).toBe(2);
    expect(await mailsTo(m.email)).toHaveLength(SAVED_SEARCH_MAILS_PER_DAY + 2);
  });

  it('respects the member’s alert switches: no e-mail, no notice', async () => {
    const quiet = await member('Ulrich', { emails: false, notices: false });
    await handle(matched(quiet.id, nextSearch++, 'instant'));
    expect(await mailsTo(quiet.email)).toHaveLength(0);
    expect(await db.select().from(notices).where(eq(notices.userId, quiet.id))).toHaveLength(0);
  });
});

describe('daily and weekly digests', () => {
  it('computes the periods at 07:00 Libreville time (06:00 UTC), weekly from Monday', () => {
    const wednesday = new Date('2026-11-25T10:00:00Z');
    expect(periodStart('daily', wednesday)?.toISOString()).toBe('2026-11-25T06:00:00.000Z');
    expect(periodStart('daily', new Date('2026-11-25T05:59:00Z'))?.toISOString()).toBe('2026-11-24T06:00:00.000Z');
    expect(periodStart('weekly', wednesday)?.toISOString()).toBe('2026-11-23T06:00:00.000Z');
    expect(periodStart('weekly', new Date('2026-11-23T05:00:00Z'))?.toISOString()).toBe('2026-11-16T06:00:00.000Z');
    expect(periodStart('instant', wednesday)).toBeNull();
  });

  it('a daily search gets a notice per match and one e-mail per day listing them', async () => {
    const m = await member('Diane');
    const id = nextSearch++;
    await handle(matched(m.id, id, 'daily', 'Un'));
    await handle(matched(m.id, id, 'daily', 'Deux'));
    expect(await db.select().from(notices).where(eq(notices.userId, m.id))).toHaveLength(2);
    expect(await mailsTo(m.email)).toHaveLength(0);
    // One minute into the next period, when its digest goes out. Not « a day from now »: run in
    // the two hours before the digest hour (06:00 UTC), that lands so close to the following
    // one that the checks below, two hours on, cross into a new period.
    const tomorrow = new Date(periodStart('daily', new Date())!.getTime() + 24 * 3600_000 + 60_000);
    expect(await sendDueSavedSearchMails(db, tomorrow)).toBeGreaterThanOrEqual(1);
    let mails = await mailsTo(m.email);
    expect(mails).toHaveLength(1);
    const data = mails[0]!.data as { books: Array<{ title: string }>; frequency: string };
    expect(data.books.map((b) => b.title).sort()).toEqual(['Deux', 'Un']);
    const rendered = render({ template: SAVED_SEARCH_TEMPLATE, to: m.email, data } as Mail, PUBLIC_URL);
    expect(rendered.subject).toBe('2 nouvelles annonces pour « Maths 6e à Libreville » aujourd’hui – Cartable');
    expect(rendered.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    // Another match the same period: nothing more until the next period.
    await handle(matched(m.id, id, 'daily', 'Trois'));
    expect(await sendDueSavedSearchMails(db, new Date(tomorrow.getTime() + 60_000))).toBe(0);
    expect(await sendDueSavedSearchMails(db, new Date(tomorrow.getTime() + 2 * 3600_000))).toBe(0);
    expect(await sendDueSavedSearchMails(db, new Date(tomorrow.getTime() + 25 * 3600_000))).toBeGreaterThanOrEqual(1);
    mails = await mailsTo(m.email);
    expect(mails).toHaveLength(2);
    expect((mails[1]!.data as { books: Array<{ title: string }> }).books.map((b) => b.title)).toEqual(['Trois']);
  });

  it('a weekly search waits for Monday’s digest', async () => {
    const m = await member('Eric');
    const id = nextSearch++;
    await handle(matched(m.id, id, 'weekly'));
    const now = new Date();
    const start = periodStart('weekly', now)!;
    const nextMonday = new Date(start.getTime() + 7 * 24 * 3600_000 + 60_000);
    expect(await sendDueSavedSearchMails(db, new Date(nextMonday.getTime() - 2 * 60_000))).toBe(0);
    expect(await mailsTo(m.email)).toHaveLength(0);
    expect(await sendDueSavedSearchMails(db, nextMonday)).toBeGreaterThanOrEqual(1);
    const mails = await mailsTo(m.email);
    expect(mails).toHaveLength(1);
    const rendered = render({ template: SAVED_SEARCH_TEMPLATE, to: m.email, data: mails[0]!.data } as Mail, PUBLIC_URL);
    expect(rendered.subject).toBe('Nouvelle annonce pour « Maths 6e à Libreville » cette semaine – Cartable');
  });

  it('an unsubscribe drops the matches waiting for the digest; a later match (switched back on) alerts again', async () => {
    const m = await member('Fabrice');
    const id = nextSearch++;
    await handle(matched(m.id, id, 'daily'));
    await handle({
      id: randomUUID(),
      type: 'catalog.saved_search.stopped',
      occurred_at: new Date().toISOString(),
      data: { saved_search_id: id, user_id: m.id, reason: 'unsubscribed', at: new Date().toISOString() },
    } as unknown as Envelope);
    expect(await sendDueSavedSearchMails(db, new Date(Date.now() + 48 * 3600_000))).toBe(0);
    expect(await mailsTo(m.email)).toHaveLength(0);
    await handle(matched(m.id, id, 'instant'));
    expect(await mailsTo(m.email)).toHaveLength(1);
  });
});

describe('the e-mail as sent', () => {
  it('carries List-Unsubscribe and List-Unsubscribe-Post through SMTP', async () => {
    const catcher = await mailCatcher();
    try {
      const transport = nodemailer.createTransport({ host: '127.0.0.1', port: catcher.smtpPort, secure: false });
      const token = `42.${'a'.repeat(43)}`;
      const rendered = render(
        {
          template: SAVED_SEARCH_TEMPLATE,
          to: 'g@example.ga',
          data: {
            name: 'Gaëlle',
            searchName: 'Maths 6e à Libreville',
            summary: '« maths 6e » · Libreville',
            queryString: 'query=maths+6e',
            frequency: 'instant',
            books: [{ id: 7, title: 'Maths 6e', price: 0, city_name: null, thumbnail: null }],
            more: 0,
            unsubscribeToken: token,
          },
        },
        PUBLIC_URL,
      );
      await transport.sendMail({ from: 'Cartable <no-reply@cartable.ga>', to: 'g@example.ga', ...rendered });
      const mail = (await catcher.waitFor('g@example.ga')) as Awaited<ReturnType<typeof catcher.waitFor>> & {
        headers: Record<string, string>;
      };
      expect(mail.headers['list-unsubscribe']).toBe(`<${PUBLIC_URL}/api/saved-searches/unsubscribe?token=${token}>`);
      expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
      expect(mail.text).toContain('offert (don)');
      transport.close();
    } finally {
      await catcher.close();
    }
  });
});
