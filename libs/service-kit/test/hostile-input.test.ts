import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { idParamsSchema, messages } from '@cartable/contracts';
import { testDatabase } from '@cartable/stack/databases';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createHttpApp,
  type Database,
  databaseErrorCode,
  httpErrorFromDatabase,
  jsonDepthExceeds,
  openDatabase,
} from '../src/index.ts';

/**
 * What a client sends and the database or Node refuses is a French
 * 4xx JSON answer, never a 500 nor an English one. On a real PostgreSQL.
 */
let database: Database<Record<string, never>>;
let drop: () => Promise<void>;

beforeAll(async () => {
  const target = await testDatabase('hostile');
  drop = target.drop;
  database = await openDatabase({
    name: 'hostile',
    url: target.url,
    dataDir: target.dataDir,
    schema: {},
    migrationsFolder: fileURLToPath(new URL('./fixtures/drizzle', import.meta.url)),
  });
  await database.db.execute(sql`create table shelves (id serial primary key, name text unique not null)`);
  await database.db.execute(
    sql`create table books (id serial primary key, shelf_id integer not null references shelves(id), title text)`,
  );
  await database.db.execute(sql`insert into shelves (name) values ('Maths')`);
  await database.db.execute(sql`insert into books (shelf_id, title) values (1, 'Algèbre')`);
});
afterAll(async () => {
  await database?.close();
  await drop?.();
});

/** What each statement makes PostgreSQL refuse, through Drizzle as the services run it. */
const refusals: Array<[string, () => Promise<unknown>, string, number, string]> = [
  [
    'a duplicate',
    () => database.db.execute(sql`insert into shelves (name) values (${'Maths'})`),
    '23505',
    409,
    'Cette ressource existe déjà.',
  ],
  [
    'an id past int4',
    () => database.db.execute(sql`select * from books where id = ${99999999999}`),
    '22003',
    422,
    'Une valeur envoyée est invalide ou hors des limites acceptées.',
  ],
  [
    'a NUL byte',
    () => database.db.execute(sql`insert into books (shelf_id, title) values (1, ${'a\u0000b'})`),
    '22021',
    422,
    'Une valeur envoyée est invalide ou hors des limites acceptées.',
  ],
  [
    'a number that is not one',
    () => database.db.execute(sql`select * from books where id = ${'abc'}::integer`),
    '22P02',
    422,
    'Une valeur envoyée est invalide ou hors des limites acceptées.',
  ],
  [
    'a reference to nothing',
    () => database.db.execute(sql`insert into books (shelf_id, title) values (${424242}, 'Géométrie')`),
    '23503',
    422,
    'Une ressource indiquée est introuvable.',
  ],
  [
    'a row still referenced',
    () => database.db.execute(sql`delete from shelves where id = 1`),
    '23503',
    409,
    'Cette ressource est encore utilisée et ne peut pas être supprimée.',
  ],
];

describe('what the database refuses', () => {
  it.each(refusals)('maps %s to a French 4xx without echoing the SQL', async (_what, run, code, status, message) => {
    const err = await run().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(databaseErrorCode(err)).toBe(code);
    const mapped = httpErrorFromDatabase(err);
    expect(mapped?.statusCode).toBe(status);
    expect(mapped?.message).toBe(message);
  });

  it('answers them through the error handler, and keeps a server fault a 500', async () => {
    const app = createHttpApp({ name: 'test', logger: false });
    app.post('/shelves', async () => database.db.execute(sql`insert into shelves (name) values ('Maths')`));
    app.get('/broken', async () => database.db.execute(sql`select * from no_such_table`));
    const duplicate = await app.inject({ method: 'POST', url: '/shelves', payload: {} });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toEqual({ message: 'Cette ressource existe déjà.' });
    expect(duplicate.body).not.toContain('insert');
    const broken = await app.inject({ method: 'GET', url: '/broken' });
    expect(broken.statusCode).toBe(500);
    expect(broken.json()).toEqual({ message: 'Une erreur interne est survenue. Veuillez réessayer plus tard.' });
    await app.close();
  });
});

