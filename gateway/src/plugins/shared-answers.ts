import { SHARED_ANSWERS_CHANNEL, SHARED_HITS_PER_REPORT, type SharedHitsReport } from '@cartable/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { Counter, Gauge, type Registry } from 'prom-client';
import { type Dispatcher, request as undiciRequest } from 'undici';
import type { Owner } from '../route-table.ts';
import { compressOnce } from './whole-answer-compression.ts';

/**
 * Visitors' answers that their owner marks as shared (`Cache-Control: public, s-maxage=N`, as a
 * CDN would read it), kept here N seconds at most and served to the next visitors without the hop
 * to the owner. A book page shared in a class's WhatsApp group is read by hundreds of phones in
 * the same minutes, and the hop is most of what each read costs (README « Why the gateway is
 * Fastify »).
 *
 * Kept: GET answers of a route entry marked `sharedAnswers`, to a request without a token, with
 * status 200, read whole, without Set-Cookie, Vary or Content-Encoding. A request with a token
 * always goes to its owner.
 *
 * Dropped as soon as their owner says they may have changed (a listing written, hidden by the
 * moderation, its seller deactivated): it publishes on Redis (SHARED_ANSWERS_CHANNEL), and an
 * answer asked for before that message is not kept. Redis' messages are not stored: while this
 * gateway is not listening (Redis away, restarting), it serves nothing from memory, and it starts
 * again from nothing once it listens again.
 *
 * Served from here, a request never reaches its owner, which may count it (catalog counts a view
 * of a book page): every hit is reported to the owner, in batches, at POST /internal/shared-hits
 * (not a path of the route table, so never public). Hits wait for their report in memory and
 * survive an owner that is down or slow, up to MAX_PENDING_HITS; a stopping gateway reports what
 * it holds first. What a gateway that crashes held is lost, as the owner's own counter loses what
 * it had not written (a few seconds of views, never an answer).
 */

/** The longest an owner may have an answer kept, whatever its s-maxage says. */
export const SHARED_ANSWER_MAX_SECONDS = 10;
/** Answers kept at most, and their bytes at most: the oldest go first. */
const MAX_ANSWERS = 5_000;
const MAX_BYTES = 32 * 1024 * 1024;
/** Hits held at most while an owner cannot take them. */
export const MAX_PENDING_HITS = 100_000;
const DROPPED_AT_ONCE = 1_000;

/** Answer headers that belong to one sending, not to the kept answer. */
const NOT_KEPT = new Set(['date', 'age', 'connection', 'keep-alive', 'transfer-encoding']);

export interface KeptAnswer {
  statusCode: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
  keptAt: number;
  expiresAt: number;
}

/** One request served from here: what its owner would have seen of it. */
export type SharedHit = SharedHitsReport['hits'][number];
/** The contract's bound on a User-Agent: a longer one is cut, not refused with its batch. */
export const HIT_USER_AGENT_MAX = 1024;

/** The seconds a shared cache may keep an answer by its Cache-Control, or 0. */
export function sharedSeconds(cacheControl: string | string[] | undefined): number {
  if (typeof cacheControl !== 'string') return 0;
  const directives = cacheControl
    .toLowerCase()
    .split(',')
    .map((part) => part.trim());
  if (!directives.includes('public') || directives.some((d) => d === 'private' || d === 'no-store' || d === 'no-cache'))
    return 0;
  const sMaxAge = directives.find((d) => d.startsWith('s-maxage='));
  const seconds = sMaxAge ? Number(sMaxAge.slice('s-maxage='.length)) : 0;
  return Number.isInteger(seconds) && seconds > 0 ? Math.min(seconds, SHARED_ANSWER_MAX_SECONDS) : 0;
}

export interface SharedAnswersOptions {
  upstreams: Record<Owner, string>;
  /** A connection of its own is made from it, to listen for the owners' changes. */
  redis: Redis;
  keyPrefix: string;
  dispatcher: Dispatcher;
  log: FastifyBaseLogger;
  /** How often the hits are reported (ms). */
  reportEveryMs?: number;
  /** Where its counters go (the gateway's /metrics). */
  metrics?: Registry;
}

