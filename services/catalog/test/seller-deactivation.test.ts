import { randomUUID } from 'node:crypto';
import type { Envelope, EventType } from '@cartable/contracts';
import { rowsOf } from '@cartable/service-kit';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sellersProjection } from '../src/modules/members/index.ts';
import { type CatalogHarness, startCatalog } from './harness.ts';

let h: CatalogHarness;
let seller: { sub: string; token: string };
let other: { sub: string; token: string };
let moderator: { sub: string; token: string };
let bookId: number;

type Tx = Parameters<Parameters<CatalogHarness['db']['transaction']>[0]>[0];

/**
 * An auth event handled as the consumer does (h.deliver), or inside a transaction the test holds
 * open (it commits it, and nothing then clears the cached pages: those tests read the rows).
 */
async function deliver<T extends EventType>(type: T, data: Envelope<T>['data'], tx?: Tx) {
  if (!tx) return h.deliver(sellersProjection, type, data);
  const envelope = { id: randomUUID(), type, occurred_at: new Date().toISOString(), data } as Envelope<T>;
  // biome-ignore lint/suspicious/noExplicitAny: the handler of this type takes this envelope
  await (sellersProjection[type] as any)(tx, envelope);
}

beforeAll(async () => {
  h = await startCatalog();
  seller = await h.token();
  other = await h.token();
  moderator = await h.token({ permissions: ['books.update.any'] });
  await deliver('auth.user.registered', {
    user_id: seller.sub,
    name: 'Awa Vendeuse',
    username: 'awa_vend',
    email: 'awa@example.ga',
    country_id: 266,
    city_id: null,
    profile_image: null,
    created_at: new Date().toISOString(),
    version: 1,
    verification: { token: 't', expires_at: new Date().toISOString() },
  });
  const res = await h.form(
    'POST',
    '/books',
    {
      title: 'Physique Chimie Première S introuvable',
      author: 'Collection Excellence',
      condition: 'bon',
      price: '6000',
      city_id: String(await h.cityId('Libreville')),
      category_ids: [String(await h.categoryId('Terminale D'))],
    },
    {},
    seller.token,
  );
  expect(res.status).toBe(201);
  bookId = res.body.book.id;
});
afterAll(() => h?.teardown());

const listedIds = async (url: string) => {
  const res = await h.call('GET', url);
  const list = res.body.data ?? res.body.featured_books;
  return list.map((b: { id: number }) => b.id);
};