describe('requests no route should see', () => {
  function app() {
    const a = createHttpApp({ name: 'test', logger: false });
    a.post(
      '/items',
      { schema: { body: z.object({ name: z.string(), tags: z.array(z.string()).optional() }) } },
      (r) => r.body,
    );
    a.get('/items/:id', { schema: { params: idParamsSchema } }, async (r) => ({ id: (r.params as { id: number }).id }));
    return a;
  }

  it('refuses JSON nested past 32 levels with a French 400, and takes 32', async () => {
    const a = app();
    for (const payload of [
      `${'['.repeat(5000)}${']'.repeat(5000)}`,
      `{"name":"x","tags":${'{"a":'.repeat(40)}1${'}'.repeat(40)}}`,
    ]) {
      const res = await a.inject({
        method: 'POST',
        url: '/items',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'Le JSON envoyé est trop imbriqué (32 niveaux au plus).' });
    }
    // Brackets inside strings are text, not depth.
    const text = await a.inject({ method: 'POST', url: '/items', payload: { name: '['.repeat(100) } });
    expect(text.statusCode).toBe(200);
    expect(jsonDepthExceeds(`${'['.repeat(32)}${']'.repeat(32)}`, 32)).toBe(false);
    expect(jsonDepthExceeds(`${'['.repeat(33)}${']'.repeat(33)}`, 32)).toBe(true);
    expect(jsonDepthExceeds(`["\\"[[[[", ${'['.repeat(31)}${']'.repeat(31)}]`, 32)).toBe(false);
  });

  it('refuses a compressed JSON body with a French 415, and takes one that says identity', async () => {
    const a = app();
    const payload = gzipSync(JSON.stringify({ name: 'Maths' }));
    for (const encoding of ['gzip', 'GZIP', 'br', 'deflate, gzip']) {
      const res = await a.inject({
        method: 'POST',
        url: '/items',
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
        payload,
      });
      expect(res.statusCode, encoding).toBe(415);
      expect(res.json()).toEqual({ message: messages.contentEncodingUnsupported });
    }
    const plain = await a.inject({
      method: 'POST',
      url: '/items',
      headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
      payload: JSON.stringify({ name: 'Maths' }),
    });
    expect(plain.json()).toEqual({ name: 'Maths' });
  });

  it('answers a path id no row can have with 404, a malformed one with 422', async () => {
    const a = app();
    for (const id of ['99999999999', '2147483648', '0', '-1', '1e308']) {
      const res = await a.inject({ method: 'GET', url: `/items/${id}` });
      expect([id, res.statusCode]).toEqual([id, 404]);
      expect(res.json()).toEqual({ message: 'Ressource introuvable.' });
    }
    const abc = await a.inject({ method: 'GET', url: '/items/abc' });
    expect(abc.statusCode).toBe(422);
    expect(abc.json()).toEqual({
      message: 'Les données envoyées sont invalides.',
      errors: { id: ['Identifiant invalide.'] },
    });
  });

  it('answers a malformed %-encoding or an over-long segment with French JSON', async () => {
    const a = app();
    for (const url of ['/items/%ZZ', '/items/%ED%A0%80', '/items?x=%ZZ', '/items/1?q=%E0%A4%A']) {
      const res = await a.inject({ method: 'GET', url });
      expect([url, res.statusCode]).toEqual([url, 400]);
      expect(res.json()).toEqual({ message: "L'adresse demandée est mal encodée." });
    }
    const long = await a.inject({ method: 'GET', url: `/items/${'9'.repeat(300)}` });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual({ message: "L'adresse demandée est trop longue." });
  });

  it('answers zod’s own checks in French', async () => {
    const res = await app().inject({ method: 'POST', url: '/items', payload: { name: 12, tags: 'x' } });
    expect(res.statusCode).toBe(422);
    const messages = Object.values(res.json().errors as Record<string, string[]>).flat();
    expect(messages.length).toBe(2);
    for (const m of messages) expect(m).toMatch(/^Entrée invalide/);
  });

  it('answers headers or an address over Node’s limit with a French 431 in JSON, read to the end', async () => {
    const a = app();
    await a.listen({ port: 0, host: '127.0.0.1' });
    const { port } = a.server.address() as AddressInfo;
    const ask = (path: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
        const req = request({ port, host: '127.0.0.1', path, headers }, (res) => {
          let body = '';
          res.on('data', (c) => {
            body += c;
          });
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }),
          );
        });
        req.on('error', reject);
        req.end();
      });
    // A megabyte of address: the answer comes back whole, not a reset connection.
    for (const answer of [
      await ask('/items/1', { 'x-big': 'x'.repeat(20_000) }),
      await ask(`/items/1?q=${'x'.repeat(1024 * 1024)}`),
    ]) {
      expect(answer.status).toBe(431);
      expect(answer.type).toMatch(/^application\/json/);
      expect(JSON.parse(answer.body)).toEqual({ message: 'Les en-têtes de la requête sont trop volumineux.' });
    }
    await a.close();
  });

  it('reads a body too large for its route to the end before its French 413, and keeps the connection', async () => {
    const a = createHttpApp({ name: 'test', logger: false, bodyLimit: 1024 });
    a.post('/notes', async () => ({ ok: true }));
    await a.listen({ port: 0, host: '127.0.0.1' });
    const { port } = a.server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'x'.repeat(256 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ message: 'Les données envoyées sont trop volumineuses.' });
    // Answered over unread bytes, Node would close the connection (and a client still writing
    // would meet a reset instead of the answer).
    expect(res.headers.get('connection')).not.toBe('close');
    await a.close();
  });
});
