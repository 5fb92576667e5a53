import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { loadConfig, openDatabase, outbox, UnitOfWork } from '@cartable/service-kit';
import { refusedBeforeValidation, testTokens } from '@cartable/service-kit/testing';
import { testDatabase } from '@cartable/stack/databases';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModerationApp } from '../src/app.ts';
import { moderationConfigSchema } from '../src/config.ts';
import * as schema from '../src/db/schema.ts';
import { messageReports } from '../src/events/projections.ts';

/**
 * « Signaler » and the « Signalements » queue on a real PostgreSQL: a listing, a member, a
 * comment, a message (arriving from messaging by event); once per reporter and target, never
 * one's own; admins only read and resolve, and a decision closes every open report of the target.
 */
let close: () => Promise<void>;
let app: Awaited<ReturnType<typeof buildModerationApp>>;
let db: Awaited<ReturnType<typeof openDatabase<typeof schema>>>['db'];
const owner = { sub: randomUUID(), token: '' };
const reporter = { sub: randomUUID(), token: '' };
const second = { sub: randomUUID(), token: '' };
const admin = { sub: randomUUID(), token: '' };
const BOOK = 11;

beforeAll(async () => {
  const database = await testDatabase('moderation');
  const config = loadConfig(moderationConfigSchema, {
    MODERATION_DATABASE_URL: database.url,
    DATA_DIR: database.dataDir,
  });
  const opened = await openDatabase({
    name: 'moderation',
    url: config.MODERATION_DATABASE_URL,
    dataDir: database.dataDir,
    schema,
    migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)),
  });
  db = opened.db;
  const tokens = await testTokens();
  app = await buildModerationApp(
    { config, uow: new UnitOfWork({ db, log: console }), guards: tokens.guards },
    [],
    false,
  );
  for (const m of [owner, reporter, second]) m.token = (await tokens.token({ sub: m.sub })).token;
  admin.token = (await tokens.token({ sub: admin.sub, is_admin: true })).token;
  await db.insert(schema.members).values([
    { id: owner.sub, name: 'Aïcha Mboumba' },
    { id: reporter.sub, name: 'Jean Ndong' },
    { id: second.sub, name: 'Marie Obame' },
  ]);
  await db.insert(schema.books).values({ id: BOOK, ownerId: owner.sub, title: 'Maths Terminale C' });
  close = async () => {
    await app.close();
    await opened.close();
    await database.drop();
  };
});
afterAll(() => close?.());

async function call(method: string, url: string, who?: { token: string }, body?: unknown) {
  const res = await app.inject({
    method: method as 'GET',
    url,
    headers: who ? { authorization: `Bearer ${who.token}` } : {},
    ...(body ? { payload: body as object } : {}),
  });
  // biome-ignore lint/suspicious/noExplicitAny: JSON of any shape
  return { status: res.statusCode, body: res.json() as any };
}