export class SharedAnswers {
  readonly #answers = new LRUCache<string, KeptAnswer>({
    max: MAX_ANSWERS,
    maxSize: MAX_BYTES,
    // The memory it holds: a body may be a view of a larger buffer (a socket's read).
    sizeCalculation: (answer) => Math.max(answer.body.length, answer.body.buffer.byteLength) + 1,
  });
  readonly #pending = new Map<Owner, SharedHit[]>();
  #pendingCount = 0;
  #reporting: Promise<void> | undefined;
  readonly #timer: NodeJS.Timeout;
  readonly #changes: Redis;
  /** Whether the owners' changes reach this gateway now: nothing is served from memory otherwise. */
  #listening = false;
  /** Bumped by each drop: an answer asked for before it is not kept. */
  #generation = 0;

  readonly #served: Counter<'result'> | undefined;
  readonly #dropped: Counter | undefined;

  constructor(private readonly options: SharedAnswersOptions) {
    if (options.metrics) {
      const registers = [options.metrics];
      this.#served = new Counter({
        name: 'gateway_shared_answers_total',
        help: "Visitors' reads of answers an owner lets the gateway keep: hit (from memory) or miss",
        labelNames: ['result'],
        registers,
      });
      this.#dropped = new Counter({
        name: 'gateway_shared_hits_dropped_total',
        help: 'Hits never reported: their owner did not take them before the bound, or refused them',
        registers,
      });
      const pending = () => this.#pendingCount;
      new Gauge({
        name: 'gateway_shared_hits_pending',
        help: 'Hits waiting for their report to their owner',
        registers,
        collect() {
          this.set(pending());
        },
      });
    }
    this.#timer = setInterval(() => void this.report(), options.reportEveryMs ?? 1_000);
    this.#timer.unref();
    const channel = `${options.keyPrefix}${SHARED_ANSWERS_CHANNEL}`;
    // No queue while away: a subscription made late would say nothing of what changed meanwhile.
    this.#changes = options.redis.duplicate({
      enableOfflineQueue: false,
      enableAutoPipelining: false,
      lazyConnect: true,
    });
    this.#changes.on('message', () => this.clear());
    // Subscribed again after a reconnection (ioredis does it): changes were missed, keep nothing.
    this.#changes.on('ready', () => this.#listen(channel));
    this.#changes.on('close', () => this.#stopServing());
    this.#changes.on('error', (err: Error) => {
      if (this.#listening) this.options.log.warn({ err: err.message }, 'shared answers: not listening for changes');
      this.#stopServing();
    });
    this.#changes.connect().catch(() => {}); // 'error' says it; ioredis tries again
  }

  /** Until the subscription is confirmed, nothing is kept nor served. */
  #listen(channel: string): void {
    this.#changes.subscribe(channel).then(
      () => {
        this.clear();
        this.#listening = true;
      },
      () => this.#stopServing(),
    );
  }

  #stopServing(): void {
    this.#listening = false;
    this.clear();
  }

  /** Drops every kept answer; a read in progress will not keep its own. */
  clear(): void {
    this.#generation++;
    this.#answers.clear();
  }

  /** Where drops stand now: pass it to `keep`, which refuses an answer asked for before a drop. */
  get generation(): number {
    return this.#generation;
  }

  /** The kept answer for this path, if it is still fresh. */
  get(path: string): KeptAnswer | undefined {
    const answer = this.#listening ? this.#answers.get(path) : undefined;
    if (answer && answer.expiresAt > Date.now()) {
      this.#served?.labels('hit').inc();
      return answer;
    }
    if (answer) this.#answers.delete(path);
    this.#served?.labels('miss').inc();
    return undefined;
  }

  /** Keeps an owner's answer if it says a shared cache may; the answer is not changed. */
  keep(
    path: string,
    askedAt: number,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
    body: Buffer,
  ): void {
    if (!this.#listening || askedAt !== this.#generation) return;
    if (statusCode !== 200 || headers['set-cookie'] !== undefined) return;
    // An answer that depends on the request's headers (Vary), or encoded for this client, is
    // not every visitor's.
    if (headers.vary !== undefined || headers['content-encoding'] !== undefined) return;
    const seconds = sharedSeconds(headers['cache-control']);
    if (!seconds) return;
    const kept: Record<string, string | string[]> = {};
    for (const name in headers) {
      const value = headers[name];
      if (value !== undefined && !NOT_KEPT.has(name)) kept[name] = value;
    }
    const now = Date.now();
    // Compressed for a browser once, not at each visitor.
    compressOnce(body);
    this.#answers.set(path, { statusCode, headers: kept, body, keptAt: now, expiresAt: now + seconds * 1000 });
  }

  /** Seconds since the answer was kept: its Age (RFC 9111, section 5.1). */
  age(answer: KeptAnswer): number {
    return Math.max(0, Math.floor((Date.now() - answer.keptAt) / 1000));
  }

  /** Notes a request served from here, for its owner's next report. */
  hit(owner: Owner, hit: SharedHit): void {
    const hits = this.#pending.get(owner);
    if (hits) hits.push(hit);
    else this.#pending.set(owner, [hit]);
    if (++this.#pendingCount > MAX_PENDING_HITS) this.#dropOldest();
  }

  /** Reports every pending hit it can, one batch after another; one report at a time. */
  report(): Promise<void> {
    this.#reporting ??= this.#reportAll().finally(() => {
      this.#reporting = undefined;
    });
    return this.#reporting;
  }

  /** Stops listening and the timer, and reports what is held (a stopping gateway). */
  async close(): Promise<void> {
    this.#stopServing();
    this.#changes.disconnect();
    clearInterval(this.#timer);
    await this.#reporting;
    await this.report();
  }

  get pendingHits(): number {
    return this.#pendingCount;
  }

  async #reportAll(): Promise<void> {
    for (const [owner, hits] of this.#pending) {
      while (hits.length) {
        const batch = hits.slice(0, SHARED_HITS_PER_REPORT);
        if (!(await this.#send(owner, batch))) break; // kept for the next round
        // Hits noted while the report was on its way went to the end: the batch is still the head.
        hits.splice(0, batch.length);
        this.#pendingCount -= batch.length;
      }
    }
  }

  async #send(owner: Owner, hits: SharedHit[]): Promise<boolean> {
    try {
      const answer = await undiciRequest(`${this.options.upstreams[owner]}/internal/shared-hits`, {
        method: 'POST',
        dispatcher: this.options.dispatcher,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ hits }),
        headersTimeout: 10_000,
        bodyTimeout: 10_000,
      });
      await answer.body.dump();
      if (answer.statusCode < 300) return true;
      // A 4xx will not get better by sending it again: those hits are dropped, and said so.
      if (answer.statusCode < 500) {
        this.options.log.error({ owner, status: answer.statusCode, hits: hits.length }, 'shared hits refused');
        this.#dropped?.inc(hits.length);
        return true;
      }
      this.options.log.warn({ owner, status: answer.statusCode }, 'shared hits not taken, kept for later');
    } catch (err) {
      this.options.log.warn({ owner, err: (err as Error).message }, 'shared hits not reported, kept for later');
    }
    return false;
  }

  /** Over the bound (an owner away for a long time): the oldest hits go, and the log says so. */
  #dropOldest(): void {
    let longest: SharedHit[] = [];
    for (const hits of this.#pending.values()) if (hits.length > longest.length) longest = hits;
    // The head may be a batch on its way to the owner: the oldest after it go.
    const dropped = longest.splice(SHARED_HITS_PER_REPORT, DROPPED_AT_ONCE);
    this.#pendingCount -= dropped.length;
    this.#dropped?.inc(dropped.length);
    this.options.log.error({ dropped: dropped.length }, 'shared hits dropped: their owner has not taken them');
  }
}
