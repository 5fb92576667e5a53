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
import { authReportActions, catalogReportActions, messageReports } from '../src/events/projections.ts';

/**
 * « Signaler » and the « Signalements » queue on a real PostgreSQL: a listing, a member, a
 * comment, a message (arriving from messaging by event); once per reporter and target, never
 * one's own; admins only read and resolve, and a decision closes every open report of the target.
 */
let close: () => Promise<void>;
let app: Awaited<ReturnType<typeof buildModerationApp>>;
let db: Awaited<ReturnType<typeof openDatabase<typeof schema>>>['db'];
let uow: UnitOfWork;
const owner = { sub: randomUUID(), token: '' };
const reporter = { sub: randomUUID(), token: '' };
const second = { sub: randomUUID(), token: '' };
const admin = { sub: randomUUID(), token: '' };
const BOOK = 11;
const OTHER_BOOK = 12;

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
  uow = new UnitOfWork({ db, log: console });
  app = await buildModerationApp({ config, uow, guards: tokens.guards }, [], false);
  for (const m of [owner, reporter, second]) m.token = (await tokens.token({ sub: m.sub })).token;
  admin.token = (await tokens.token({ sub: admin.sub, is_admin: true })).token;
  await db.insert(schema.members).values([
    { id: owner.sub, name: 'Aïcha Mboumba' },
    { id: reporter.sub, name: 'Jean Ndong' },
    { id: second.sub, name: 'Marie Obame' },
  ]);
  await db.insert(schema.books).values([
    { id: BOOK, ownerId: owner.sub, title: 'Maths Terminale C' },
    { id: OTHER_BOOK, ownerId: owner.sub, title: 'Physique Terminale D' },
  ]);
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
    // A school's stamp in the book: a reason of its own.
    expect((await call('POST', '/reports', second, { ...report, reason: 'appartient_ecole' })).status).toBe(201);
  });

  it('takes « ce livre appartient à une école » about a listing only', async () => {
    const aboutMember = await call('POST', '/reports', second, {
      target_type: 'user',
      target_id: owner.sub,
      reason: 'appartient_ecole',
    });
    expect(aboutMember.status).toBe(422);
    expect(aboutMember.body.errors.reason).toEqual(['Cette raison ne concerne qu’une annonce.']);
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
    expect(resolved.body).toEqual({ message: 'Signalement traité avec succès', resolved: 2, status: 'actioned' });
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
    expect(['Arnaque', 'Ce livre appartient à une école']).toContain(
      (warned?.payload as { reason: string } | undefined)?.reason,
    );
    expect((await call('GET', `/admin/reports/${randomUUID()}`, admin)).status).toBe(404);
  });
});

/** An event handled as the consumer does: in the unit of work, once committed the listeners hear of it. */
async function deliver(
  handlers: typeof catalogReportActions,
  type: 'catalog.report.applied' | 'auth.report.applied',
  data: { report_ids: string[]; outcome: 'applied' | 'already' | 'gone' },
  occurredAt = new Date().toISOString(),
) {
  const envelope = { id: randomUUID(), type, occurred_at: occurredAt, data };
  // biome-ignore lint/suspicious/noExplicitAny: the envelope of this event type
  await uow.run((t) => (handlers[type] as any)(t.db, envelope, t));
}

const decidedEvents = async () =>
  (await db.select().from(outbox).where(eq(outbox.type, 'moderation.report.decided'))).map(
    // biome-ignore lint/suspicious/noExplicitAny: checked by its schema when written
    (row) => row.payload as any,
  );

