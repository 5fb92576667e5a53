import { randomUUID } from 'node:crypto';
import type { Envelope } from '@cartable/contracts';
import { combineHandlers, createHttpApp, type Db, eventRegistry, metricsText } from '@cartable/service-kit';
import { eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outgoingMails } from '../src/db/schema.ts';
import { mailTriggers } from '../src/events/mail-triggers.ts';
import { memberAddresses, messageMails } from '../src/events/message-mails.ts';
import { type Mail, render } from '../src/queue/mail-queue.ts';
import { deleteFinishedMails, deliverMail, mailRetryDelay, recordMail } from '../src/queue/outgoing-mails.ts';
import { freePort, mailCatcher, notificationsDatabase, refusingSmtpServer, silent } from './helpers.ts';

let database: Awaited<ReturnType<typeof notificationsDatabase>>;
let db: Db;
let catcher: Awaited<ReturnType<typeof mailCatcher>>;

beforeAll(async () => {
  [database, catcher] = await Promise.all([notificationsDatabase(), mailCatcher()]);
  db = database.db;
});
afterAll(async () => {
  await catcher?.close();
  await database?.close();
});

const policy = { initialDelayMs: 2000, maxDelayMs: 600_000, budgetMs: 48 * 3600_000 };

function smtpSender(port: number) {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port, connectionTimeout: 2000 });
  return async (mail: Mail) => {
    await transport.sendMail({ from: 'no-reply@cartable.ga', to: mail.to, ...render(mail, 'https://cartable.ga') });
  };
}

function registered(email: string): Envelope<'auth.user.registered'> {
  return {
    id: randomUUID(),
    type: 'auth.user.registered',
    occurred_at: new Date().toISOString(),
    data: {
      user_id: randomUUID(),
      name: 'Awa',
      username: `awa_${email.slice(0, 6)}`,
      email,
      country_id: 266,
      city_id: 1,
      profile_image: null,
      created_at: new Date().toISOString(),
      verification: { token: 'tok_secret', expires_at: '2026-06-01T10:00:00Z' },
    },
  } as Envelope<'auth.user.registered'>;
}

const onAuth = combineHandlers(memberAddresses, mailTriggers)['auth.user.registered']!;
const rowsFor = (id: string) => db.select().from(outgoingMails).where(eq(outgoingMails.id, id));
const pendingMail = async (to: string) => {
  const id = randomUUID();
  await recordMail(db, id, {
    template: 'verification',
    to,
    data: { name: 'Awa', email: to, token: 'tok', expiresAt: '2026-06-01T10:00:00Z' },
  });
  return id;
};
async function abandonedCount(reason: string): Promise<number> {
  const metric = await eventRegistry.getSingleMetric('cartable_mails_abandoned_total')?.get();
  return metric?.values.find((v) => v.labels.reason === reason)?.value ?? 0;
}

describe('outgoing mails are written in the consumer transaction', () => {
  it('writes one pending row keyed by the event id, however often the event is handled', async () => {
    const event = registered('awa.row@example.ga');
    await db.transaction((tx) => onAuth(tx, event));
    await db.transaction((tx) => onAuth(tx, event));
    const rows = await rowsFor(event.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      template: 'verification',
      recipient: 'awa.row@example.ga',
      status: 'pending',
      attempts: 0,
      sentAt: null,
      data: { name: 'Awa', email: 'awa.row@example.ga', token: 'tok_secret' },
    });
  });

  it('writes nothing when the transaction rolls back', async () => {
    const event = registered('awa.rollback@example.ga');
    await expect(
      db.transaction(async (tx) => {
        await onAuth(tx, event);
        throw new Error('the handler failed after the insert');
      }),
    ).rejects.toThrow('the handler failed');
    expect(await rowsFor(event.id)).toEqual([]);
  });

  it('keys a message notice and the sender copy by `<event id>-notice` and `-copy`', async () => {
    const [sender, receiver] = [registered('sender@example.ga'), registered('receiver@example.ga')];
    await db.transaction(async (tx) => {
      await onAuth(tx, sender);
      await onAuth(tx, receiver);
    });
    const id = randomUUID();
    const event = {
      id,
      type: 'messaging.message.sent',
      occurred_at: new Date().toISOString(),
      data: {
        message_id: randomUUID(),
        conversation_id: randomUUID(),
        book_id: 7,
        book_title: 'Mathématiques 3e',
        sender_id: sender.data.user_id,
        sender_name: 'Awa',
        receiver_id: receiver.data.user_id,
        content: 'Bonjour',
        send_email_copy: true,
        created_at: new Date().toISOString(),
      },
    } as Envelope<'messaging.message.sent'>;
    await db.transaction((tx) => messageMails['messaging.message.sent']!(tx, event));
    expect((await rowsFor(`${id}-notice`))[0]).toMatchObject({
      template: 'new-message',
      recipient: 'receiver@example.ga',
    });
    expect((await rowsFor(`${id}-copy`))[0]).toMatchObject({
      template: 'message-copy',
      recipient: 'sender@example.ga',
    });
  });
});

