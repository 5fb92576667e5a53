import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTokenVerifier, TOKEN_AUDIENCE, TOKEN_ISSUER } from '../src/auth.ts';

/**
 * The keys of auth, read over HTTP from a small local server standing in for it: served, then
 * stopped for hours, then serving a new key. Time is moved with a fake clock (Date only), so
 * nothing here waits for real minutes.
 */
type Key = { kid: string; privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey']; jwk: JWK };
let k1: Key;
let k2: Key;

async function key(kid: string): Promise<Key> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' } };
}

function sign(k: Key) {
  return new SignJWT({ email_verified: true, is_admin: false, roles: [], permissions: [], ver: 0 })
    .setProtectedHeader({ alg: 'ES256', kid: k.kid })
    .setSubject(randomUUID())
    .setJti(randomUUID())
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setExpirationTime('100h')
    .sign(k.privateKey);
}

/** Serves { keys } at /jwks.json and counts requests; can stop and start again on its port. */
function jwksServer() {
  let keys: JWK[] = [];
  let hits = 0;
  let server: Server | undefined;
  let port = 0;
  const handler = (_req: unknown, res: import('node:http').ServerResponse) => {
    hits++;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys }));
  };
  return {
    serve(next: JWK[]) {
      keys = next;
    },
    get hits() {
      return hits;
    },
    get url() {
      return `http://127.0.0.1:${port}/jwks.json`;
    },
    async start() {
      server = createServer(handler);
      await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    },
    async stop() {
      await new Promise<void>((resolve) => server?.close(() => resolve()));
      server?.closeAllConnections();
    },
  };
}

const MINUTE = 60_000;

beforeAll(async () => {
  [k1, k2] = await Promise.all([key('k1'), key('k2')]);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('signing keys read from auth (JWKS)', () => {
  it('keeps the last good keys through an auth outage of hours, then takes a new key when one appears', async () => {
    const auth = jwksServer();
    auth.serve([k1.jwk]);
    await auth.start();
    const refreshErrors: unknown[] = [];
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-01-01T08:00:00Z') });
    const verifier = createTokenVerifier(auth.url, {
      refreshMs: 10 * MINUTE,
      onRefreshError: (err) => refreshErrors.push(err),
    });
    const token1 = await sign(k1);

    expect((await verifier.verify(token1)).jti).toBeTruthy();
    expect(auth.hits).toBe(1);
    // Within the refresh period: no new read.
    vi.advanceTimersByTime(5 * MINUTE);
    await verifier.verify(token1);
    expect(auth.hits).toBe(1);

    // auth goes away. Past the refresh period a background read is tried, fails, and the keys
    // in hand still verify (the old cacheMaxAge of 10 min made every token fail here).
    await auth.stop();
    vi.advanceTimersByTime(11 * MINUTE);
    await expect(verifier.verify(token1)).resolves.toMatchObject({ ver: 0 });
    await vi.waitFor(() => expect(refreshErrors).toHaveLength(1));
    // Hours later, with a read tried (and failed) every 10 minutes of traffic: still fine.
    for (let i = 0; i < 18; i++) {
      vi.advanceTimersByTime(10 * MINUTE);
      await expect(verifier.verify(token1)).resolves.toBeTruthy();
      await vi.waitFor(() => expect(refreshErrors).toHaveLength(2 + i));
    }

    // auth back with a rotated set: a token naming the unknown key k2 makes the verifier read
    // the keys at once, and from then on the new set is the one in force.
    auth.serve([k2.jwk]);
    await auth.start();
    const hitsBefore = auth.hits;
    await expect(verifier.verify(await sign(k2))).resolves.toBeTruthy();
    expect(auth.hits).toBe(hitsBefore + 1);
    await expect(verifier.verify(token1)).rejects.toThrow();
    await auth.stop();
  });

  it('re-reads the keys in the background after the refresh period and drops a key auth removed', async () => {
    const auth = jwksServer();
    auth.serve([k1.jwk, k2.jwk]);
    await auth.start();
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-01-01T08:00:00Z') });
    const verifier = createTokenVerifier(auth.url, { refreshMs: 10 * MINUTE });
    const token1 = await sign(k1);
    await verifier.verify(token1);
    auth.serve([k2.jwk]);
    vi.advanceTimersByTime(10 * MINUTE);
    // This verification still uses the set in hand and starts the background read.
    await verifier.verify(token1);
    await vi.waitFor(() => expect(auth.hits).toBe(2));
    await vi.waitFor(async () => expect(await verifier.verify(token1).catch(() => 'refused')).toBe('refused'));
    await expect(verifier.verify(await sign(k2))).resolves.toBeTruthy();
    await auth.stop();
  });

  it('remembers a verified token, never past its expiry nor its key', async () => {
    const auth = jwksServer();
    auth.serve([k1.jwk]);
    await auth.start();
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-01-01T08:00:00Z') });
    const verifier = createTokenVerifier(auth.url);
    const shortLived = await new SignJWT({ email_verified: true, is_admin: false, roles: [], permissions: [], ver: 0 })
      .setProtectedHeader({ alg: 'ES256', kid: k1.kid })
      .setSubject(randomUUID())
      .setJti(randomUUID())
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setExpirationTime('2m')
      .sign(k1.privateKey);
    const first = await verifier.verify(shortLived);
    // The claims handed out are copies: a caller changing them changes nobody else's.
    first.roles.push('intrus');
    first.is_admin = true;
    await expect(verifier.verify(shortLived)).resolves.toMatchObject({ is_admin: false, roles: [] });
    vi.advanceTimersByTime(3 * MINUTE);
    await expect(verifier.verify(shortLived)).rejects.toThrow();
    await auth.stop();
  });

  it('fails (and the gateway answers 503) when the keys were never read', async () => {
    const auth = jwksServer();
    await auth.start();
    await auth.stop();
    const verifier = createTokenVerifier(auth.url);
    await expect(verifier.verify(await sign(k1))).rejects.toThrow();
  });
});