describe('a decision and its action are one operation', () => {
  it('hides a listing through catalog: the reports wait « applying » until catalog answers, then close once', async () => {
    const report = { target_type: 'book', target_id: String(OTHER_BOOK), reason: 'arnaque' };
    expect((await call('POST', '/reports', reporter, report)).status).toBe(201);
    expect((await call('POST', '/reports', second, { ...report, reason: 'doublon' })).status).toBe(201);
    const [first] = (await call('GET', `/admin/reports?status=open&target_type=book`, admin)).body.data;
    expect(first.target_id).toBe(String(OTHER_BOOK));

    // The owner is told why: catalog's own bound on the reason.
    const bare = await call('POST', `/admin/reports/${first.id}/resolve`, admin, { decision: 'hidden' });
    expect(bare.status).toBe(422);
    expect(bare.body.errors.note).toEqual(['Indiquez la raison (au moins 5 caractères).']);
    expect(await decidedEvents()).toEqual([]);

    const decided = await call('POST', `/admin/reports/${first.id}/resolve`, admin, {
      decision: 'hidden',
      note: 'Annonce frauduleuse',
    });
    expect(decided.status).toBe(200);
    expect(decided.body).toEqual({
      message: 'Décision enregistrée : l’action est en cours.',
      resolved: 2,
      status: 'applying',
    });
    const applying = await call('GET', `/admin/reports?status=applying&target_type=book`, admin);
    expect(applying.body.data).toHaveLength(2);
    for (const r of applying.body.data) {
      expect(r).toMatchObject({
        status: 'applying',
        decision: 'hidden',
        note: 'Annonce frauduleuse',
        handled_at: null,
      });
    }
    const ids = applying.body.data.map((r: { id: string }) => r.id).sort();
    const [event] = await decidedEvents();
    expect({ ...event, report_ids: [...event.report_ids].sort() }).toEqual({
      report_ids: ids,
      decision: 'hidden',
      target_type: 'book',
      target_id: String(OTHER_BOOK),
      target_owner_id: owner.sub,
      moderator_id: admin.sub,
      note: 'Annonce frauduleuse',
    });

    // Deciding again while catalog applies it: refused, nothing published twice.
    const again = await call('POST', `/admin/reports/${first.id}/resolve`, admin, { decision: 'dismissed' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('La décision sur ce signalement est déjà en cours d’application.');
    expect(await decidedEvents()).toHaveLength(1);

    // A catalog answer about other reports changes none of these.
    await deliver(catalogReportActions, 'catalog.report.applied', { report_ids: [randomUUID()], outcome: 'applied' });
    expect((await call('GET', `/admin/reports/${first.id}`, admin)).body.report.status).toBe('applying');

    const appliedAt = '2026-12-07T10:00:00.000Z';
    await deliver(catalogReportActions, 'catalog.report.applied', { report_ids: ids, outcome: 'applied' }, appliedAt);
    for (const id of ids) {
      expect((await call('GET', `/admin/reports/${id}`, admin)).body.report).toMatchObject({
        status: 'actioned',
        decision: 'hidden',
        handled_at: appliedAt,
      });
    }
    // Delivered again (a refeed, a second answer): nothing moves.
    await deliver(catalogReportActions, 'catalog.report.applied', { report_ids: ids, outcome: 'already' });
    expect((await call('GET', `/admin/reports/${first.id}`, admin)).body.report.handled_at).toBe(appliedAt);
    expect((await call('POST', `/admin/reports/${first.id}/resolve`, admin, { decision: 'hidden' })).status).toBe(409);
  });

  it('rejects a reported comment at once, in the same transaction, and closes its reports', async () => {
    const [report] = (await call('GET', '/admin/reports?status=open&target_type=comment', admin)).body.data;
    const resolved = await call('POST', `/admin/reports/${report.id}/resolve`, admin, { decision: 'hidden' });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({ resolved: 1, status: 'actioned' });
    expect((await call('GET', `/admin/reports/${report.id}`, admin)).body.report).toMatchObject({
      status: 'actioned',
      decision: 'hidden',
      handled_at: expect.any(String),
    });
    const [comment] = await db.select().from(schema.comments).where(eq(schema.comments.id, report.target_id));
    expect(comment).toMatchObject({ status: 'rejected', moderatedBy: admin.sub });
    const moderated = await db.select().from(outbox).where(eq(outbox.type, 'moderation.comment.moderated'));
    expect(moderated.map((e) => e.payload)).toContainEqual(
      expect.objectContaining({ comment_id: report.target_id, status: 'rejected', moderated_by: admin.sub }),
    );
    expect((await decidedEvents()).some((e) => e.target_type === 'comment')).toBe(false);
  });

  it('deactivates a member through auth, and refuses what no service can apply', async () => {
    const [report] = (await call('GET', '/admin/reports?status=open&target_type=user', admin)).body.data;
    const hide = await call('POST', `/admin/reports/${report.id}/resolve`, admin, { decision: 'hidden', note: 'Non' });
    expect(hide.status).toBe(422);
    expect(hide.body.message).toBe('Ce contenu ne peut pas être masqué.');
    expect(
      (await call('POST', `/admin/reports/${report.id}/resolve`, admin, { decision: 'deactivated' })).body.errors.note,
    ).toEqual(['Indiquez la raison (au moins 2 caractères).']);

    const decided = await call('POST', `/admin/reports/${report.id}/resolve`, admin, {
      decision: 'deactivated',
      note: 'Arnaques répétées',
    });
    expect(decided.body).toMatchObject({ resolved: 1, status: 'applying' });
    const event = (await decidedEvents()).find((e) => e.decision === 'deactivated');
    expect(event).toMatchObject({
      report_ids: [report.id],
      target_type: 'user',
      target_id: owner.sub,
      target_owner_id: owner.sub,
      note: 'Arnaques répétées',
    });
    expect((await call('GET', `/admin/reports/${report.id}`, admin)).body.report.status).toBe('applying');
    await deliver(authReportActions, 'auth.report.applied', { report_ids: [report.id], outcome: 'applied' });
    expect((await call('GET', `/admin/reports/${report.id}`, admin)).body.report).toMatchObject({
      status: 'actioned',
      decision: 'deactivated',
      handled_at: expect.any(String),
    });
  });
});

describe('every protected route of the service', () => {
  it('refuses a member without the permission (403) before judging what they sent', async () => {
    const { walked, wrong } = await refusedBeforeValidation(app, second.token);
    expect(walked).toContain('PATCH /admin/comments/:commentId/moderate');
    expect(wrong).toEqual([]);
  });
});