describe('delivering a mail', () => {
  it('sends it over SMTP once and marks it sent; a second delivery sends nothing', async () => {
    const id = await pendingMail('once@example.ga');
    const send = smtpSender(catcher.smtpPort);
    expect(await deliverMail(db, id, send, policy, silent)).toEqual({ status: 'sent' });
    expect(await deliverMail(db, id, send, policy, silent)).toEqual({ status: 'skipped' });
    const [row] = await rowsFor(id);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
    expect(row?.sentAt).toBeInstanceOf(Date);
    // maildev files a mail a moment after the SMTP server accepted it: wait for it, then count.
    await catcher.waitFor('once@example.ga');
    const caught = (await catcher.list()).filter((m) => m.to.some((t) => t.address === 'once@example.ga'));
    expect(caught.map((m) => m.subject)).toEqual(['Confirmez votre adresse email – Cartable']);
  });

  it('sends a mail once when five workers take it at the same time', async () => {
    const id = await pendingMail('race@example.ga');
    const send = smtpSender(catcher.smtpPort);
    const results = await Promise.all(Array.from({ length: 5 }, () => deliverMail(db, id, send, policy, silent)));
    expect(results.filter((r) => r.status === 'sent')).toHaveLength(1);
    // The others found it locked (and come back a second later) or already sent.
    expect(results.filter((r) => r.status === 'retry' || r.status === 'skipped')).toHaveLength(4);
    for (const r of results) if (r.status === 'retry') expect(r.at.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    expect(await deliverMail(db, id, send, policy, silent)).toEqual({ status: 'skipped' });
    await catcher.waitFor('race@example.ga');
    const caught = (await catcher.list()).filter((m) => m.to.some((t) => t.address === 'race@example.ga'));
    expect(caught).toHaveLength(1);
  });

  it('comes back later to a pending mail locked by someone else, instead of dropping it', async () => {
    const id = await pendingMail('locked@example.ga');
    const send = smtpSender(catcher.smtpPort);
    let releaseLock = () => {};
    const held = db.transaction(async (tx) => {
      await tx.select().from(outgoingMails).where(eq(outgoingMails.id, id)).for('update');
      await new Promise<void>((r) => {
        releaseLock = r;
      });
    });
    await new Promise((r) => setTimeout(r, 50));
    const whileLocked = await deliverMail(db, id, send, policy, silent);
    releaseLock();
    await held;
    expect(whileLocked.status).toBe('retry');
    expect(await deliverMail(db, id, send, policy, silent)).toEqual({ status: 'sent' });
  });

  it('keeps a mail the SMTP server could not take, with its error and the time of the next try', async () => {
    const id = await pendingMail('later@example.ga');
    const down = smtpSender(await freePort());
    const before = Date.now();
    const first = await deliverMail(db, id, down, policy, silent);
    expect(first.status).toBe('retry');
    const at = first.status === 'retry' ? first.at.getTime() : 0;
    expect(at).toBeGreaterThanOrEqual(before + 2000);
    const [row] = await rowsFor(id);
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row?.lastError).toMatch(/ECONNREFUSED|connect/);
    // Taken again before its time (a duplicate job): nothing is tried.
    expect(await deliverMail(db, id, down, policy, silent)).toEqual({ status: 'retry', at: row?.nextAttemptAt });
    expect((await rowsFor(id))[0]?.attempts).toBe(1);
    // Once its time has come, the SMTP server is back: sent.
    await db.update(outgoingMails).set({ nextAttemptAt: new Date() }).where(eq(outgoingMails.id, id));
    expect(await deliverMail(db, id, smtpSender(catcher.smtpPort), policy, silent)).toEqual({ status: 'sent' });
    expect((await rowsFor(id))[0]).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
  });

  it('abandons a mail still failing after the retry budget, keeps its last error and counts it', async () => {
    const id = await pendingMail('expired@example.ga');
    await db
      .update(outgoingMails)
      .set({ createdAt: new Date(Date.now() - 49 * 3600_000) })
      .where(eq(outgoingMails.id, id));
    const counted = await abandonedCount('expired');
    expect(await deliverMail(db, id, smtpSender(await freePort()), policy, silent)).toEqual({ status: 'abandoned' });
    const [row] = await rowsFor(id);
    expect(row).toMatchObject({ status: 'abandoned', attempts: 1 });
    expect(row?.lastError).toMatch(/ECONNREFUSED|connect/);
    expect(await abandonedCount('expired')).toBe(counted + 1);
    // Exposed on the service's metrics port (libs/service-kit: serveMetrics).
    const app = createHttpApp({ name: 'notifications', logger: false });
    const metrics = await metricsText(app.metrics);
    await app.close();
    expect(metrics).toMatch(/cartable_mails_abandoned_total\{[^}]*reason="expired"[^}]*\} [1-9]/);
    // Abandoned is final: a later job sends nothing.
    expect(await deliverMail(db, id, smtpSender(catcher.smtpPort), policy, silent)).toEqual({ status: 'skipped' });
  });

  it('abandons at once a mail whose recipient the server refuses (5xx)', async () => {
    const refusing = await refusingSmtpServer();
    try {
      const id = await pendingMail('nobody@example.ga');
      const counted = await abandonedCount('permanent');
      expect(await deliverMail(db, id, smtpSender(refusing.port), policy, silent)).toEqual({ status: 'abandoned' });
      const [row] = await rowsFor(id);
      expect(row).toMatchObject({ status: 'abandoned', attempts: 1 });
      expect(row?.lastError).toContain('550');
      expect(await abandonedCount('permanent')).toBe(counted + 1);
    } finally {
      await refusing.close();
    }
  });

  it('waits 2 s after the first failure, doubling up to 10 min', () => {
    expect([1, 2, 3, 4, 9, 10, 50].map((n) => mailRetryDelay(policy, n))).toEqual([
      2000, 4000, 8000, 16_000, 512_000, 600_000, 600_000,
    ]);
  });
});

