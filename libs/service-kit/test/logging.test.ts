import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { testDatabase } from '@cartable/stack/databases';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpApp, createLogger, type Database, loggerOptions, openDatabase } from '../src/index.ts';

/** Everything a logger writes, as text. */
function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { stream, text: () => lines.join('') };
}

const HASH = '$argon2id$v=19$m=19456,t=2,p=1$c2VjcmV0c2FsdA$aGFzaGhhc2hoYXNo';
let database: Database<Record<string, never>>;
let drop: () => Promise<void>;

beforeAll(async () => {
  const target = await testDatabase('logging');
  drop = target.drop;
  database = await openDatabase({
    name: 'logging',
    url: target.url,
    dataDir: target.dataDir,
    schema: {},
    migrationsFolder: fileURLToPath(new URL('./fixtures/drizzle', import.meta.url)),
  });
  await database.db.execute(sql`create table accounts (email text unique, password_hash text)`);
});
afterAll(async () => {
  await database?.close();
  await drop?.();
});

describe('logs hold no secrets', () => {
  it("logs a failed query's statement but not its parameters (a new member's password hash)", async () => {
    await database.db.execute(sql`insert into accounts values (${'awa@example.ga'}, ${HASH})`);
    const error = await database.db
      .execute(sql`insert into accounts values (${'awa@example.ga'}, ${HASH})`)
      .catch((err: unknown) => err);
    expect(String((error as Error).message)).toContain('argon2id'); // what drizzle puts in its message
    const out = capture();
    createLogger('test', 'info', out.stream).error({ err: error }, 'unhandled error');
    expect(out.text()).toContain('insert into accounts');
    expect(out.text()).not.toContain('argon2');
    expect(out.text()).not.toContain('awa@example.ga');
  });

  it('masks credentials in any logged object, and keeps error codes', () => {
    const out = capture();
    createLogger('test', 'info', out.stream).warn(
      {
        body: { email: 'a@b.ga', password: 'Cartable1a', password_confirmation: 'Cartable1a', current_password: 'x' },
        headers: { authorization: 'Bearer eyJhbGciOi.secret.token' },
        job: { data: { code: '493021' } },
        err: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
      },
      'something',
    );
    const text = out.text();
    for (const secret of ['Cartable1a', 'eyJhbGciOi', '493021']) expect(text).not.toContain(secret);
    expect(text).toContain('ECONNREFUSED');
    expect(text).toContain('a@b.ga');
  });

  it("a refused or failed query's log line carries neither the SQL parameters nor the Authorization header", async () => {
    const out = capture();
    const app = createHttpApp({ name: 'test', logger: { ...loggerOptions('test'), stream: out.stream } });
    // A duplicate: the client's fault, a 409 logged as a warning.
    app.post('/accounts', async () => {
      await database.db.execute(sql`insert into accounts values (${'awa@example.ga'}, ${HASH})`);
      return {};
    });
    // A table that does not exist: the server's fault, a 500.
    app.post('/broken', async () => {
      await database.db.execute(sql`insert into no_such_table values (${'awa@example.ga'}, ${HASH})`);
      return {};
    });
    const headers = { authorization: 'Bearer eyJhbGciOi.secret.token' };
    const duplicate = await app.inject({ method: 'POST', url: '/accounts', headers, payload: {} });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toEqual({ message: 'Cette ressource existe déjà.' });
    const broken = await app.inject({ method: 'POST', url: '/broken', headers, payload: {} });
    expect(broken.statusCode).toBe(500);
    expect(broken.json().message).toBeTruthy();
    expect(out.text()).toContain('the database refused the request');
    expect(out.text()).toContain('unhandled error');
    expect(out.text()).not.toContain('argon2');
    expect(out.text()).not.toContain('eyJhbGciOi');
    await app.close();
  });

  it("writes one line per answered request, with the link's token and e-mail masked, and none for /health", async () => {
    const out = capture();
    const app = createHttpApp({ name: 'test', logger: { ...loggerOptions('test'), stream: out.stream } });
    app.get('/verify-email', async () => ({ ok: true }));
    const token = 'c3VwZXItc2VjcmV0LXZlcmlmaWNhdGlvbg';
    const answered = await app.inject({
      method: 'GET',
      url: `/verify-email?token=${token}&email=awa%40example.ga&lang=fr`,
      headers: { authorization: 'Bearer eyJhbGciOi.secret.token', cookie: 'refresh_token=r3fr3sh-s3cr3t' },
    });
    expect(answered.statusCode).toBe(200);
    await app.inject({ method: 'GET', url: '/health' });
    const lines = out
      .text()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const completed = lines.filter((line) => line.msg === 'request completed');
    expect(completed).toHaveLength(1);
    expect(completed[0]).toMatchObject({
      reqId: answered.headers['x-request-id'],
      req: { method: 'GET', url: '/verify-email?token=[masqué]&email=[masqué]&lang=fr' },
      res: { statusCode: 200 },
    });
    expect(out.text()).not.toContain(token);
    expect(out.text()).not.toContain('awa%40example.ga');
    expect(out.text()).not.toContain('eyJhbGciOi');
    expect(out.text()).not.toContain('r3fr3sh-s3cr3t');
    await app.close();
  });

  it("a request's own log lines carry its id and are masked like any other, at the route's level", async () => {
    const out = capture();
    const app = createHttpApp({ name: 'test', logger: { ...loggerOptions('test'), stream: out.stream } });
    app.post('/login', async (request) => {
      request.log.warn({ body: request.body }, 'refused');
      request.log.child({ step: 'second' }).info('two-factor');
      return { ok: true };
    });
    app.get('/quiet', { logLevel: 'warn' }, async (request) => {
      request.log.info('not written');
      expect(request.log.level).toBe('warn');
      return { ok: true };
    });
    const answered = await app.inject({ method: 'POST', url: '/login', payload: { password: 'Cartable1a' } });
    await app.inject({ method: 'GET', url: '/quiet' });
    const lines = out
      .text()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const reqId = answered.headers['x-request-id'];
    expect(lines.find((line) => line.msg === 'refused')).toMatchObject({ reqId, body: { password: '[masqué]' } });
    expect(lines.find((line) => line.msg === 'two-factor')).toMatchObject({ reqId, step: 'second' });
    // The quiet route writes neither its info line nor an access line.
    expect(lines.map((line) => line.msg)).toEqual(['refused', 'two-factor', 'request completed']);
    expect(out.text()).not.toContain('Cartable1a');
    await app.close();
  });

  it('logs nothing and fails nothing with logging off', async () => {
    const app = createHttpApp({ name: 'test', logger: false });
    app.get('/x', async () => ({ ok: true }));
    expect((await app.inject({ method: 'GET', url: '/x?token=abc' })).statusCode).toBe(200);
    await app.close();
  });
});
