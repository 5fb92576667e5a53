import { fileURLToPath } from 'node:url';
import { type Envelope, type EventType, streamName, subjectFor } from '@cartable/contracts';
import { type Db, type EventHandlers, listDeadLetters, openDatabase } from '@cartable/service-kit';
import { testDatabase } from '@cartable/stack/databases';
import { listBook, verifiedMember } from '@cartable/stack/members';
import { sharedStack } from '@cartable/stack/shared-stack';
import { call, eventually, NATS_URL, type TestStack } from '@cartable/stack/test-stack';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import * as catalogSchema from '../../services/catalog/src/db/schema.ts';
import { sellersProjection } from '../../services/catalog/src/modules/members/index.ts';
import * as messagingSchema from '../../services/messaging/src/db/schema.ts';
import {
  bookProjection as messagingBooks,
  memberProjection as messagingMembers,
} from '../../services/messaging/src/events/projections.ts';
import * as moderationSchema from '../../services/moderation/src/db/schema.ts';
import {
  bookProjection as moderationBooks,
  memberProjection as moderationMembers,
} from '../../services/moderation/src/events/projections.ts';

/**
 * On real processes: read models converge whatever the
 * order events arrive in, and a retried creating call has one effect.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = sharedStack();
});
const multipart = (fields: Record<string, string>) => {
  const boundary = '----cartable-consistency';
  const body = `${Object.entries(fields)
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('')}--${boundary}--\r\n`;
  return { body, type: `multipart/form-data; boundary=${boundary}` };
};

async function bookFields(title: string, price: number) {
  const city = (await call(`${stack.api}/locations/cities/search?q=libreville`)).body.cities[0].id;
  const category = (await call(`${stack.api}/categories/leaves`)).body.categories[0].id;
  return {
    title,
    author: 'IPN',
    condition: 'bon',
    price: String(price),
    city_id: String(city),
    category_ids: String(category),
  };
}

async function rows<T>(url: string, query: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(query, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Every event a producer's stream holds, in stream order. */
async function streamEvents(producer: 'auth' | 'catalog'): Promise<Envelope[]> {
  const nc = await connect({ servers: NATS_URL });
  try {
    const jsm = await jetstreamManager(nc);
    const name = streamName(producer, stack.id);
    const { state } = await jsm.streams.info(name);
    const out: Envelope[] = [];
    for (let seq = state.first_seq; seq <= state.last_seq; seq++) {
      const msg = await jsm.streams.getMessage(name, { seq });
      if (msg) out.push(msg.json<Envelope>());
    }
    return out;
  } finally {
    await nc.close();
  }
}

function shuffle<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** node-postgres and PGlite both answer { rows }. */
async function q(db: Db, query: ReturnType<typeof sql>) {
  return ((await db.execute(query)) as unknown as { rows: unknown[] }).rows;
}

async function apply(db: Db, handlers: EventHandlers, events: Envelope[]) {
  for (const event of events) {
    const handler = handlers[event.type as EventType] as ((tx: Db, e: Envelope) => Promise<void>) | undefined;
    if (handler) await db.transaction((tx) => handler(tx, event));
  }
}

describe('one request, one effect', () => {
  it('creates one listing for a POST /books retried with the same Idempotency-Key', async () => {
    const seller = await verifiedMember(stack, 'idem_seller');
    const form = multipart(await bookFields('Physique-Chimie 2nde', 6000));
    const send = () =>
      fetch(`${stack.api}/books`, {
        method: 'POST',
        headers: { authorization: `Bearer ${seller.token}`, 'content-type': form.type, 'idempotency-key': 'form-1' },
        body: form.body,
      });
    const first = await send();
    expect(first.status).toBe(201);
    const firstBody = (await first.json()) as { book: { id: number } };
    // The client timed out and tries again, twice at once: the first answer, no new listing.
    const retries = await Promise.all([send(), send()]);
    for (const retry of retries) {
      expect(retry.status).toBe(201);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(((await retry.json()) as { book: { id: number } }).book.id).toBe(firstBody.book.id);
    }
    const mine = await rows<{ n: number }>(
      stack.databaseUrls.catalog,
      'select count(*)::int as n from books where user_id = $1',
      [seller.id],
    );
    expect(mine[0]?.n).toBe(1);
    console.log('idempotency: 3 POST /books with one key → 1 listing, 2 replays');
  });
});

