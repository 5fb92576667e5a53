import { randomUUID } from 'node:crypto';
import type { Envelope } from '@cartable/contracts';
import type { Db } from '@cartable/service-kit';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members, outgoingMails } from '../src/db/schema.ts';
import { catalogMails } from '../src/events/catalog-mails.ts';
import { type Mail, render } from '../src/queue/mail-queue.ts';
import { notificationsDatabase } from './helpers.ts';

let database: Awaited<ReturnType<typeof notificationsDatabase>>;
let db: Db;
const sellerId = randomUUID();
const buyerId = randomUUID();

beforeAll(async () => {
  database = await notificationsDatabase();
  db = database.db;
  await db.insert(members).values([
    { id: sellerId, name: 'Awa', email: 'awa.vendeuse@example.ga' },
    { id: buyerId, name: 'Brice', email: 'brice.acheteur@example.ga' },
  ]);
});
afterAll(() => database?.close());

type DealType =
  | 'catalog.transaction.proposed'
  | 'catalog.transaction.confirmed'
  | 'catalog.transaction.declined'
  | 'catalog.transaction.cancelled';

function dealEvent<T extends DealType>(type: T, data: Partial<Envelope<T>['data']> = {}): Envelope<T> {
  return {
    id: randomUUID(),
    type,
    occurred_at: new Date().toISOString(),
    data: {
      transaction_id: randomUUID(),
      book_id: 42,
      book_title: 'Mathématiques <Terminale D>',
      kind: 'sale',
      price: 4000,
      exchange_book_id: null,
      exchange_book_title: null,
      seller_id: sellerId,
      buyer_id: buyerId,
      status: 'proposed',
      cancelled_by: null,
      at: new Date().toISOString(),
      ...data,
    },
  } as Envelope<T>;
}

const rowsFor = (id: string) => db.select().from(outgoingMails).where(eq(outgoingMails.id, id));
const rendered = (row: { template: string; recipient: string; data: unknown }) =>
  render({ template: row.template, to: row.recipient, data: row.data } as Mail, 'https://cartable.ga');

describe('deal mails', () => {
  it('a proposal e-mails the buyer once, in French, with the link to answer it', async () => {
    const event = dealEvent('catalog.transaction.proposed');
    const handle = catalogMails['catalog.transaction.proposed']!;
    await db.transaction((tx) => handle(tx, event));
    await db.transaction((tx) => handle(tx, event));
    const rows = await rowsFor(event.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ template: 'deal', recipient: 'brice.acheteur@example.ga', status: 'pending' });
    const mail = rendered(rows[0]!);
    expect(mail.subject).toBe('Awa vous propose une transaction pour « Mathématiques <Terminale D> » – Cartable');
    expect(mail.text).toContain(
      'Awa a enregistré une vente à 4 000 FCFA pour le manuel « Mathématiques <Terminale D> »',
    );
    expect(mail.text).toContain(`https://cartable.ga/transactions/${event.data.transaction_id}`);
    expect(mail.html).toContain('Mathématiques &lt;Terminale D&gt;');
    expect(mail.html).not.toContain('<Terminale D>');
  });

  it('a confirmation and a refusal go to the seller; a cancellation to the other party', async () => {
    const confirmed = dealEvent('catalog.transaction.confirmed', { status: 'confirmed', kind: 'gift', price: 0 });
    await db.transaction((tx) => catalogMails['catalog.transaction.confirmed']!(tx, confirmed));
    const [c] = await rowsFor(confirmed.id);
    expect(c!.recipient).toBe('awa.vendeuse@example.ga');
    expect(rendered(c!).text).toContain('Brice a confirmé un don');

    const declined = dealEvent('catalog.transaction.declined', { status: 'declined' });
    await db.transaction((tx) => catalogMails['catalog.transaction.declined']!(tx, declined));
    expect((await rowsFor(declined.id))[0]!.recipient).toBe('awa.vendeuse@example.ga');

    const bySeller = dealEvent('catalog.transaction.cancelled', { status: 'cancelled', cancelled_by: sellerId });
    await db.transaction((tx) => catalogMails['catalog.transaction.cancelled']!(tx, bySeller));
    expect((await rowsFor(bySeller.id))[0]!.recipient).toBe('brice.acheteur@example.ga');

    const byBuyer = dealEvent('catalog.transaction.cancelled', { status: 'cancelled', cancelled_by: buyerId });
    await db.transaction((tx) => catalogMails['catalog.transaction.cancelled']!(tx, byBuyer));
    const [b] = await rowsFor(byBuyer.id);
    expect(b!.recipient).toBe('awa.vendeuse@example.ga');
    expect(rendered(b!).subject).toMatch(/^Brice a annulé la transaction/);

    const bySold = dealEvent('catalog.transaction.cancelled', { status: 'cancelled', cancelled_by: null });
    await db.transaction((tx) => catalogMails['catalog.transaction.cancelled']!(tx, bySold));
    const [s] = await rowsFor(bySold.id);
    expect(s!.recipient).toBe('brice.acheteur@example.ga');
    expect(rendered(s!).text).toContain('cédé dans une autre transaction');
  });
});