describe('reporting', () => {
  it('takes a report of a listing once per member, never of one’s own, and explains refusals in French', async () => {
    const report = { target_type: 'book', target_id: String(BOOK), reason: 'arnaque' };
    expect((await call('POST', '/reports', undefined, report)).status).toBe(401);
    const own = await call('POST', '/reports', owner, report);
    expect(own.status).toBe(422);
    expect(own.body.message).toBe('Vous ne pouvez pas signaler votre propre contenu.');
    const vague = await call('POST', '/reports', reporter, { ...report, reason: 'autre', details: 'x' });
    expect(vague.status).toBe(422);
    expect(vague.body.errors.details).toEqual(['Précisez la raison (au moins 5 caractères).']);
    expect((await call('POST', '/reports', reporter, { ...report, target_id: '999' })).status).toBe(404);
    expect((await call('POST', '/reports', reporter, { ...report, target_type: 'message' })).status).toBe(422);

    const created = await call('POST', '/reports', reporter, report);
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Signalement envoyé. Merci, notre équipe va l’examiner.');
    const twice = await call('POST', '/reports', reporter, report);
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('Vous avez déjà signalé ce contenu.');
    expect((await call('POST', '/reports', second, { ...report, reason: 'deja_vendu' })).status).toBe(201);
  });

  it('takes members and comments, and messages reported in messaging', async () => {
    expect(
      (await call('POST', '/reports', reporter, { target_type: 'user', target_id: owner.sub, reason: 'arnaque' }))
        .status,
    ).toBe(201);
    const comment = await call('POST', `/books/${BOOK}/comments`, owner, { content: 'Payez d’abord par Moov Money.' });
    expect(
      (
        await call('POST', '/reports', reporter, {
          target_type: 'comment',
          target_id: comment.body.data.id,
          reason: 'contenu_inapproprie',
        })
      ).status,
    ).toBe(201);
    const data = {
      message_id: randomUUID(),
      reporter_id: reporter.sub,
      sender_id: owner.sub,
      sender_name: 'Aïcha Mboumba',
      content: 'Envoyez l’argent avant.',
      reason: 'arnaque' as const,
      details: null,
      reported_at: new Date().toISOString(),
    };
    const handle = messageReports['messaging.message.reported']!;
    // Delivered twice: one report.
    for (let i = 0; i < 2; i++) {
      await db.transaction((tx) =>
        // biome-ignore lint/suspicious/noExplicitAny: the envelope of this event type
        (handle as any)(tx, { id: randomUUID(), type: 'messaging.message.reported', data }),
      );
    }
    const messages = await call('GET', '/admin/reports?target_type=message', admin);
    expect(messages.body.data).toHaveLength(1);
    expect(messages.body.data[0]).toMatchObject({
      target_label: 'Envoyez l’argent avant.',
      target_owner_name: 'Aïcha Mboumba',
    });
  });
});

describe('the queue', () => {
  it('is for admins; a decision closes every open report of the target and warns the member by event', async () => {
    expect((await call('GET', '/admin/reports', reporter)).status).toBe(403);
    const queue = await call('GET', '/admin/reports?status=open&target_type=book', admin);
    expect(queue.status).toBe(200);
    expect(queue.body.data).toHaveLength(2);
    const first = queue.body.data[0];
    expect(first).toMatchObject({
      target_label: 'Maths Terminale C',
      target_owner_name: 'Aïcha Mboumba',
      reports_on_target: 2,
    });
    const openBefore = queue.body.open as number;

    expect((await call('POST', `/admin/reports/${first.id}/resolve`, reporter, { decision: 'warned' })).status).toBe(
      403,
    );
    expect((await call('POST', `/admin/reports/${first.id}/resolve`, admin, { decision: 'banni' })).status).toBe(422);
    const resolved = await call('POST', `/admin/reports/${first.id}/resolve`, admin, {
      decision: 'warned',
      note: 'Annonce trompeuse',
    });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toEqual({ message: 'Signalement traité avec succès', resolved: 2 });
    expect((await call('POST', `/admin/reports/${first.id}/resolve`, admin, { decision: 'dismissed' })).status).toBe(
      409,
    );
    const after = await call('GET', `/admin/reports/${first.id}`, admin);
    expect(after.body.report).toMatchObject({ status: 'actioned', decision: 'warned', note: 'Annonce trompeuse' });
    expect((await call('GET', '/admin/reports', admin)).body.open).toBe(openBefore - 2);
    const [warned] = await db.select().from(outbox).where(eq(outbox.type, 'moderation.member.warned'));
    expect(warned?.payload).toMatchObject({
      user_id: owner.sub,
      target_label: 'Maths Terminale C',
      note: 'Annonce trompeuse',
    });
    expect(['Arnaque', 'Manuel déjà vendu']).toContain((warned?.payload as { reason: string } | undefined)?.reason);
    expect((await call('GET', `/admin/reports/${randomUUID()}`, admin)).status).toBe(404);
  });
});

describe('every protected route of the service', () => {
  it('refuses a member without the permission (403) before judging what they sent', async () => {
    const { walked, wrong } = await refusedBeforeValidation(app, second.token);
    expect(walked).toContain('PATCH /admin/comments/:commentId/moderate');
    expect(wrong).toEqual([]);
  });
});
