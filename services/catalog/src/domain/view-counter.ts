import { createHash } from 'node:crypto';
import type { Db, Redis } from '@cartable/service-kit';
import { sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import { books } from '../db/schema.ts';

/** Who looked: a member by their id, a visitor by their address and browser. */
export type Viewer = { memberId: string } | { address: string; userAgent: string };

/**
 * A visitor's anonymous views of one book in a day that count, per address: people behind one
 * carrier address (CGNAT) are several visitors, but a script changing its User-Agent is not.
 */
export const ANONYMOUS_VIEWS_PER_ADDRESS = 10;

export interface ViewCounterOptions {
  /** How often the counted views are written (5 s). */
  flushMs?: number;
  /** Shared by the replicas: a visitor counts once whichever one serves them. */
  redis?: Redis;
  prefix?: string;
}

/** The day in Gabon (UTC+1, no summer time): a view counts once per visitor, book and day. */
const gabonDay = (now = Date.now()) => new Date(now + 3600_000).toISOString().slice(0, 10);
const hash = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 22);
const DAY_SECONDS = 24 * 3600;

/**
 * Views of a book's page, counted once per visitor per book per day (a member by their id, a
 * visitor by a hash of their address and User-Agent, at most ANONYMOUS_VIEWS_PER_ADDRESS from
 * one address), so reloading a page 200 times does not make a book featured. Who was counted is
 * kept in Redis for two days (in memory when Redis is away); the counts are written every few
 * seconds in one statement, since a popular book seen by fifty people at once would otherwise
 * queue fifty updates on the same row.
 */
export function createViewCounter(db: Db, log: Logger, options: ViewCounterOptions = {}) {
  const { flushMs = 5000, redis, prefix = 'cartable:' } = options;
  let pending = new Map<number, number>();
  const inFlight = new Set<Promise<void>>();
  /** When Redis cannot answer: this replica's memory of who was counted. */
  const seenLocally = new LRUCache<string, number>({ max: 200_000, ttl: DAY_SECONDS * 1000 });

  async function firstTime(key: string, member: string, ttl: number): Promise<boolean> {
    if (redis) {
      try {
        const [[, added]] = (await redis.multi().sadd(key, member).expire(key, ttl).exec()) as [[unknown, number]];
        return added === 1;
      } catch (err) {
        log.warn({ err }, 'view deduplication falls back to memory');
      }
    }
    const local = `${key}:${member}`;
    if (seenLocally.has(local)) return false;
    seenLocally.set(local, 1);
    return true;
  }

  async function countsBelow(key: string, limit: number, ttl: number): Promise<boolean> {
    if (redis) {
      try {
        const [[, n]] = (await redis.multi().incr(key).expire(key, ttl).exec()) as [[unknown, number]];
        return n <= limit;
      } catch (err) {
        log.warn({ err }, 'view deduplication falls back to memory');
      }
    }
    const n = (seenLocally.get(key) ?? 0) + 1;
    seenLocally.set(key, n);
    return n <= limit;
  }

  /**
   * Visitors this replica already settled today for a book (counted or not): their next views
   * need no Redis round trip. A page reloaded in a loop costs a map look-up.
   */
  const settled = new LRUCache<string, true>({ max: 100_000, ttl: 3600_000 });

  async function shouldCount(bookId: number, viewer: Viewer): Promise<boolean> {
    const day = gabonDay();
    const base = `${prefix}catalog:views:${day}:${bookId}`;
    // Kept two days: the day's keys outlive its last minute in every time zone.
    const ttl = 2 * DAY_SECONDS;
    const who = 'memberId' in viewer ? `m:${viewer.memberId}` : `a:${hash(`${viewer.address}\n${viewer.userAgent}`)}`;
    const memo = `${base}:${who}`;
    if (settled.has(memo)) return false;
    settled.set(memo, true);
    if ('memberId' in viewer) return firstTime(`${base}:seen`, who, ttl);
    if (!(await firstTime(`${base}:seen`, who, ttl))) return false;
    return countsBelow(`${base}:address:${hash(viewer.address)}`, ANONYMOUS_VIEWS_PER_ADDRESS, ttl);
  }

  async function flush() {
    await Promise.all(inFlight);
    if (!pending.size) return;
    const batch = pending;
    pending = new Map();
    const rows = [...batch].map(([id, n]) => sql`(${id}::int, ${n}::int)`);
    try {
      await db.execute(
        sql`update ${books} set views = ${books.views} + v.n from (values ${sql.join(rows, sql`, `)}) as v(id, n) where ${books.id} = v.id`,
      );
    } catch (err) {
      // Lost view counts are not worth failing for; popularity is an estimate.
      log.warn({ err, books: batch.size }, 'view counts not written');
    }
  }

  const timer = setInterval(() => void flush(), flushMs);
  timer.unref();
  return {
    /** Counts the view unless this viewer was counted today for this book; never throws. */
    add(bookId: number, viewer: Viewer) {
      const work: Promise<void> = shouldCount(bookId, viewer)
        .then((counted) => {
          if (counted) pending.set(bookId, (pending.get(bookId) ?? 0) + 1);
        })
        .catch((err: unknown) => log.warn({ err }, 'view not counted'))
        .finally(() => inFlight.delete(work));
      inFlight.add(work);
    },
    flush,
    async stop() {
      clearInterval(timer);
      await flush();
    },
  };
}
export type ViewCounter = ReturnType<typeof createViewCounter>;
