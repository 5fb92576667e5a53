import { randomUUID } from 'node:crypto';
import type { Envelope, EventType } from '@cartable/contracts';
import type { Db } from '@cartable/service-kit';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members, notices, outgoingMails } from '../src/db/schema.ts';
import { subscriptionMails } from '../src/events/subscription-mails.ts';
import { type Mail, render } from '../src/queue/mail-queue.ts';
import { notificationsDatabase } from './helpers.ts';

let database: Awaited<ReturnType<typeof notificationsDatabase>>;
let db: Db;
const memberId = randomUUID();

beforeAll(async () => {
  database = await notificationsDatabase();
  db = database.db;
  await db.insert(members).values({ id: memberId, name: 'Awa', email: 'awa.abonnee@example.ga' });
});
afterAll(() => database?.close());

const subscriptionId = randomUUID();
const endsAt = '2026-12-24T10:00:00.000Z';

function subscriptionEvent(type: EventType, data: Record<string, unknown> = {}) {
  return {
    id: randomUUID(),
    type,
    occurred_at: new Date().toISOString(),
    data: {
      subscription_id: subscriptionId,
      user_id: memberId,
      plan_name: 'Mise en avant 30 jours',
      kind: 'boost',
      status: 'active',
      starts_at: '2026-11-24T10:00:00.000Z',
      ends_at: endsAt,
      book_ids: [7],
      book_titles: ['Mathématiques <6e>'],
      reason: null,
      at: new Date().toISOString(),
      ...data,
    },
  } as unknown as Envelope;
}

function paymentEvent(type: EventType, data: Record<string, unknown> = {}) {
  return {
    id: randomUUID(),
    type,
    occurred_at: new Date().toISOString(),
    data: {
      payment_id: randomUUID(),
      subscription_id: subscriptionId,
      user_id: memberId,
      plan_name: 'Mise en avant 30 jours',
      provider: 'manual',
      operator: 'airtel_money',
      amount: 3000,
      reference: 'CRT-ABC123',
      status: 'paid',
      refund_amount: null,
      reason: null,
      at: new Date().toISOString(),
      ...data,
    },
  } as unknown as Envelope;
}

async function handle(event: Envelope) {
  const handler = subscriptionMails[event.type]!;
  await db.transaction((tx) => handler(tx, event as never));
}
const mailOf = async (id: string) => {
  const rows = await db.select().from(outgoingMails).where(eq(outgoingMails.id, id));
  expect(rows).toHaveLength(1);
  const row = rows[0]!;
  return {
    row,
    mail: render({ template: row.template, to: row.recipient, data: row.data } as Mail, 'https://cartable.ga'),
  };
};

describe('subscription mails and notices', () => {
  it('activation: one mail and one notice even when the event comes twice', async () => {
    const event = subscriptionEvent('catalog.subscription.activated');
    await handle(event);
    await handle(event);
    const { row, mail } = await mailOf(event.id);
    expect(row.recipient).toBe('awa.abonnee@example.ga');
    expect(mail.subject).toBe('Votre abonnement « Mise en avant 30 jours » est actif – Cartable');
    expect(mail.text).toContain('jusqu’au 24 décembre 2026');
    expect(mail.text).toContain(`https://cartable.ga/subscription/details/${subscriptionId}`);
    expect(mail.html).toContain('Mathématiques &lt;6e&gt;');
    const rows = await db
      .select()
      .from(notices)
      .where(and(eq(notices.userId, memberId), eq(notices.type, 'subscription.activated')));
    expect(rows).toHaveLength(1);
  });

  it('the reminder, the end, a cancel and an extension say what happened and why', async () => {
    const expiring = subscriptionEvent('catalog.subscription.expiring');
    await handle(expiring);
    expect((await mailOf(expiring.id)).mail.subject).toMatch(/se termine bientôt/);
    expect((await mailOf(expiring.id)).mail.text).toContain('le 24 décembre 2026');

    const expired = subscriptionEvent('catalog.subscription.expired', { status: 'expired' });
    await handle(expired);
    expect((await mailOf(expired.id)).mail.text).toContain('sans mise en avant');

    const cancelled = subscriptionEvent('catalog.subscription.cancelled', {
      status: 'cancelled',
      reason: 'Annonce contraire aux règles',
    });
    await handle(cancelled);
    expect((await mailOf(cancelled.id)).mail.text).toContain('Motif : Annonce contraire aux règles');

    const extended = subscriptionEvent('catalog.subscription.extended', { reason: 'Panne de 2 jours' });
    await handle(extended);
    expect((await mailOf(extended.id)).mail.text).toContain('Motif : Panne de 2 jours');
  });

  it('a refund names the amount refunded; a failed payment says nothing was taken', async () => {
    const refunded = paymentEvent('catalog.payment.refunded', { refund_amount: 1500, reason: 'Geste commercial' });
    await handle(refunded);
    const { mail } = await mailOf(refunded.id);
    expect(mail.text).toContain('remboursé 1 500 FCFA');
    expect(mail.text).toContain('Motif : Geste commercial');

    const failed = paymentEvent('catalog.payment.failed', { status: 'failed', reason: 'Solde insuffisant' });
    await handle(failed);
    const failedMail = (await mailOf(failed.id)).mail;
    expect(failedMail.text).toContain('3 000 FCFA');
    expect(failedMail.text).toContain('(Solde insuffisant)');
    expect(failedMail.text).toContain('Aucun montant n’a été encaissé');
  });
});