describe('a deactivated seller’s books leave the public catalogue', () => {
  it('hides them from listing, search, featured, the seller’s public books and the detail page', async () => {
    const before = await listedIds(`/books?user_id=${seller.sub}&per_page=50`);
    expect(before).toContain(bookId);

    await deliver('auth.user.deactivated', {
      user_id: seller.sub,
      deactivated_at: new Date().toISOString(),
      version: 5,
    });
    expect(await listedIds(`/books?user_id=${seller.sub}&per_page=50`)).not.toContain(bookId);
    expect(await listedIds('/books/search?query=introuvable')).not.toContain(bookId);
    expect(await listedIds('/books/featured')).not.toContain(bookId);
    expect(await listedIds(`/users/profile/books?user_id=${seller.sub}`)).not.toContain(bookId);
    expect((await h.call('GET', `/books/${bookId}`)).status).toBe(404);
    expect((await h.call('GET', `/books/${bookId}`, undefined, other.token)).status).toBe(404);
    // Its owner and the moderators still see it.
    expect((await h.call('GET', `/books/${bookId}`, undefined, seller.token)).status).toBe(200);
    expect((await h.call('GET', `/books/${bookId}`, undefined, moderator.token)).status).toBe(200);

    // A profile update afterwards leaves the flag alone; an older reactivation changes nothing.
    await deliver('auth.user.updated', {
      user_id: seller.sub,
      name: 'Awa V.',
      username: 'awa_vend',
      profile_image: null,
      country_id: 266,
      city_id: null,
      email: null,
      phone: null,
      updated_at: new Date().toISOString(),
      version: 6,
    });
    await deliver('auth.user.reactivated', {
      user_id: seller.sub,
      reactivated_at: new Date().toISOString(),
      version: 4,
    });
    expect((await h.call('GET', `/books/${bookId}`)).status).toBe(404);
    expect(await listedIds(`/books?user_id=${seller.sub}&per_page=50`)).not.toContain(bookId);

    // Reactivated (a newer version): the books come back.
    await deliver('auth.user.reactivated', {
      user_id: seller.sub,
      reactivated_at: new Date().toISOString(),
      version: 7,
    });
    expect((await h.call('GET', `/books/${bookId}`)).status).toBe(200);
    expect(await listedIds(`/books?user_id=${seller.sub}&per_page=50`)).toContain(bookId);
    expect(await listedIds('/books/search?query=introuvable')).toContain(bookId);
  });

  it('remembers a deactivation of a member it did not know yet', async () => {
    const stranger = await h.token();
    await deliver('auth.user.deactivated', {
      user_id: stranger.sub,
      deactivated_at: new Date().toISOString(),
      version: 3,
    });
    const res = await h.form(
      'POST',
      '/books',
      {
        title: 'Histoire Géographie 3e',
        author: 'Hatier',
        condition: 'bon',
        price: '3000',
        city_id: String(await h.cityId('Libreville')),
        category_ids: [String(await h.categoryId('Terminale D'))],
      },
      {},
      stranger.token,
    );
    expect((await h.call('GET', `/books/${res.body.book.id}`)).status).toBe(404);
    // Their registration arriving later fills the profile and keeps the flag.
    await deliver('auth.user.registered', {
      user_id: stranger.sub,
      name: 'Inconnu',
      username: 'inconnu',
      email: 'inconnu@example.ga',
      country_id: 266,
      city_id: null,
      profile_image: null,
      created_at: new Date().toISOString(),
      version: 1,
      verification: { token: 't', expires_at: new Date().toISOString() },
    });
    expect((await h.call('GET', `/books/${res.body.book.id}`)).status).toBe(404);
  });
});

describe('a deleted account’s books leave the public catalogue', () => {
  it('takes them out of listing and search, and out of the categories’ counts', async () => {
    const leaving = await h.token();
    await deliver('auth.user.registered', {
      user_id: leaving.sub,
      name: 'Paul Départ',
      username: 'paul_depart',
      email: 'paul@example.ga',
      country_id: 266,
      city_id: null,
      profile_image: null,
      created_at: new Date().toISOString(),
      version: 1,
      verification: { token: 't', expires_at: new Date().toISOString() },
    });
    const level = await h.categoryId('Terminale C');
    const res = await h.form(
      'POST',
      '/books',
      {
        title: 'Philosophie Terminale partante',
        author: 'IPN',
        condition: 'bon',
        price: '3000',
        city_id: String(await h.cityId('Libreville')),
        category_ids: [String(level)],
      },
      {},
      leaving.token,
    );
    expect(res.status).toBe(201);
    const id = res.body.book.id as number;
    const countOf = async () =>
      (await h.call('GET', `/categories/${level}`)).body.category.book_count as number | undefined;
    const before = await countOf();
    expect(await listedIds('/books/search?query=partante')).toContain(id);

    await deliver('auth.user.deleted', {
      user_id: leaving.sub,
      name: 'Paul Départ',
      email: 'paul@example.ga',
      deleted_at: new Date().toISOString(),
      version: 2,
    });
    expect(await listedIds('/books/search?query=partante')).not.toContain(id);
    expect(await listedIds('/books?per_page=50')).not.toContain(id);
    expect((await h.call('GET', `/books/${id}`)).status).toBe(404);
    // The harness's category store is refreshed the way the consumer's hook does it.
    h.categoryStore.clear();
    expect(await countOf()).toBe((before ?? 0) - 1);
  });
});

/**
 * A transaction left open until `commit()` is called (its work done first), so that another
 * one can be started against its uncommitted writes.
 */
