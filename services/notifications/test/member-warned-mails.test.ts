import { randomUUID } from 'node:crypto';
import type { Envelope } from '@cartable/contracts';
import type { Db } from '@cartable/service-kit';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members, outgoingMails } from '../src/db/schema.ts';
import { moderationMails } from '../src/events/moderation-mails.ts';
import { type Mail, render } from '../src/queue/mail-queue.ts';
import { notificationsDatabase } from './helpers.ts';

/** A member warned after reports gets one French e-mail saying what was reported and why. */
let database: Awaited<ReturnType<typeof notificationsDatabase>>;
let db: Db;
const memberId = randomUUID();

beforeAll(async () => {
  database = await notificationsDatabase();
  db = database.db;
  await db.insert(members).values({ id: memberId, name: 'Paul', email: 'paul@example.ga' });
});
afterAll(() => database?.close());

const warned = (
  data: Partial<Envelope<'moderation.member.warned'>['data']> = {},
): Envelope<'moderation.member.warned'> => ({
  id: randomUUID(),
  type: 'moderation.member.warned',
  occurred_at: new Date().toISOString(),
  data: {
    user_id: memberId,
    reason: 'Arnaque',
    target_label: 'Maths <6e>',
    note: 'Paiement demandé à l’avance',
    ...data,
  },
});

describe('moderation.member.warned', () => {
  it('writes one mail however often the event comes, escaped, with the reason and the note', async () => {
    const handle = moderationMails['moderation.member.warned']!;
    const event = warned();
    await db.transaction((tx) => handle(tx, event));
    await db.transaction((tx) => handle(tx, event));
    const rows = await db.select().from(outgoingMails).where(eq(outgoingMails.id, event.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ template: 'member-warned', recipient: 'paul@example.ga' });
    const mail = render(
      { template: rows[0]!.template, to: rows[0]!.recipient, data: rows[0]!.data } as Mail,
      'https://cartable.ga',
    );
    expect(mail.subject).toBe('Avertissement concernant votre compte – Cartable');
    expect(mail.html).toContain('Maths &lt;6e&gt;');
    expect(mail.text).toContain('« Arnaque »');
    expect(mail.text).toContain('Précision de l’équipe : Paiement demandé à l’avance');
    expect(mail.text).toContain('https://cartable.ga/terms');
  });

  it('writes nothing for a member it does not know', async () => {
    const handle = moderationMails['moderation.member.warned']!;
    const event = warned({ user_id: randomUUID() });
    await db.transaction((tx) => handle(tx, event));
    expect(await db.select().from(outgoingMails).where(eq(outgoingMails.id, event.id))).toHaveLength(0);
  });
});
