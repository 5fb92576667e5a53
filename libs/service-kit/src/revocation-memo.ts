import type { AccessClaims } from '@cartable/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { type CacheAnswer, revocationLoadedKey, revokedTokenKey, rightsKey, tokenVersionKey } from './revocation.ts';

/** Redis's channel for client-side caching invalidations (RESP2: a redirected connection subscribes to it). */
const INVALIDATIONS = '__redis__:invalidate';

/** An answer is kept at most this long even if no change is announced (auth rebuilds the cache every 60 s). */
const KEPT_MS = 60_000;

export interface RevocationMemo {
  /** The generation to hand to `keep` after reading Redis; null while changes cannot be heard. */
  begin(): number | null;
  /** What Redis last said of this token, if it was kept and nothing changed since. */
  get(claims: Pick<AccessClaims, 'jti' | 'sub'>): CacheAnswer | undefined;
  /** Keeps a known answer read after `begin`, unless something changed meanwhile. */
  keep(claims: Pick<AccessClaims, 'jti' | 'sub' | 'exp'>, answer: CacheAnswer, generation: number | null): void;
  forget(jti: string): void;
  /** Resolves once every change Redis announced before the call has been applied (tests, after a write). */
  settled(): Promise<void>;
  /** Whether changes are heard now (answers are kept only then). */
  readonly live: boolean;
}

/**
 * Redis's answers about tokens (revoked? current rights?), kept in this process for as long as
 * Redis says none of their keys changed: client-side caching in broadcast mode (`CLIENT TRACKING
 * … BCAST` on the revocation keys' prefixes), whose invalidations arrive on a connection of its
 * own, so that a member's request costs no round trip to Redis. A logout, a password change, a
 * demotion or auth's rebuild announces the keys it writes, and the answers they touch are dropped
 * (the rebuild's sentinel drops them all). Nothing is kept while that connection is down (Redis
 * restarted, unreachable): every request reads Redis, or auth, as before. An answer read while a
 * change was being announced is not kept (the generation moved). The connection ends with `redis`.
 */
export function createRevocationMemo(
  redis: Redis,
  prefix: string,
  log: Pick<FastifyBaseLogger, 'warn'>,
  maxEntries = 10_000,
): RevocationMemo {
  const answers = new LRUCache<string, { sub: string; answer: CacheAnswer }>({ max: maxEntries });
  const revoked = revokedTokenKey(prefix, '');
  const versions = tokenVersionKey(prefix, '');
  const rights = rightsKey(prefix, '');
  const loaded = revocationLoadedKey(prefix);
  let generation = 0;
  let live = false;
  let lastWarning = 0;

  const dropAll = () => {
    answers.clear();
    generation++;
  };
  const dropUser = (sub: string) => {
    const theirs = [...answers.entries()].filter(([, entry]) => entry.sub === sub);
    for (const [jti] of theirs) answers.delete(jti);
  };

  // RESP2: invalidations are published to the redirected connection, which ioredis hands over as
  // messages (RESP3 pushes of this kind it drops). Each connection is set up afresh on 'ready':
  // nothing is queued, resent or resubscribed from the one before.
  const listener = redis.duplicate({
    protocol: 2,
    autoResubscribe: false,
    autoResendUnfulfilledCommands: false,
    enableAutoPipelining: false,
    enableOfflineQueue: false,
  });
  listener.on('error', (err: Error) => {
    if (Date.now() - lastWarning > 30_000) {
      lastWarning = Date.now();
      log.warn({ err: err.message }, 'revocation changes not heard; Redis is read on every request');
    }
  });
  listener.on('close', () => {
    live = false;
    dropAll();
  });
  // Which connection the set-up below is for: one interrupted by a reconnection gives way to the next.
  let connection = 0;
  listener.on('ready', async () => {
    const current = ++connection;
    try {
      const id = await listener.client('ID');
      if (current !== connection) return;
      await listener.call(
        'CLIENT',
        'TRACKING',
        'ON',
        'REDIRECT',
        String(id),
        'BCAST',
        ...[revoked, versions, rights, loaded].flatMap((p) => ['PREFIX', p]),
      );
      if (current !== connection) return;
      await listener.subscribe(INVALIDATIONS);
      if (current !== connection) return;
      dropAll();
      live = true;
    } catch (err) {
      if (current !== connection) return;
      // A Redis without client tracking (before 6) or that refuses it: every request reads Redis.
      log.warn({ err: (err as Error).message }, 'Redis does not announce changes; revocation read on every request');
    }
  });
  listener.on('messageBuffer', (channel: Buffer, keys: Buffer[] | Buffer | null) => {
    if (channel.toString() !== INVALIDATIONS) return;
    generation++;
    // Null: the whole database was flushed.
    if (!Array.isArray(keys)) return dropAll();
    for (const raw of keys) {
      const key = raw.toString();
      if (key.startsWith(revoked)) answers.delete(key.slice(revoked.length));
      else if (key.startsWith(versions)) dropUser(key.slice(versions.length));
      else if (key.startsWith(rights)) dropUser(key.slice(rights.length));
      else if (key === loaded) return dropAll();
    }
  });
  const end = () => listener.disconnect();
  redis.once('end', end);

  return {
    begin: () => (live ? generation : null),
    get(claims) {
      if (!live) return undefined;
      const entry = answers.get(claims.jti);
      return entry && entry.sub === claims.sub ? entry.answer : undefined;
    },
    keep(claims, answer, at) {
      if (!live || at !== generation || answer.answer === 'unknown') return;
      const ttl = Math.min(KEPT_MS, claims.exp * 1000 - Date.now());
      if (ttl > 0) answers.set(claims.jti, { sub: claims.sub, answer }, { ttl });
    },
    forget(jti) {
      answers.delete(jti);
    },
    async settled() {
      // Redis answers a connection in order: the PING's reply comes after every message queued before it.
      if (live) await listener.ping();
    },
    get live() {
      return live;
    },
  };
}