describe('read models never go backwards', () => {
  it('converges to the same projections whatever the order of a real history of events', async () => {
    const member = await verifiedMember(stack, 'shuffle_seller');
    const profile = (await call(`${stack.api}/user/profile`, { token: member.token })).body.profile;
    const rename = (name: string) =>
      call(`${stack.api}/user/profile`, {
        method: 'PUT',
        token: member.token,
        body: { name, username: profile.username, country_id: 266, city_id: profile.city_id ?? 1 },
      });
    expect((await rename('Awa Nzé')).status).toBe(200);
    const bookId = await listBook(stack, member.token, 'Histoire 4e');
    const gone = await listBook(stack, member.token, 'Anglais 4e');
    const form = multipart(await bookFields('Histoire-Géographie 4e', 3500));
    const update = await fetch(`${stack.api}/books/${bookId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${member.token}`, 'content-type': form.type },
      body: form.body,
    });
    expect(update.status).toBe(200);
    for (const status of ['réservé', 'vendu']) {
      expect(
        (await call(`${stack.api}/books/${bookId}/status`, { method: 'PUT', token: member.token, body: { status } }))
          .status,
      ).toBe(200);
    }
    expect((await call(`${stack.api}/books/${gone}`, { method: 'DELETE', token: member.token })).status).toBe(200);
    expect((await rename('Awa Nzé-Obame')).status).toBe(200);

    // What the running services made of the history, delivered in order.
    const expected = await eventually(async () => {
      const [book] = await rows<{ title: string; price: number; status: string; version: number }>(
        stack.databaseUrls.messaging,
        'select title, price, status, version from books where id = $1',
        [bookId],
      );
      const [name] = await rows<{ name: string }>(
        stack.databaseUrls.messaging,
        'select name from members where id = $1',
        [member.id],
      );
      return book?.status === 'vendu' && name?.name === 'Awa Nzé-Obame' ? book : undefined;
    });
    expect(expected).toMatchObject({ title: 'Histoire-Géographie 4e', price: 3500, status: 'vendu' });

    const history = [...(await streamEvents('auth')), ...(await streamEvents('catalog'))].filter((e) => {
      const data = e.data as { user_id?: string };
      return data.user_id === member.id;
    });
    expect(history.length).toBeGreaterThanOrEqual(9);

    // The same history, shuffled, into fresh copies of the three services' projections.
    const databases = await Promise.all(
      ['messaging', 'moderation', 'catalog'].map((s) => testDatabase(`${s}_shuffle`)),
    );
    const [messaging, moderation, catalog] = await Promise.all([
      openDatabase({
        name: 'messaging',
        url: databases[0]!.url,
        dataDir: databases[0]!.dataDir,
        schema: messagingSchema,
        migrationsFolder: fileURLToPath(new URL('../../services/messaging/drizzle', import.meta.url)),
      }),
      openDatabase({
        name: 'moderation',
        url: databases[1]!.url,
        dataDir: databases[1]!.dataDir,
        schema: moderationSchema,
        migrationsFolder: fileURLToPath(new URL('../../services/moderation/drizzle', import.meta.url)),
      }),
      openDatabase({
        name: 'catalog',
        url: databases[2]!.url,
        dataDir: databases[2]!.dataDir,
        schema: catalogSchema,
        migrationsFolder: fileURLToPath(new URL('../../services/catalog/drizzle', import.meta.url)),
      }),
    ]);
    const snapshot = async () => ({
      messagingBooks: await q(
        messaging.db,
        sql`select id, title, price, status, version, deleted_at is not null as deleted from books order by id`,
      ),
      messagingMembers: await q(messaging.db, sql`select id, name, version from members`),
      moderationBooks: await q(
        moderation.db,
        sql`select id, title, version, deleted_at is not null as deleted from books order by id`,
      ),
      moderationMembers: await q(moderation.db, sql`select id, name, version from members`),
      sellers: await q(catalog.db, sql`select user_id, name, version from sellers`),
    });
    const reset = async () => {
      await messaging.db.execute(sql`truncate books, members`);
      await moderation.db.execute(sql`truncate books, members`);
      await catalog.db.execute(sql`truncate sellers`);
    };
    const deliver = async (events: Envelope[]) => {
      await apply(messaging.db, { ...messagingMembers, ...messagingBooks }, events);
      await apply(moderation.db, { ...moderationMembers, ...moderationBooks }, events);
      await apply(catalog.db, sellersProjection, events);
    };
    try {
      await deliver(history);
      const inOrder = await snapshot();
      expect(inOrder.messagingBooks).toContainEqual(
        expect.objectContaining({ id: bookId, title: 'Histoire-Géographie 4e', price: 3500, status: 'vendu' }),
      );
      expect(inOrder.messagingBooks).toContainEqual(expect.objectContaining({ id: gone, deleted: true }));
      let converged = 0;
      for (let seed = 1; seed <= 25; seed++) {
        await reset();
        // Out of order, and some events twice (a redelivery).
        const shuffled = shuffle([...history, ...history.slice(0, 3)], seed);
        await deliver(shuffled);
        expect(await snapshot()).toEqual(inOrder);
        converged++;
      }
      console.log(
        `shuffled events: ${history.length} events in 25 random orders (3 duplicated) → ${converged}/25 identical projections`,
      );
    } finally {
      await Promise.all([messaging.close(), moderation.close(), catalog.close()]);
      await Promise.all(databases.map((d) => d.drop()));
    }
  });
});

describe('a poison message never freezes a consumer', () => {
  it('dead-letters 300 malformed events and still mails the next real sign-up, published after them', async () => {
    const nc = await connect({ servers: NATS_URL });
    try {
      const js = jetstream(nc);
      // More than a consumer's max ack pending used to be (256), on the subject notifications reads.
      await Promise.all(
        Array.from({ length: 300 }, (_, i) =>
          js.publish(
            subjectFor('auth.user.registered', stack.id),
            JSON.stringify({ id: crypto.randomUUID(), type: 'auth.user.registered', occurred_at: 'x', data: { i } }),
          ),
        ),
      );
      const started = Date.now();
      expect(
        (
          await call(`${stack.api}/register`, {
            body: {
              name: 'Après Poison',
              email: 'apres.poison@example.ga',
              username: 'apres_poison',
              password: 'Cartable1a',
              password_confirmation: 'Cartable1a',
              country_id: 266,
              city_id: 1,
            },
          })
        ).status,
      ).toBe(201);
      // How fast is a figure (printed below); that it comes at all behind 300 poisons is the test.
      const mail = await stack.mail.waitFor('apres.poison@example.ga', { timeoutMs: 60_000 });
      expect(mail.subject).toContain('Confirmez');
      const letters = await listDeadLetters(nc, stack.id, { consumer: 'notifications' });
      console.log(
        `poison: 300 malformed events, ${letters.length} dead letters for notifications, the next sign-up mailed ${Date.now() - started} ms later`,
      );
      expect(letters.length).toBeGreaterThanOrEqual(300);
    } finally {
      await nc.close();
    }
  });
});
