import { createHash } from 'node:crypto';
import type { Db, Redis } from '@cartable/service-kit';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import { addViews } from '../db/queries.ts';

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

/** Books a statement of counted views writes at most. */
const FLUSH_CHUNK = 500;

/** The day in Gabon (UTC+1, no summer time): a view counts once per visitor, book and day. */
const gabonDay = (now = Date.now()) => new Date(now + 3600_000).toISOString().slice(0, 10);
const hash = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 22);
const DAY_SECONDS = 24 * 3600;

/**
 * KEYS[1]: the book's viewers of the day (a set); KEYS[2], for a visitor: their address's count.
 * ARGV: the viewer, the keys' time to live, the address's limit. 1 when the view counts.
 */
const COUNT_VIEW = `
local added = redis.call('SADD', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
if added == 0 then return 0 end
if #KEYS == 1 then return 1 end
local n = redis.call('INCR', KEYS[2])
redis.call('EXPIRE', KEYS[2], ARGV[2])
if n <= tonumber(ARGV[3]) then return 1 end
return 0`;

/** A view to settle at the next flush: whether it counts is Redis's to say. */
interface Unsettled {
  bookId: number;
  keys: string[];
  who: string;
}

/** Views settled with Redis in one round trip (a pipeline) at most. */
const SETTLE_CHUNK = 500;
/** Views waiting for a flush at most: past it (a flood between two flushes), they are not counted. */
const MAX_UNSETTLED = 100_000;

/**
 * Views of a book's page, counted once per visitor per book per day (a member by their id, a
 * visitor by a hash of their address and User-Agent, at most ANONYMOUS_VIEWS_PER_ADDRESS from
 * one address), so reloading a page 200 times does not make a book featured. Who was counted is
 * kept in Redis for two days (in memory when Redis is away). A view costs the page a look-up in
 * this replica's memory: every few seconds, the flush asks Redis about the new viewers in one
 * pipeline, then writes the counts, since a popular book seen by fifty people at once would
 * otherwise queue fifty updates on the same row.
 */
export function createViewCounter(db: Db, log: Logger, options: ViewCounterOptions = {}) {
  const { flushMs = 5000, redis, prefix = 'cartable:' } = options;
  let unsettled: Unsettled[] = [];
  /** The flush under way: the next one waits for it (the timer and stop() may meet). */
  let flushing: Promise<void> = Promise.resolve();
  /** When Redis cannot answer: this replica's memory of who was counted. */
  const seenLocally = new LRUCache<string, number>({ max: 200_000, ttl: DAY_SECONDS * 1000 });

  /** Whether a view counts, by this replica's memory alone (Redis is away). */
  function countsLocally({ keys: [seenKey, address], who }: Unsettled): boolean {
    const seen = `${seenKey}:${who}`;
    if (seenLocally.has(seen)) return false;
    seenLocally.set(seen, 1);
    if (!address) return true;
    const n = (seenLocally.get(address) ?? 0) + 1;
    seenLocally.set(address, n);
    return n <= ANONYMOUS_VIEWS_PER_ADDRESS;
  }

  /**
   * Whether each view counts: its viewer is new for the book today (a set) and, for a visitor,
   * their address is still under ANONYMOUS_VIEWS_PER_ADDRESS (a counter). One script a view, all
   * of them in one pipeline (in order: an address's views are numbered as they came).
   */
  async function settle(views: Unsettled[]): Promise<boolean[]> {
    if (redis) {
      try {
        const pipeline = redis.pipeline();
        // Kept two days: the day's keys outlive its last minute in every time zone.
        const ttl = 2 * DAY_SECONDS;
        for (const { keys, who } of views)
          pipeline.eval(COUNT_VIEW, keys.length, ...keys, who, ttl, ANONYMOUS_VIEWS_PER_ADDRESS);
        const answers = (await pipeline.exec()) ?? [];
        return views.map((view, i) => {
          const [err, counted] = answers[i] ?? [new Error('no answer')];
          return err ? countsLocally(view) : counted === 1;
        });
      } catch (err) {
        log.warn({ err }, 'view deduplication falls back to memory');
      }
    }
    return views.map(countsLocally);
  }

  /**
   * Visitors this replica already settled today for a book (counted or not): their next views
   * need no Redis round trip. A page reloaded in a loop costs a map look-up, under the visitor's
   * address and browser as they came (this memory is the process's own; only Redis gets hashes).
   */
  const settled = new LRUCache<string, true>({ max: 100_000, ttl: 3600_000 });
  /** A viewer in that memory; a long User-Agent (a client may send kilobytes) by its hash, to keep it bounded. */
  const memoOf = (viewer: Viewer) =>
    'memberId' in viewer
      ? `m:${viewer.memberId}`
      : `a:${viewer.address}\n${viewer.userAgent.length <= 256 ? viewer.userAgent : hash(viewer.userAgent)}`;

  /** A view to settle, unless this replica already settled this viewer for this book today. */
  function unsettledView(bookId: number, viewer: Viewer): Unsettled | null {
    const day = gabonDay();
    const memo = `${day}:${bookId}:${memoOf(viewer)}`;
    if (settled.has(memo)) return null;
    settled.set(memo, true);
    const base = `${prefix}catalog:views:${day}:${bookId}`;
    const seen = `${base}:seen`;
    if ('memberId' in viewer) return { bookId, keys: [seen], who: `m:${viewer.memberId}` };
    return {
      bookId,
      keys: [seen, `${base}:address:${hash(viewer.address)}`],
      who: `a:${hash(`${viewer.address}\n${viewer.userAgent}`)}`,
    };
  }

  async function write() {
    const views = unsettled;
    unsettled = [];
    const counts = new Map<number, number>();
    for (let start = 0; start < views.length; start += SETTLE_CHUNK) {
      const chunk = views.slice(start, start + SETTLE_CHUNK);
      const counted = await settle(chunk);
      chunk.forEach(({ bookId }, i) => {
        if (counted[i]) counts.set(bookId, (counts.get(bookId) ?? 0) + 1);
      });
    }
    const batch = [...counts];
    // In statements of FLUSH_CHUNK books: past about 1,700, PostgreSQL reads the whole table to
    // join them (0.3 s at 100,000 books) rather than find each by its key.
    for (let start = 0; start < batch.length; start += FLUSH_CHUNK) {
      const chunk = batch.slice(start, start + FLUSH_CHUNK);
      try {
        await addViews(db, chunk);
      } catch (err) {
        // Lost view counts are not worth failing for; popularity is an estimate.
        log.warn({ err, books: chunk.length }, 'view counts not written');
      }
    }
  }

  /** Settles the views seen since the last flush and writes those that count. */
  function flush(): Promise<void> {
    flushing = flushing.then(write).catch((err: unknown) => log.warn({ err }, 'views not counted'));
    return flushing;
  }

  const timer = setInterval(() => void flush(), flushMs);
  timer.unref();
  return {
    /** Counts the view at the next flush unless this viewer was counted today for this book. */
    add(bookId: number, viewer: Viewer) {
      const view = unsettledView(bookId, viewer);
      if (view && unsettled.length < MAX_UNSETTLED) unsettled.push(view);
    },
    flush,
    async stop() {
      clearInterval(timer);
      await flush();
    },
  };
}
export type ViewCounter = ReturnType<typeof createViewCounter>;
