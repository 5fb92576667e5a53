import { randomUUID } from 'node:crypto';
import type { Envelope, EventType } from '@cartable/contracts';
import type { Db } from '@cartable/service-kit';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members, notices, notificationPreferences, outgoingMails } from '../src/db/schema.ts';
import { classListMails } from '../src/events/class-list-mails.ts';
import { CLASS_LIST_MAILS_PER_DAY } from '../src/events/member-notices.ts';
import { type Mail, render } from '../src/queue/mail-queue.ts';
import { classListMatchText } from '../src/templates/class-lists.ts';
import { notificationsDatabase } from './helpers.ts';

let database: Awaited<ReturnType<typeof notificationsDatabase>>;
let db: Db;
const parent = randomUUID();
const quiet = randomUUID();
const teacher = randomUUID();

beforeAll(async () => {
  database = await notificationsDatabase();
  db = database.db;
  await db.insert(members).values([
    { id: parent, name: 'Mireille', email: 'mireille.parent@example.ga' },
    { id: quiet, name: 'Ulrich', email: 'ulrich.parent@example.ga' },
    { id: teacher, name: 'M. Obame', email: 'obame.enseignant@example.ga' },
  ]);
  // Ulrich wants no « Ma liste » mail but keeps his favourites' ones: the two switches are apart.
  await db.insert(notificationPreferences).values({ userId: quiet, classListEmails: false, favouriteEmails: true });
});
afterAll(() => database?.close());

const envelope = (type: EventType, data: Record<string, unknown>) =>
  ({ id: randomUUID(), type, occurred_at: new Date().toISOString(), data }) as unknown as Envelope;

const match = (userId: string, bookId: number) =>
  envelope('catalog.class_list.match_found', {
    user_id: userId,
    list: { id: 3, school_year: '2026-2027', level_name: '6e', school_name: null },
    item: { id: 11, title: 'Mathématiques 6e – Collection Excellence' },
    book: {
      id: bookId,
      title: 'Maths 6e Excellence <bon état>',
      price: 2500,
      is_exchange_possible: true,
      city_name: 'Libreville',
    },
    city: { id: 1, name: 'Libreville' },
    proximity: 'city',
    match: 'title',
    at: new Date().toISOString(),
  });

async function handle(event: Envelope) {
  await db.transaction((tx) => classListMails[event.type]!(tx, event as never));
}
const mailsTo = (address: string, template: string) =>
  db
    .select()
    .from(outgoingMails)
    .where(and(eq(outgoingMails.recipient, address), eq(outgoingMails.template, template)));

describe('class list alerts', () => {
  it('a match is one notice and one mail, once per event, in French with the listing’s link', async () => {
    const event = match(parent, 501);
    await handle(event);
    await handle(event);
    const rows = await mailsTo('mireille.parent@example.ga', 'class-list-match');
    expect(rows).toHaveLength(1);
    const mail = render(
      { template: rows[0]!.template, to: rows[0]!.recipient, data: rows[0]!.data } as Mail,
      'https://cartable.ga',
    );
    expect(mail.subject).toBe('Un manuel de votre liste est disponible – Cartable');
    expect(mail.text).toContain('vient d’être mis en ligne à Libreville : 2 500 FCFA, échange possible');
    expect(mail.text).toContain('https://cartable.ga/books/501');
    expect(mail.html).toContain('&lt;bon état&gt;');
    // One click stops them (RFC 8058), and the link opens the page that asks first.
    const token = (rows[0]!.data as { unsubscribeToken: string }).unsubscribeToken;
    expect(mail.headers?.['List-Unsubscribe']).toBe(
      `<https://cartable.ga/api/notifications/unsubscribe?token=${token}&kind=class_list>`,
    );
    expect(mail.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    expect(mail.text).toContain(`https://cartable.ga/alertes/desabonnement?token=${token}&kind=class_list`);
    const bell = await db.select().from(notices).where(eq(notices.userId, parent));
    expect(bell).toHaveLength(1);
  });

  it(`mails at most ${CLASS_LIST_MAILS_PER_DAY} a day; the notices keep coming`, async () => {
    for (let i = 0; i < CLASS_LIST_MAILS_PER_DAY + 3; i++) await handle(match(parent, 600 + i));
    expect(await mailsTo('mireille.parent@example.ga', 'class-list-match')).toHaveLength(CLASS_LIST_MAILS_PER_DAY);
    expect(await db.select().from(notices).where(eq(notices.userId, parent))).toHaveLength(
      CLASS_LIST_MAILS_PER_DAY + 4,
    );
  });

  it('a member who turned « Ma liste » e-mails off gets the notice only', async () => {
    await handle(match(quiet, 700));
    expect(await mailsTo('ulrich.parent@example.ga', 'class-list-match')).toHaveLength(0);
    expect(await db.select().from(notices).where(eq(notices.userId, quiet))).toHaveLength(1);
  });

  it('tells the author of a proposed list whether it was published, with the reason when not', async () => {
    const base = {
      list_id: 9,
      school_year: '2026-2027',
      level_name: '6e',
      school_name: 'Collège Bessieux',
      proposed_by: teacher,
      at: new Date().toISOString(),
    };
    await handle(envelope('catalog.class_list.published', { ...base, reason: null }));
    await handle(envelope('catalog.class_list.rejected', { ...base, reason: 'Doublon de la liste officielle' }));
    const rows = await mailsTo('obame.enseignant@example.ga', 'class-list-review');
    const texts = rows.map(
      (r) => render({ template: r.template, to: r.recipient, data: r.data } as Mail, 'https://cartable.ga').text,
    );
    expect(texts.some((t) => t.includes('(6e · 2026-2027 · Collège Bessieux) est publiée'))).toBe(true);
    expect(texts.some((t) => t.includes('Motif : Doublon de la liste officielle'))).toBe(true);
    // An operator's own list has no author to tell.
    await handle(envelope('catalog.class_list.published', { ...base, list_id: 10, proposed_by: null, reason: null }));
    expect(await mailsTo('obame.enseignant@example.ga', 'class-list-review')).toHaveLength(2);
  });
});

describe('the words of a book found for a list', () => {
  const alert = {
    listLabel: '6e · 2026-2027',
    bookId: 5,
    price: 2500,
    exchange: false,
    where: 'à Libreville',
  };
  it('names the list’s book when the listing’s title does not already say it, and only then', () => {
    expect(
      classListMatchText({ ...alert, itemTitle: 'Mathématiques 6e', bookTitle: 'Maths 6e Excellence' }).sentence,
    ).toBe(
      '« Maths 6e Excellence » (Mathématiques 6e, liste 6e · 2026-2027) vient d’être mis en ligne à Libreville : 2 500 FCFA.',
    );
    expect(
      classListMatchText({ ...alert, itemTitle: 'Mathématiques 6e', bookTitle: 'mathématiques 6e, très bon état' })
        .sentence,
    ).toBe(
      '« mathématiques 6e, très bon état » (liste 6e · 2026-2027) vient d’être mis en ligne à Libreville : 2 500 FCFA.',
    );
  });
});
