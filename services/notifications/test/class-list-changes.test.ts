import { randomUUID } from 'node:crypto';
import type { Envelope, EventType } from '@cartable/contracts';
import type { Db } from '@cartable/service-kit';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alertChannels,
  alertPhones,
  members,
  notices,
  notificationPreferences,
  outgoingMails,
  outgoingSms,
} from '../src/db/schema.ts';
import { classListMails } from '../src/events/class-list-mails.ts';
import { CLASS_LIST_MAILS_PER_DAY } from '../src/events/member-notices.ts';
import { type Mail, render } from '../src/queue/mail-queue.ts';
import { renderSms, SMS_MAX } from '../src/sms/texts.ts';
import { notificationsDatabase } from './helpers.ts';

let database: Awaited<ReturnType<typeof notificationsDatabase>>;
let db: Db;
const family = randomUUID();
const quiet = randomUUID();
const seller = randomUUID();

beforeAll(async () => {
  database = await notificationsDatabase();
  db = database.db;
  await db.insert(members).values([
    { id: family, name: 'Mireille', email: 'mireille.famille@example.ga' },
    { id: quiet, name: 'Ulrich', email: 'ulrich.famille@example.ga' },
    { id: seller, name: 'Awa', email: 'awa.vendeuse@example.ga' },
  ]);
  // Ulrich turned « Ma liste » mails off; Awa chose SMS for « Ma liste » and has a verified phone.
  await db.insert(notificationPreferences).values({ userId: quiet, classListEmails: false });
  await db.insert(alertChannels).values({ userId: seller, kind: 'class_list', sms: true });
  await db.insert(alertPhones).values({ userId: seller, phone: '+24106123456', verifiedAt: new Date() });
});
afterAll(() => database?.close());

const list = { id: 7, level_id: 31, school_year: '2026-2027', level_name: '6e', school_name: null };
const envelope = (type: EventType, data: Record<string, unknown>) =>
  ({ id: randomUUID(), type, occurred_at: new Date().toISOString(), data }) as unknown as Envelope;

const changed = (userId: string) =>
  envelope('catalog.class_list.saved_changed', {
    user_id: userId,
    list,
    version: 2,
    changes: [
      { kind: 'withdrawn', item: { id: 11, title: 'Français 6e – Collection Diallo', isbn: null }, previous: null },
      {
        kind: 'replaced',
        item: { id: 14, title: 'Mathématiques 6e Nouvelle édition', isbn: null },
        previous: { id: 12, title: 'Mathématiques 6e', isbn: null },
      },
      { kind: 'added', item: { id: 15, title: 'Éducation civique 6e', isbn: null }, previous: null },
    ],
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
const rendered = (row: { template: string; recipient: string; data: unknown }) =>
  render({ template: row.template, to: row.recipient, data: row.data } as Mail, 'https://cartable.ga');

describe('a saved list changed', () => {
  it('tells the family once, even when the event comes twice: a notice to « Ma liste » and a mail in French', async () => {
    const event = changed(family);
    await handle(event);
    await handle(event);
    const bell = await db.select().from(notices).where(eq(notices.userId, family));
    expect(bell).toHaveLength(1);
    expect(bell[0]).toMatchObject({
      type: 'class_list.changed',
      title: 'La liste de 6e 2026-2027 a changé',
      link: '/ma-liste?level=31&list=7',
    });
    expect(bell[0]!.body).toBe(
      'Retiré : « Français 6e – Collection Diallo ». Remplacé : « Mathématiques 6e » par « Mathématiques 6e Nouvelle édition ». Ajouté : « Éducation civique 6e ». « Ma liste » suit la nouvelle version.',
    );
    const mails = await mailsTo('mireille.famille@example.ga', 'class-list-changed');
    expect(mails).toHaveLength(1);
    const mail = rendered(mails[0]!);
    expect(mail.subject).toBe('La liste de 6e 2026-2027 a changé – Cartable');
    expect(mail.text).toContain('https://cartable.ga/ma-liste?level=31&list=7');
    expect(mail.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
  });

  it(`mails at most ${CLASS_LIST_MAILS_PER_DAY} changes a day when books are withdrawn one by one; every change is in the bell`, async () => {
    const busy = randomUUID();
    await db.insert(members).values({ id: busy, name: 'Grâce', email: 'grace.famille@example.ga' });
    for (let i = 0; i < CLASS_LIST_MAILS_PER_DAY + 3; i++) await handle(changed(busy));
    expect(await mailsTo('grace.famille@example.ga', 'class-list-changed')).toHaveLength(CLASS_LIST_MAILS_PER_DAY);
    expect(await db.select().from(notices).where(eq(notices.userId, busy))).toHaveLength(CLASS_LIST_MAILS_PER_DAY + 3);
  });

  it('follows the member’s « Ma liste » switches: no mail when e-mails are off', async () => {
    await handle(changed(quiet));
    expect(await mailsTo('ulrich.famille@example.ga', 'class-list-changed')).toHaveLength(0);
    expect(await db.select().from(notices).where(eq(notices.userId, quiet))).toHaveLength(1);
  });
});

describe('a listing’s book withdrawn from a list', () => {
  it('tells the seller once: a notice, a mail and the SMS they chose', async () => {
    const event = envelope('catalog.class_list.listing_withdrawn', {
      user_id: seller,
      list,
      version: 2,
      book: { id: 901, title: 'Français 6e Diallo, très bon état' },
      item: { id: 11, title: 'Français 6e – Collection Diallo' },
      at: new Date().toISOString(),
    });
    await handle(event);
    await handle(event);
    const bell = await db.select().from(notices).where(eq(notices.userId, seller));
    expect(bell).toHaveLength(1);
    expect(bell[0]).toMatchObject({
      type: 'class_list.listing_withdrawn',
      title: 'Votre annonce n’est plus sur la liste de 6e 2026-2027',
      link: '/books/901',
    });
    expect(bell[0]!.body).toContain(
      'Votre annonce « Français 6e Diallo, très bon état » n’est plus sur la liste de 6e 2026-2027',
    );
    const mails = await mailsTo('awa.vendeuse@example.ga', 'class-list-withdrawn');
    expect(mails).toHaveLength(1);
    expect(rendered(mails[0]!).text).toContain('https://cartable.ga/books/901');
    const sms = await db.select().from(outgoingSms).where(eq(outgoingSms.userId, seller));
    expect(sms).toHaveLength(1);
    expect(sms[0]!.kind).toBe('class_list');
  });

  it('writes both SMS in one message of the GSM-7 alphabet', () => {
    const texts = [
      renderSms(
        { template: 'class-list-changed', data: { listLabel: '6e 2026-2027', path: '/ma-liste?level=31&list=7' } },
        'https://cartable.ga',
      ),
      renderSms(
        {
          template: 'class-list-withdrawn',
          data: {
            listLabel: '6e 2026-2027',
            bookId: 901,
            bookTitle: 'Français 6e – Collection Diallo, édition 2019, très bon état, couverture plastifiée',
          },
        },
        'https://cartable.ga',
      ),
    ];
    for (const text of texts) expect(text.length).toBeLessThanOrEqual(SMS_MAX);
    expect(texts[0]).toBe(
      'Ma liste : la liste 6e 2026-2027 a change. https://cartable.ga/ma-liste?level=31&list=7 STOP au SMS pour arreter',
    );
    expect(texts[1]).toContain("n'est plus sur la liste 6e 2026-2027");
    expect(texts[1]).toContain('https://cartable.ga/books/901');
  });
});
