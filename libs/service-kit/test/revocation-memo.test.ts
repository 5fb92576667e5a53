import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AccessClaims } from '@cartable/contracts';
import { freePort } from '@cartable/stack/ports';
import { type OwnServer, redisServer } from '@cartable/stack/servers';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cacheRevokedToken,
  cacheRights,
  cacheTokenVersion,
  createRedis,
  createRevocationChecker,
  createRevocationMemo,
  markRevocationCacheIncomplete,
  markRevocationCacheLoaded,
  revokedTokenKey,
} from '../src/index.ts';

// A Redis of this test's own: it is killed and restarted empty.
let server: OwnServer;
let writer: Redis;
let auth: Server;
let authUrl: string;
/** What the stand-in auth says is revoked (by token, which is the jti here), and how often it was asked. */
const revokedAtAuth = new Set<string>();
let authCalls = 0;
const prefix = `memo-${randomUUID().slice(0, 8)}:`;
const log = { warn: () => {} };
const now = () => Math.floor(Date.now() / 1000);

const claims = (sub: string = randomUUID()): AccessClaims => ({
  sub,
  jti: randomUUID(),
  exp: now() + 3600,
  iat: now() - 10,
  ver: 0,
  email_verified: true,
  is_admin: false,
  roles: [],
  permissions: [],
});

/** Waits (bounded) for a condition that an event on another connection makes true. */
async function until(condition: () => boolean) {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 25));
  expect(condition()).toBe(true);
}

beforeAll(async () => {
  server = redisServer(await freePort());
  await server.start();
  writer = new Redis(server.url, { maxRetriesPerRequest: 1 });
  writer.on('error', () => {});
  auth = createServer((request, response) => {
    authCalls++;
    const token = (request.headers.authorization ?? '').replace('Bearer ', '');
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ revoked: revokedAtAuth.has(token) }));
  });
  await new Promise<void>((resolve) => auth.listen(0, '127.0.0.1', resolve));
  const address = auth.address();
  authUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  writer?.disconnect();
  await new Promise((resolve) => auth?.close(resolve));
  await server?.remove();
});

describe('revocation answers kept in memory while Redis announces changes', () => {
  /** A checker on its own connection, once the cache is complete and Redis announces changes to it. */
  async function hearingChecker() {
    const redis = createRedis(server.url);
    redis.on('error', () => {});
    const checker = createRevocationChecker({
      redis,
      prefix,
      authUrl,
      internalServiceToken: 'x'.repeat(32),
      statusCacheMs: 0,
      log,
    });
    await markRevocationCacheLoaded(writer, prefix);
    await until(checker.hearsChanges);
    const check = (c: AccessClaims) => checker.currentClaims(c.jti, c);
    return { redis, checker, check };
  }
  it('reads Redis once per token, then drops what a revocation, a version or a rights change touches', async () => {
    const { redis, checker, check } = await hearingChecker();
    try {
      const member = claims();
      expect(await check(member)).toMatchObject({ sub: member.sub });
      expect(await check(member)).toMatchObject({ sub: member.sub });
      expect(checker.counts()).toMatchObject({ cache: 1, memo: 1 });

      // A logout (auth writes the revoked id): refused as soon as Redis's announcement is in.
      await cacheRevokedToken(writer, prefix, member.jti, member.exp);
      await checker.settled();
      expect(await check(member)).toBeNull();

      // A password change (the user's version): every older token of theirs.
      const other = claims(member.sub);
      expect(await check(other)).not.toBeNull();
      await cacheTokenVersion(writer, prefix, member.sub, 1, 60);
      await checker.settled();
      expect(await check(other)).toBeNull();

      // A promotion reaches a token already kept.
      const promoted = claims();
      expect((await check(promoted))?.is_admin).toBe(false);
      await cacheRights(
        writer,
        prefix,
        promoted.sub,
        { is_admin: true, roles: [], permissions: [], changed_at: now() },
        60,
      );
      await checker.settled();
      expect((await check(promoted))?.is_admin).toBe(true);

      // The sentinel gone (a failed cache write at auth): nothing kept counts, auth answers.
      const before = authCalls;
      await markRevocationCacheIncomplete(writer, prefix);
      await checker.settled();
      revokedAtAuth.add(promoted.jti);
      expect(await check(promoted)).toBeNull();
      expect(authCalls).toBe(before + 1);
    } finally {
      redis.disconnect();
    }
  });

  it('keeps nothing while Redis is away, and nothing from before once it is back empty', async () => {
    const { redis, checker, check } = await hearingChecker();
    try {
      const [member, other] = [claims(), claims()];
      for (const c of [member, other, member, other]) expect(await check(c)).not.toBeNull();
      expect(checker.counts().memo).toBe(2);

      await server.kill();
      await until(() => !checker.hearsChanges());
      // Logged out during the outage: auth's database knows it, and it is refused at once.
      revokedAtAuth.add(member.jti);
      expect(await check(member)).toBeNull();

      await server.start();
      await until(checker.hearsChanges);
      // Back empty, not rebuilt yet (no sentinel): auth answers, nothing kept from before counts.
      const before = authCalls;
      expect(await check(other)).not.toBeNull();
      expect(authCalls).toBe(before + 1);
      expect(await check(member)).toBeNull();
      expect(checker.counts().memo).toBe(2);
    } finally {
      redis.disconnect();
    }
  });

  it('does not keep an answer read while a change was being announced', async () => {
    const redis = createRedis(server.url);
    redis.on('error', () => {});
    const memo = createRevocationMemo(redis, prefix, log);
    try {
      await until(() => memo.live);
      const member = claims();
      const readAt = memo.begin();
      // A write lands between the read and the keeping.
      await writer.set(revokedTokenKey(prefix, randomUUID()), '1', 'EX', 60);
      await memo.settled();
      memo.keep(member, { answer: 'valid' }, readAt);
      expect(memo.get(member)).toBeUndefined();
      memo.keep(member, { answer: 'valid' }, memo.begin());
      expect(memo.get(member)).toEqual({ answer: 'valid' });
      // Another user's token of the same id is not this one.
      expect(memo.get({ ...member, sub: randomUUID() })).toBeUndefined();
    } finally {
      redis.disconnect();
    }
  });
});
