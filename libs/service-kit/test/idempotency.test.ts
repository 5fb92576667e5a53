import { fileURLToPath } from 'node:url';
import { testDatabase } from '@cartable/stack/databases';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createHttpApp,
  type Database,
  idempotencyKeys,
  idempotencyPlugin,
  openDatabase,
  unprocessable,
} from '../src/index.ts';

let database: Database<{ idempotencyKeys: typeof idempotencyKeys }>;
let drop: () => Promise<void>;
let app: ReturnType<typeof createHttpApp>;
let created = 0;

beforeAll(async () => {
  const db = await testDatabase('idem');
  drop = db.drop;
  database = await openDatabase({
    name: 'idem',
    url: db.url,
    dataDir: db.dataDir,
    schema: { idempotencyKeys },
    migrationsFolder: fileURLToPath(new URL('./fixtures/drizzle', import.meta.url)),
  });
  app = createHttpApp({ name: 'idem', logger: false });
  await app.register(idempotencyPlugin, { db: database.db });
  app.post('/books', async (request, reply) => {
    const body = request.body as { title?: string; slow?: boolean };
    if (!body.title) throw unprocessable({ title: ['Titre obligatoire'] });
    if (body.slow) await new Promise((r) => setTimeout(r, 300));
    created++;
    return reply.status(201).send({ id: created, title: body.title });
  });
  app.post('/messages', async () => ({ ok: true }));
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await database?.close();
  await drop?.();
});

const post = (url: string, payload: object, key?: string, token = 'member-a') =>
  app.inject({
    method: 'POST',
    url,
    payload,
    headers: { authorization: `Bearer ${token}`, ...(key ? { 'idempotency-key': key } : {}) },
  });

describe('Idempotency-Key', () => {
  it('answers a repeated creating call with the first answer, without a second effect', async () => {
    const before = created;
    const first = await post('/books', { title: 'Mathématiques 6e' }, 'key-1');
    const again = await post('/books', { title: 'Mathématiques 6e' }, 'key-1');
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(created).toBe(before + 1);
  });

  it('keeps clients apart and runs calls without a key every time', async () => {
    const before = created;
    await post('/books', { title: 'A' }, 'shared-key', 'member-a-2');
    const other = await post('/books', { title: 'B' }, 'shared-key', 'member-b');
    expect(other.json().title).toBe('B');
    await post('/books', { title: 'C' });
    await post('/books', { title: 'C' });
    expect(created).toBe(before + 4);
  });

  it('answers 409 while the first call runs, and the first answer after', async () => {
    const before = created;
    const [a, b] = await Promise.all([
      post('/books', { title: 'Lent', slow: true }, 'key-slow'),
      new Promise((r) => setTimeout(r, 50)).then(() => post('/books', { title: 'Lent', slow: true }, 'key-slow')),
    ]);
    expect(a.statusCode).toBe(201);
    expect(b.statusCode).toBe(409);
    expect(b.json().message).toContain('déjà en cours');
    expect((await post('/books', { title: 'Lent', slow: true }, 'key-slow')).json()).toEqual(a.json());
    expect(created).toBe(before + 1);
  });

  it('lets a failed call be tried again with its key, refuses a key reused on another call or malformed', async () => {
    const failed = await post('/books', {}, 'key-retry');
    expect(failed.statusCode).toBe(422);
    const retried = await post('/books', { title: 'Corrigé' }, 'key-retry');
    expect(retried.statusCode).toBe(201);
    const elsewhere = await post('/messages', {}, 'key-retry');
    expect(elsewhere.statusCode).toBe(422);
    expect(elsewhere.json().message).toContain('déjà servi');
    const malformed = await post('/books', { title: 'x' }, 'clé avec espaces');
    expect(malformed.statusCode).toBe(422);
    expect(malformed.json().errors['Idempotency-Key']).toBeDefined();
    const pending = await database.db.execute(
      sql`select count(*)::int as count from idempotency_keys where status_code is null`,
    );
    const count = (pending as unknown as { rows: Array<{ count: number }> }).rows[0]?.count;
    expect(count).toBe(0);
  });
});