function openTransaction(work: (tx: Tx) => Promise<void>) {
  let commit!: () => void;
  const held = new Promise<void>((resolve) => {
    commit = resolve;
  });
  let started!: () => void;
  const ready = new Promise<void>((resolve) => {
    started = resolve;
  });
  const finished = h.db.transaction(async (tx) => {
    await work(tx);
    started();
    await held;
  });
  // A failing `work` ends the wait for it too.
  return { ready: Promise.race([ready, finished]), commit, finished };
}

/**
 * Runs `work` in a transaction and resolves once its backend waits on a lock, with the promise
 * of its result (wrapped: an async function would otherwise wait for it).
 */
async function blockedOnLock<T>(work: (tx: Tx) => Promise<T>): Promise<{ result: Promise<T> }> {
  let pid: number | undefined;
  const result = h.db.transaction(async (tx) => {
    const [row] = await rowsOf<{ pid: number }>(tx, sql`select pg_backend_pid() as pid`);
    pid = row!.pid;
    return work(tx);
  });
  for (let i = 0; i < 400; i++) {
    if (pid !== undefined) {
      const [row] = await rowsOf<{ wait_event_type: string | null }>(
        h.db,
        sql`select wait_event_type from pg_stat_activity where pid = ${pid}`,
      );
      if (row?.wait_event_type === 'Lock') return { result };
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the second transaction never waited for the first one’s lock');
}

const insertBook = async (tx: Tx, userId: string, title: string) => {
  const [row] = await rowsOf<{ id: number; seller_away: boolean }>(
    tx,
    sql`insert into books (user_id, title, author, condition, price, city_id)
      values (${userId}, ${title}, 'IPN', 'bon', 2500, ${await h.cityId('Libreville')}) returning id, seller_away`,
  );
  return row!;
};
const awayOf = async (id: number) =>
  (await rowsOf<{ seller_away: boolean }>(h.db, sql`select seller_away from books where id = ${id}`))[0]?.seller_away;

describe('a listing written while its seller is being deactivated', () => {
  const registered = async () => {
    const member = await h.token();
    await h.registerSeller(member.sub, `Course ${member.sub.slice(0, 6)}`);
    return member.sub;
  };

  it('waits for the deactivation being written, then is out of the catalogue', async () => {
    const userId = await registered();
    const deactivation = openTransaction((tx) =>
      deliver('auth.user.deactivated', { user_id: userId, deactivated_at: new Date().toISOString(), version: 9 }, tx),
    );
    await deactivation.ready;
    try {
      const insertion = await blockedOnLock((tx) => insertBook(tx, userId, 'Course à la désactivation'));
      deactivation.commit();
      await deactivation.finished;
      expect((await insertion.result).seller_away).toBe(true);
    } finally {
      // A failure above must not leave the transaction open (the teardown would wait for it).
      deactivation.commit();
    }
  });

  /** A deactivation arriving while the listing is being written: it waits, then takes it out. */
  async function deactivatedDuringWrite(userId: string, title: string, version: number) {
    let id = 0;
    const insertion = openTransaction(async (tx) => {
      id = (await insertBook(tx, userId, title)).id;
    });
    await insertion.ready;
    try {
      const deactivation = await blockedOnLock((tx) =>
        deliver('auth.user.deactivated', { user_id: userId, deactivated_at: new Date().toISOString(), version }, tx),
      );
      insertion.commit();
      await insertion.finished;
      await deactivation.result;
      return id;
    } finally {
      insertion.commit();
    }
  }

  it('makes a deactivation arriving during the listing’s write wait, then take the listing out', async () => {
    const userId = await registered();
    const id = await deactivatedDuringWrite(userId, 'Course à l’annonce', 9);
    expect(await awayOf(id)).toBe(true);
    // Reactivated: back in the catalogue.
    await deliver('auth.user.reactivated', { user_id: userId, reactivated_at: new Date().toISOString(), version: 10 });
    expect(await awayOf(id)).toBe(false);
  });

  it('does the same for a member the catalogue does not know yet', async () => {
    const id = await deactivatedDuringWrite((await h.token()).sub, 'Course d’un inconnu', 3);
    expect(await awayOf(id)).toBe(true);
  });
});
