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
const ownerId = randomUUID();

beforeAll(async () => {
  database = await notificationsDatabase();
  db = database.db;
  await db.insert(members).values({ id: ownerId, name: 'Awa', email: 'awa.vendeuse@example.ga' });
});
afterAll(() => database?.close());

function moderated(data: Partial<Envelope<'catalog.book.moderated'>['data']> = {}): Envelope<'catalog.book.moderated'> {
  return {
    id: randomUUID(),
    type: 'catalog.book.moderated',
    occurred_at: new Date().toISOString(),
    data: {
      book_id: 42,
      owner_id: ownerId,
      title: 'Mathématiques <Terminale D>',
      action: 'hidden',
      reason: 'Photos reprises d’une autre annonce',
      moderator_id: randomUUID(),
      at: new Date().toISOString(),
      ...data,
    },
  };
}

const handle = catalogMails['catalog.book.moderated']!;
const rowsFor = (id: string) => db.select().from(outgoingMails).where(eq(outgoingMails.id, id));

describe('catalog.book.moderated', () => {
  it('writes one mail to the owner with the reason, however often the event is delivered', async () => {
    const event = moderated();
    await db.transaction((tx) => handle(tx, event));
    await db.transaction((tx) => handle(tx, event));
    const rows = await rowsFor(event.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      template: 'book-moderated',
      recipient: 'awa.vendeuse@example.ga',
      status: 'pending',
      data: { name: 'Awa', bookId: 42, action: 'hidden', reason: 'Photos reprises d’une autre annonce' },
    });

    const mail = render(
      { template: rows[0]!.template, to: rows[0]!.recipient, data: rows[0]!.data } as Mail,
      'https://cartable.ga',
    );
    expect(mail.subject).toBe('Votre annonce a été masquée : « Mathématiques <Terminale D> » – Cartable');
    expect(mail.text).toContain('Motif : Photos reprises d’une autre annonce');
    expect(mail.text).toContain('https://cartable.ga/my-books');
    expect(mail.html).toContain('Photos reprises d’une autre annonce');
    expect(mail.html).toContain('Mathématiques &lt;Terminale D&gt;');
    expect(mail.html).not.toContain('<Terminale D>');
  });

  it('says what happened for a deletion and a status change', async () => {
    const deleted = moderated({ action: 'deleted', reason: 'Contrefaçon signalée' });
    const status = moderated({ action: 'status_changed', status: 'vendu', reason: null });
    await db.transaction((tx) => handle(tx, deleted));
    await db.transaction((tx) => handle(tx, status));
    const [gone] = await rowsFor(deleted.id);
    const goneMail = render(
      { template: 'book-moderated', to: gone!.recipient, data: gone!.data } as Mail,
      'https://x.ga',
    );
    expect(goneMail.subject).toMatch(/^Votre annonce a été supprimée/);
    expect(goneMail.text).toContain('Motif : Contrefaçon signalée');
    const [changed] = await rowsFor(status.id);
    const changedMail = render(
      { template: 'book-moderated', to: changed!.recipient, data: changed!.data } as Mail,
      'https://x.ga',
    );
    expect(changedMail.text).toContain('au statut « Vendu »');
    expect(changedMail.text).not.toContain('Motif');
  });

  it('writes nothing for an owner notifications has never heard of', async () => {
    const event = moderated({ owner_id: randomUUID() });
    await db.transaction((tx) => handle(tx, event));
    expect(await rowsFor(event.id)).toHaveLength(0);
  });
});