describe('retention', () => {
  it('deletes sent and abandoned mails after the retention, never a pending one', async () => {
    const [oldSent, oldAbandoned, oldPending, recentSent] = await Promise.all(
      ['old-sent', 'old-abandoned', 'old-pending', 'recent-sent'].map((n) => pendingMail(`${n}@example.ga`)),
    );
    const longAgo = new Date(Date.now() - 31 * 24 * 3600_000);
    await db.update(outgoingMails).set({ status: 'sent', sentAt: longAgo }).where(eq(outgoingMails.id, oldSent!));
    await db
      .update(outgoingMails)
      .set({ status: 'abandoned', createdAt: longAgo })
      .where(eq(outgoingMails.id, oldAbandoned!));
    await db.update(outgoingMails).set({ createdAt: longAgo }).where(eq(outgoingMails.id, oldPending!));
    await db.update(outgoingMails).set({ status: 'sent', sentAt: new Date() }).where(eq(outgoingMails.id, recentSent!));
    expect(await deleteFinishedMails(30)(db)).toBeGreaterThanOrEqual(2);
    expect(await rowsFor(oldSent!)).toEqual([]);
    expect(await rowsFor(oldAbandoned!)).toEqual([]);
    expect(await rowsFor(oldPending!)).toHaveLength(1);
    expect(await rowsFor(recentSent!)).toHaveLength(1);
  });
});
