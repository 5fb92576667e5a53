import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createLocalStorage,
  createRedis,
  loadConfig,
  openDatabase,
  outbox,
  type Redis,
  readRevocationCache,
  SERVICE_TOKEN_HEADER,
  UnitOfWork,
} from '@cartable/service-kit';
import { createDatabases, databaseUrl, dropDatabases } from '@cartable/stack/infrastructure';
import { asc, eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { buildAuthApp } from '../src/app.ts';
import { createAuth } from '../src/auth.ts';
import { authConfigSchema } from '../src/config.ts';
import * as schema from '../src/db/schema.ts';
import { seedAdmin } from '../src/seed.ts';

const PG = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The auth service in-process on a database of its own and a Redis key prefix of its own. */
export async function startAuth(env: Record<string, string> = {}) {
  const id = `t${randomBytes(4).toString('hex')}`;
  const dbName = `cartable_${id}_auth`;
  const dataDir = mkdtempSync(join(tmpdir(), `cartable-auth-${id}-`));
  await createDatabases(PG, [dbName]);
  const config = loadConfig(authConfigSchema, {
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    REDIS_KEY_PREFIX: `cartable:${id}:`,
    AUTH_DATABASE_URL: databaseUrl(PG, dbName),
    LOGIN_MAX_FAILURES: '4',
    ...env,
  });
  const database = await openDatabase({
    name: 'auth',
    url: config.AUTH_DATABASE_URL,
    dataDir,
    schema,
    migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)),
  });
  const db = database.db;
  await seedAdmin(db, config.ADMIN_EMAIL, config.ADMIN_PASSWORD);
  const redis = createRedis(config.REDIS_URL);
  const quiet = { info: () => {}, warn: () => {}, debug: () => {} } as never;
  // No NATS here: the events stay in the outbox, where the tests read them.
  const uow = new UnitOfWork({ db, log: quiet });
  const storage = createLocalStorage(join(dataDir, 'storage'));

  /** The auth app on this database, as main.ts wires it, with its revocation cache on the given Redis. */
  async function build(client: Redis) {
    const deps = await createAuth({ config, uow, redis: client, storage, log: quiet });
    const { revocation } = deps;
    const stopRevocationCache = revocation.start();
    const app = await buildAuthApp(deps, [], false);
    /** JSON call; `token` adds the bearer header. */
    /** One call; `from` is the client's address as auth sees it (default 127.0.0.1). */
    async function call(method: string, url: string, body?: unknown, token?: string, from?: string) {
      const res = await app.inject({
        method: method as 'GET',
        url,
        ...(from ? { remoteAddress: from } : {}),
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          // As the gateway and the services call the internal routes: with the service credential.
          ...(url.startsWith('/internal/') ? { [SERVICE_TOKEN_HEADER]: config.INTERNAL_SERVICE_TOKEN } : {}),
        },
        ...(body === undefined ? {} : { payload: body as object }),
      });
      // biome-ignore lint/suspicious/noExplicitAny: tests read answers of any shape
      return { status: res.statusCode, body: res.json() as any };
    }
    async function close() {
      await stopRevocationCache();
      await app.close();
    }
    return { app, revocation, call, close };
  }

  const main = await build(redis);
  const { app, revocation, call } = main;
  // Start as the service does: the cache loaded once Redis answers.
  if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
  await revocation.rebuild();

  /** Events this service wrote, newest last (what notifications and others would receive). */
  async function events(type: string) {
    const rows = await db.select().from(outbox).where(eq(outbox.type, type)).orderBy(asc(outbox.occurredAt));
    // biome-ignore lint/suspicious/noExplicitAny: payloads are checked by their zod schema when written
    return rows.map((r) => r.payload as any);
  }
  const lastEvent = async (type: string, email: string) => (await events(type)).filter((p) => p.email === email).at(-1);

  async function register(n: string, extra: Record<string, unknown> = {}) {
    const body = {
      name: `Élève ${n}`,
      email: `${n}@example.ga`,
      username: `eleve_${n}`,
      password: 'Cartable1a',
      password_confirmation: 'Cartable1a',
      country_id: 266,
      city_id: 1,
      ...extra,
    };
    const res = await call('POST', '/register', body);
    return { ...res, email: body.email };
  }

  /** Registers, verifies through the e-mailed token, logs in; returns the token and user. */
  async function member(n: string) {
    const { email } = await register(n);
    const registered = (await events('auth.user.registered')).find((p) => p.email === email);
    await call('POST', '/verify-email', { token: registered.verification.token, email });
    const login = await call('POST', '/login', { email, password: 'Cartable1a' });
    return { email, token: login.body.access_token as string, user: login.body.user };
  }

  async function admin() {
    const res = await call('POST', '/login', { email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD });
    return res.body.access_token as string;
  }

  /**
   * Whether a token is refused, asked both ways: auth's database (the internal route the
   * gateway falls back to) and the Redis cache ('unknown' until a rebuild has loaded it).
   */
  async function revocationOf(token: string) {
    const internal = await call('POST', '/internal/token-status', undefined, token);
    const claims = decodeJwt(token) as { jti: string; sub: string; ver: number };
    return {
      database: internal.status === 200 ? (internal.body.revoked as boolean) : internal.status,
      cache: (await readRevocationCache(redis, config.REDIS_KEY_PREFIX, { ...claims, ver: claims.ver ?? 0 })).answer,
    };
  }

  async function teardown() {
    await main.close();
    const keys = await redis.keys(`${config.REDIS_KEY_PREFIX}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
    await database.close();
    await dropDatabases(PG, [dbName]);
    rmSync(dataDir, { recursive: true, force: true });
  }

  return {
    app,
    db,
    uow,
    redis,
    config,
    revocation,
    call,
    events,
    lastEvent,
    register,
    member,
    admin,
    revocationOf,
    build,
    teardown,
  };
}
export type AuthHarness = Awaited<ReturnType<typeof startAuth>>;
