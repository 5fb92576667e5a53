import { randomUUID } from 'node:crypto';
import type { Envelope } from '@cartable/contracts';
import type { Db } from '@cartable/service-kit';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members, notices, outgoingMails } from '../src/db/schema.ts';
import { exchangeMails } from '../src/events/exchange-mails.ts';
import { type Mail, render } from '../src/queue/mail-queue.ts';
import { notificationsDatabase } from './helpers.ts';

let database: Awaited<ReturnType<typeof notificationsDatabase>>;
let db: Db;
const awa = randomUUID();
const brice = randomUUID();
const carine = randomUUID();

beforeAll(async () => {
  database = await notificationsDatabase();
  db = database.db;
  await db.insert(members).values([
    { id: awa, name: 'Awa', email: 'awa.echange@example.ga' },
    { id: brice, name: 'Brice', email: 'brice.echange@example.ga' },
    { id: carine, name: 'Carine', email: 'carine.echange@example.ga' },
  ]);
});
afterAll(() => database?.close());

const event = (
  type: 'catalog.exchange.suggested' | 'catalog.exchange.accepted',
  legs: Array<[string, string, string]>,
) =>
  ({
    id: randomUUID(),
    type,
    occurred_at: new Date().toISOString(),
    data: {
      suggestion_id: randomUUID(),
      kind: legs.length === 3 ? 'cycle' : 'pair',
      area: 'Estuaire',
      legs: legs.map(([from, to, title], i) => ({
        from_user_id: from,
        to_user_id: to,
        book_id: i + 1,
        book_title: title,
      })),
      at: new Date().toISOString(),
    },
  }) as Envelope<'catalog.exchange.suggested'>;

const handle = (e: Envelope<'catalog.exchange.suggested'>) =>
  db.transaction((tx) => exchangeMails[e.type]!(tx, e as never));
const mailTo = async (address: string) => {
  const rows = await db.select().from(outgoingMails).where(eq(outgoingMails.recipient, address));
  return rows.map((r) =>
    render({ template: r.template, to: r.recipient, data: r.data } as Mail, 'https://cartable.ga'),
  );
};

describe('exchange suggestions', () => {
  it('tell each member of a cycle what they give and receive, once', async () => {
    const cycle = event('catalog.exchange.suggested', [
      [brice, awa, 'SVT 5e'],
      [carine, brice, 'SVT 4e'],
      [awa, carine, 'SVT 6e <occasion>'],
    ]);
    await handle(cycle);
    await handle(cycle);
    const [toAwa, ...more] = await mailTo('awa.echange@example.ga');
    expect(more).toEqual([]);
    expect(toAwa!.subject).toBe('Un échange de manuels vous est proposé – Cartable');
    expect(toAwa!.text).toContain('un échange à trois près de chez vous (Estuaire)');
    expect(toAwa!.text).toContain('vous recevez « SVT 5e » de Brice, et vous donnez « SVT 6e <occasion> » à Carine');
    expect(toAwa!.html).toContain('SVT 6e &lt;occasion&gt;');
    expect(toAwa!.text).toContain('https://cartable.ga/echanges');
    for (const address of ['brice.echange@example.ga', 'carine.echange@example.ga'])
      expect(await mailTo(address)).toHaveLength(1);
    expect(await db.select().from(notices).where(eq(notices.userId, carine))).toHaveLength(1);
  });

  it('says in the bell when everyone accepted', async () => {
    await handle(
      event('catalog.exchange.accepted', [
        [awa, brice, 'Maths 5e'],
        [brice, awa, 'Maths 4e'],
      ]),
    );
    const [notice] = await db.select().from(notices).where(eq(notices.type, 'exchange.accepted'));
    expect(notice).toMatchObject({ title: 'Échange accepté par tous', link: '/messages' });
    expect(await db.select().from(notices).where(eq(notices.type, 'exchange.accepted'))).toHaveLength(2);
  });
});
