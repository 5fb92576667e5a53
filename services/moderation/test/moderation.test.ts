import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { loadConfig, openDatabase, outbox, UnitOfWork } from '@cartable/service-kit';
import { testTokens } from '@cartable/service-kit/testing';
import { testDatabase } from '@cartable/stack/databases';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModerationApp } from '../src/app.ts';
import { moderationConfigSchema } from '../src/config.ts';
import * as schema from '../src/db/schema.ts';
import { memberBlocksProjection } from '../src/events/projections.ts';

let close: () => Promise<void>;
let app: Awaited<ReturnType<typeof buildModerationApp>>;
let db: Awaited<ReturnType<typeof openDatabase<typeof schema>>>['db'];
const owner = { sub: randomUUID(), token: '' };
const visitor = { sub: randomUUID(), token: '' };
const other = { sub: randomUUID(), token: '' };
const admin = { sub: randomUUID(), token: '' };
const BOOK = 7;
const OTHER_BOOK = 8;

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
  for (const m of [owner, visitor, other]) m.token = (await tokens.token({ sub: m.sub })).token;
  admin.token = (await tokens.token({ sub: admin.sub, is_admin: true })).token;
  await db.insert(schema.members).values([
    { id: owner.sub, name: 'Aïcha Mboumba' },
    { id: visitor.sub, name: 'Jean Ndong' },
  ]);
  await db.insert(schema.books).values([
    { id: BOOK, ownerId: owner.sub, title: 'SVT 2nde' },
    { id: OTHER_BOOK, ownerId: other.sub, title: 'Anglais 4e' },
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
const contents = (list: Array<{ content: string }>) => list.map((c) => c.content);

describe('comments', () => {
  it('checks length with the section 5 messages and needs a signed-in member', async () => {
    const empty = await call('POST', `/books/${BOOK}/comments`, visitor, { content: '  ' });
    expect(empty.body.errors.content).toEqual(['Le commentaire ne peut pas être vide']);
    expect((await call('POST', `/books/${BOOK}/comments`, visitor, { content: 'a' })).body.errors.content).toEqual([
      'Le commentaire doit contenir au moins 2 caractères',
    ]);
    expect(
      (await call('POST', `/books/${BOOK}/comments`, visitor, { content: 'a'.repeat(501) })).body.errors.content,
    ).toEqual(['Le commentaire ne peut pas dépasser 500 caractères']);
    expect((await call('POST', `/books/${BOOK}/comments`, undefined, { content: 'Bonjour' })).status).toBe(401);
  });

  it('holds a visitor’s comment for moderation, publishes the owner’s and an admin’s at once', async () => {
    const held = await call('POST', `/books/${BOOK}/comments`, visitor, { content: 'Est-il encore disponible ?' });
    expect(held.status).toBe(201);
    expect(held.body.message).toBe('Commentaire ajouté avec succès (en attente de modération)');
    expect(held.body.data.status).toBe('pending');
    const own = await call('POST', `/books/${BOOK}/comments`, owner, {
      content: 'Oui, toujours.',
      parent_id: held.body.data.id,
    });
    expect(own.body.message).toBe('Commentaire ajouté avec succès');
    const byAdmin = await call('POST', `/books/${BOOK}/comments`, admin, { content: 'Rappel : soyez courtois.' });
    expect(byAdmin.body.data.status).toBe('approved');
    const [event] = await db.select().from(outbox).where(eq(outbox.type, 'moderation.comment.created'));
    expect(event?.payload).toMatchObject({ book_owner_id: owner.sub, status: 'pending', author_name: 'Jean Ndong' });
  });

  it('never shows held comments to the public; the author and the owner see them', async () => {
    expect(contents((await call('GET', `/books/${BOOK}/comments`)).body.data)).toEqual(['Rappel : soyez courtois.']);
    const author = await call('GET', `/books/${BOOK}/comments`, visitor);
    expect(contents(author.body.data)).toContain('Est-il encore disponible ?');
    const ownerView = await call('GET', `/books/${BOOK}/comments`, owner);
    const pending = ownerView.body.data.find((c: { status: string }) => c.status === 'pending');
    expect(pending.can_moderate).toBe(true);
    expect(contents(pending.replies)).toEqual(['Oui, toujours.']);
  });

  it('lets the owner and admins moderate, not another member; approval publishes it', async () => {
    const pending = await call('GET', '/admin/comments/pending', admin);
    expect(pending.body.meta.total).toBe(1);
    const id = pending.body.data[0].id;
    expect((await call('GET', '/admin/comments/pending', visitor)).status).toBe(403);
    expect((await call('PATCH', `/admin/comments/${id}/moderate`, other, { status: 'approved' })).status).toBe(403);
    const approved = await call('PATCH', `/admin/comments/${id}/moderate`, owner, { status: 'approved' });
    expect(approved.body.message).toBe('Commentaire approuvé avec succès');
    expect(contents((await call('GET', `/books/${BOOK}/comments`)).body.data)).toContain('Est-il encore disponible ?');
    expect((await call('GET', '/admin/comments/pending', admin)).body.meta.total).toBe(0);
  });

  it('serves the queue newest first or oldest first, and finds a comment by its words, author or book', async () => {
    const first = await call('POST', `/books/${OTHER_BOOK}/comments`, visitor, { content: 'Livré avec le corrigé ?' });
    const second = await call('POST', `/books/${OTHER_BOOK}/comments`, visitor, { content: 'Couverture abîmée ?' });
    const ids = (res: { body: { data: Array<{ id: string }> } }) => res.body.data.map((c) => c.id);
    const newest = await call('GET', '/admin/comments/pending', admin);
    expect(ids(newest).slice(0, 2)).toEqual([second.body.data.id, first.body.data.id]);
    const oldest = await call('GET', '/admin/comments/pending?order=oldest', admin);
    expect(ids(oldest).indexOf(first.body.data.id)).toBeLessThan(ids(oldest).indexOf(second.body.data.id));
    const found = await call('GET', `/admin/comments/pending?q=${encodeURIComponent('corrigé')}`, admin);
    expect(ids(found)).toEqual([first.body.data.id]);
    expect(found.body.meta.total).toBe(1);
    // Percent and underscore are words, not patterns.
    expect((await call('GET', '/admin/comments/pending?q=%25', admin)).body.meta.total).toBe(0);
    const bad = await call('GET', '/admin/comments/pending?order=random', admin);
    expect(bad.status).toBe(422);
    for (const c of [first, second])
      await call('PATCH', `/admin/comments/${c.body.data.id}/moderate`, admin, { status: 'rejected' });
  });

  it('keeps rejected comments from everyone, lets authors edit and delete their own', async () => {
    const c = await call('POST', `/books/${OTHER_BOOK}/comments`, visitor, { content: 'Prix négociable ?' });
    expect(
      (await call('PATCH', `/admin/comments/${c.body.data.id}/moderate`, admin, { status: 'rejected' })).body.message,
    ).toBe('Commentaire rejeté avec succès');
    expect((await call('GET', `/books/${OTHER_BOOK}/comments`, other)).body.data).toEqual([]);

    const mine = await call('POST', `/books/${OTHER_BOOK}/comments`, visitor, { content: 'Je passe demain.' });
    expect(
      (await call('PUT', `/books/${OTHER_BOOK}/comments/${mine.body.data.id}`, owner, { content: 'Piraté' })).status,
    ).toBe(403);
    const edited = await call('PATCH', `/books/${OTHER_BOOK}/comments/${mine.body.data.id}`, visitor, {
      content: 'Je passe jeudi.',
    });
    expect(edited.body.message).toBe('Commentaire mis à jour avec succès');
    expect((await call('DELETE', `/books/${OTHER_BOOK}/comments/${mine.body.data.id}`, owner)).status).toBe(403);
    expect((await call('DELETE', `/books/${OTHER_BOOK}/comments/${mine.body.data.id}`, visitor)).body.message).toBe(
      'Commentaire supprimé avec succès',
    );
  });
});

describe('contact', () => {
  const form = {
    name: 'Parent',
    email: 'parent@example.ga',
    subject: 'Question',
    message: 'Comment vendre un lot de livres ?',
  };
  const solve = (question: string) => {
    const [, a, op, b] = /(\d+) ([+−×]) (\d+)/.exec(question)!;
    return op === '+' ? Number(a) + Number(b) : op === '−' ? Number(a) - Number(b) : Number(a) * Number(b);
  };

  it('checks every field with the section 5 messages', async () => {
    const res = await call('POST', '/contact', undefined, { email: 'pas-un-email' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toMatchObject({
      name: ['Le nom est requis'],
      email: ['Veuillez entrer une adresse email valide'],
      subject: ['Le sujet est requis'],
      message: ['Le message est requis'],
    });
  });

  it('refuses a wrong answer and burns that question, accepts a right one once', async () => {
    const first = (await call('GET', '/contact/captcha')).body;
    expect(first.question).toMatch(/^Combien font \d+ [+−×] \d+ \?$/);
    const wrong = await call('POST', '/contact', undefined, {
      ...form,
      captcha_id: first.captcha_id,
      captcha_answer: solve(first.question) + 1,
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.captcha_answer).toEqual(["Veuillez résoudre correctement l'opération mathématique"]);
    const again = await call('POST', '/contact', undefined, {
      ...form,
      captcha_id: first.captcha_id,
      captcha_answer: solve(first.question),
    });
    expect(again.status).toBe(422);
    const second = (await call('GET', '/contact/captcha')).body;
    const ok = await call('POST', '/contact', undefined, {
      ...form,
      captcha_id: second.captcha_id,
      captcha_answer: solve(second.question),
    });
    expect(ok.status).toBe(201);
  });

  it('lets admins list, read, answer (e-mailed), file and delete contact messages', async () => {
    expect((await call('GET', '/admin/contacts', visitor)).status).toBe(403);
    const list = await call('GET', '/admin/contacts?status=new', admin);
    expect(list.body.data).toHaveLength(1);
    const id = list.body.data[0].id;
    expect((await call('GET', `/admin/contacts/${id}`, admin)).body.data.status).toBe('read');
    const answered = await call('POST', `/admin/contacts/${id}/respond`, admin, {
      response: 'Publiez chaque livre séparément.',
    });
    expect(answered.body.data).toMatchObject({ status: 'answered', response: 'Publiez chaque livre séparément.' });
    const [event] = await db.select().from(outbox).where(eq(outbox.type, 'moderation.contact.answered'));
    expect(event?.payload).toMatchObject({ email: 'parent@example.ga' });
    expect((await call('GET', '/admin/contacts/stats', admin)).body.stats).toMatchObject({ total: 1, answered: 1 });
    expect((await call('PATCH', `/admin/contacts/${id}/status`, admin, { status: 'archived' })).body.data.status).toBe(
      'archived',
    );
    expect((await call('POST', '/admin/contacts/bulk-delete', admin, { ids: [id] })).body).toEqual({ deleted: 1 });
  });
});

describe('a block between two members', () => {
  /** messaging.member.blocked / unblocked, handled as the consumer does. */
  const blockEvent = (
    type: 'messaging.member.blocked' | 'messaging.member.unblocked',
    blocker: string,
    blocked: string,
  ) =>
    db.transaction((tx) =>
      memberBlocksProjection[type]!(tx, {
        id: randomUUID(),
        type,
        occurred_at: new Date().toISOString(),
        data: { blocker_id: blocker, blocked_id: blocked, at: new Date().toISOString() },
      } as never),
    );
  const comment = (who: { token: string }, book: number) =>
    call('POST', `/books/${book}/comments`, who, { content: 'Toujours disponible ?' });
  const message = 'Vous ne pouvez pas commenter les annonces de ce membre : l’un de vous a bloqué l’autre.';

  it('keeps each from commenting on the other’s listings (403 in French), either way, until unblocked', async () => {
    // The owner of BOOK blocked the visitor: the visitor cannot comment on BOOK.
    await blockEvent('messaging.member.blocked', owner.sub, visitor.sub);
    const refused = await comment(visitor, BOOK);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(message);
    // The visitor blocked the owner of OTHER_BOOK: the same, the other way.
    await blockEvent('messaging.member.blocked', visitor.sub, other.sub);
    expect((await comment(visitor, OTHER_BOOK)).status).toBe(403);
    // Unblocked: commenting works again.
    await blockEvent('messaging.member.unblocked', owner.sub, visitor.sub);
    expect((await comment(visitor, BOOK)).status).toBe(201);
  });
});
