import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpApp, createLogger, type Database, loggerOptions, openDatabase } from '../src/index.ts';
import { testDatabase } from '../testing/index.ts';

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

  it("a 500's log line carries neither the SQL parameters nor the Authorization header", async () => {
    const out = capture();
    const app = createHttpApp({ name: 'test', logger: { ...loggerOptions('test'), stream: out.stream } });
    app.post('/accounts', async () => {
      await database.db.execute(sql`insert into accounts values (${'awa@example.ga'}, ${HASH})`);
      return {};
    });
    const res = await app.inject({
      method: 'POST',
      url: '/accounts',
      headers: { authorization: 'Bearer eyJhbGciOi.secret.token' },
      payload: {},
    });
    expect(res.statusCode).toBe(500);
    expect(res.json().message).toBeTruthy();
    expect(out.text()).toContain('unhandled error');
    expect(out.text()).not.toContain('argon2');
    expect(out.text()).not.toContain('eyJhbGciOi');
    await app.close();
  });
});
