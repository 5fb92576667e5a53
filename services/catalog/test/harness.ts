import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Envelope, EventType } from '@cartable/contracts';
import {
  createLocalStorage,
  createRedis,
  type EventHandlers,
  loadConfig,
  openDatabase,
  openReadPool,
  outbox,
  UnitOfWork,
} from '@cartable/service-kit';
import { testTokens } from '@cartable/service-kit/testing';
import { createDatabases, databaseUrl, dropDatabases } from '@cartable/stack/infrastructure';
import { asc, eq } from 'drizzle-orm';
import pino from 'pino';
import sharp from 'sharp';
import { buildCatalogApp } from '../src/app.ts';
import { createCatalog } from '../src/catalog.ts';
import { catalogConfigSchema } from '../src/config.ts';
import * as schema from '../src/db/schema.ts';
import { sellersProjection } from '../src/modules/members/index.ts';
import { seedPlans } from '../src/modules/monetisation/index.ts';
import { startListingIndexFeed } from '../src/modules/search/index.ts';
import { seedCategories, seedLocations } from '../src/modules/taxonomy/index.ts';

const PG = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * The catalog service in-process on its own database, Redis prefix and image folder; with
 * `listingIndex`, its listing pages come from the in-memory index as in production (main.ts).
 */
export async function startCatalog(env: Record<string, string> = {}, options: { listingIndex?: boolean } = {}) {
  const id = `t${randomBytes(4).toString('hex')}`;
  const dbName = `cartable_${id}_catalog`;
  const dataDir = mkdtempSync(join(tmpdir(), `cartable-catalog-${id}-`));
  await createDatabases(PG, [dbName]);
  const config = loadConfig(catalogConfigSchema, {
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    REDIS_KEY_PREFIX: `cartable:${id}:`,
    CATALOG_DATABASE_URL: databaseUrl(PG, dbName),
    ...env,
  });
  const database = await openDatabase({
    name: 'catalog',
    url: config.CATALOG_DATABASE_URL,
    dataDir,
    schema,
    migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)),
  });
  const db = database.db;
  await seedLocations(db);
  await seedCategories(db);
  await seedPlans(db);
  const redis = createRedis(config.REDIS_URL);
  const storage = createLocalStorage(join(dataDir, 'storage'));
  const tokens = await testTokens();
  const log = pino({ level: 'silent' });
  const uow = new UnitOfWork({ db, relay: { kick: () => {} }, log });
  const listings = options.listingIndex ? startListingIndexFeed(config.CATALOG_DATABASE_URL!, log) : undefined;
  if (listings) await listings.ready();
  const searchPool = openReadPool({
    url: config.CATALOG_DATABASE_URL!,
    schema,
    poolSize: config.SEARCH_POOL_MAX,
    statementTimeoutMs: config.SEARCH_STATEMENT_TIMEOUT_MS,
  });
  // The service as main.ts composes it; views are written when a test flushes them.
  const catalog = createCatalog({
    config,
    uow,
    guards: tokens.guards,
    storage,
    redis,
    log,
    listingFeed: listings,
    searchDb: searchPool.db,
    viewFlushMs: 60_000,
  });
  const categoryStore = catalog.taxonomy.categories;
  const views = catalog.listings.views;
  const app = await buildCatalogApp(catalog, [], false);

  const token = tokens.token;

  async function call(method: string, url: string, body?: unknown, bearer?: string) {
    const res = await app.inject({
      method: method as 'GET',
      url,
      headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
      ...(body === undefined ? {} : { payload: body as object }),
    });
    // biome-ignore lint/suspicious/noExplicitAny: tests read answers of any shape
    return { status: res.statusCode, body: res.json() as any };
  }

  /** A multipart form: text fields plus files (Buffer) under their field names. */
  async function form(
    method: 'POST',
    url: string,
    fields: Record<string, string | string[]>,
    files: Record<string, Buffer>,
    bearer: string,
  ) {
    const boundary = `----cartable${randomBytes(6).toString('hex')}`;
    const parts: Buffer[] = [];
    for (const [name, value] of Object.entries(fields)) {
      for (const v of [value].flat()) {
        parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${v}\r\n`));
      }
    }
    for (const [name, file] of Object.entries(files)) {
      parts.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${name}.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        ),
        file,
        Buffer.from('\r\n'),
      );
    }
    parts.push(Buffer.from(`--${boundary}--\r\n`));
    const res = await app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${bearer}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat(parts),
    });
    // biome-ignore lint/suspicious/noExplicitAny: tests read answers of any shape
    return { status: res.statusCode, body: res.json() as any };
  }

  async function categoryId(name: string) {
    const [row] = await db.select().from(schema.categories).where(eq(schema.categories.name, name));
    return row!.id;
  }
  async function cityId(name: string) {
    const [row] = await db.select().from(schema.cities).where(eq(schema.cities.name, name));
    return row!.id;
  }

  /**
   * A listing published through the form as a member does (author « Collectif », good condition),
   * in a town and a level by their names; its id.
   */
  async function publish(
    bearer: string,
    book: { title: string; price: number; city: string; level: string; exchange?: boolean },
  ) {
    const res = await form(
      'POST',
      '/books',
      {
        title: book.title,
        author: 'Collectif',
        condition: 'bon',
        price: String(book.price),
        ...(book.exchange !== undefined ? { is_exchange_possible: String(book.exchange) } : {}),
        city_id: String(await cityId(book.city)),
        category_ids: [String(await categoryId(book.level))],
      },
      {},
      bearer,
    );
    if (res.status !== 201) throw new Error(`listing refused: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.book.id as number;
  }

  /**
   * An event handled as the consumer would, in its own transaction through the unit of work (what
   * a handler publishes in turn is recorded in that transaction).
   */
  async function deliver<T extends EventType>(handlers: EventHandlers, type: T, data: Envelope<T>['data']) {
    const envelope = { id: randomUUID(), type, occurred_at: new Date().toISOString(), data } as Envelope<T>;
    // biome-ignore lint/suspicious/noExplicitAny: the handler of this type takes this envelope
    await uow.run((t) => (handlers[type] as any)(t.db, envelope, t));
    // What the consumer does once its transaction is committed.
    uow.consumed(envelope);
  }

  /** A member auth told catalog about (auth.user.registered): the sellers projection knows them. */
  const registerSeller = (userId: string, name: string, cityId: number | null = null) =>
    deliver(sellersProjection, 'auth.user.registered', {
      user_id: userId,
      name,
      username: name.toLowerCase().replace(/\W/g, '_'),
      email: `${userId}@example.ga`,
      country_id: 266,
      city_id: cityId,
      profile_image: null,
      created_at: new Date().toISOString(),
      version: 1,
      verification: { token: 't', expires_at: new Date().toISOString() },
    });

  async function events(type: string) {
    const rows = await db.select().from(outbox).where(eq(outbox.type, type)).orderBy(asc(outbox.occurredAt));
    // biome-ignore lint/suspicious/noExplicitAny: payloads were checked by their schema when written
    return rows.map((r) => r.payload as any);
  }

  async function teardown() {
    await views.stop();
    await catalog.search.misses.flush();
    await app.close();
    await listings?.close();
    await searchPool.close();
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
    config,
    listings,
    views,
    storage,
    categoryStore,
    uow,
    catalog,
    dataDir,
    token,
    call,
    form,
    publish,
    categoryId,
    cityId,
    deliver,
    registerSeller,
    events,
    teardown,
  };
}
export type CatalogHarness = Awaited<ReturnType<typeof startCatalog>>;

/** A real photo (a coloured rectangle) in the given format. */
export const photo = (format: 'jpeg' | 'png' | 'webp' = 'jpeg', width = 900, height = 1200) =>
  sharp({ create: { width, height, channels: 3, background: '#3A75C4' } })
    [format]()
    .toBuffer();
