import {
  createRedis,
  DELETED_ACCOUNT_VERSION,
  DEVELOPMENT_INTERNAL_SERVICE_TOKEN,
  revocationLoadedKey,
  SERVICE_TOKEN_HEADER,
} from '@cartable/service-kit';
import { eq, sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokedTokens, users } from '../src/db/schema.ts';
import { type AuthHarness, startAuth } from './harness.ts';

/**
 * Revocation kept in auth's database, Redis only a cache of it: Redis emptied (as a restart
 * without persistence leaves it), unreachable, or failing a write.
 */
let h: AuthHarness;
let admin: string;
beforeAll(async () => {
  h = await startAuth();
  admin = await h.admin();
});
afterAll(() => h?.teardown());

const password = 'Cartable1a';
const newPassword = 'Nouveau2b';

/** Every Redis key of this test's prefix gone: Redis restarted empty. */
async function emptyRedis() {
  const keys = await h.redis.keys(`${h.config.REDIS_KEY_PREFIX}*`);
  if (keys.length) await h.redis.del(...keys);
}

/** A Redis client on a port where nothing listens: every command fails at once. */
function unreachableRedis() {
  const client = createRedis('redis://127.0.0.1:9');
  client.on('error', () => {});
  return client;
}

describe('revocations survive a Redis restarted empty', () => {
  it('writes every revoking path to the database, and a rebuild puts it all back in Redis', async () => {
    const loggedOut = await h.member('rv_logout');
    const changed = await h.member('rv_change');
    const reset = await h.member('rv_reset');
    const deleted = await h.member('rv_delete');
    const demoted = await h.member('rv_demote');
    const withRole = await h.member('rv_role');
    const withPermission = await h.member('rv_perm');
    const live = await h.member('rv_live');

    expect((await h.call('POST', '/logout', undefined, loggedOut.token)).status).toBe(200);
    const change = await h.call(
      'PUT',
      '/user/change-password',
      { current_password: password, password: newPassword, password_confirmation: newPassword },
      changed.token,
    );
    expect(change.status).toBe(200);
    await h.call('POST', '/forgot-password', { email: reset.email });
    const { token: resetToken } = await h.lastEvent('auth.password_reset.requested', reset.email);
    expect(
      (
        await h.call('POST', '/reset-password', {
          token: resetToken,
          email: reset.email,
          password: newPassword,
          password_confirmation: newPassword,
        })
      ).status,
    ).toBe(200);
    expect((await h.call('DELETE', '/user/account', { password }, deleted.token)).status).toBe(200);
    await h.call('POST', `/admin/users/${demoted.user.id}/promote`, undefined, admin);
    const adminToken = (await h.call('POST', '/login', { email: demoted.email, password })).body.access_token;
    expect(decodeJwt(adminToken).is_admin).toBe(true);
    expect((await h.call('POST', `/admin/users/${demoted.user.id}/revoke`, undefined, admin)).status).toBe(200);
    const role = await h.call('POST', '/roles', { slug: 'rv_villes', name: 'Villes', permissions: [] }, admin);
    await h.call('PUT', `/admin/users/${withRole.user.id}/roles`, { roles: ['rv_villes'] }, admin);
    const roleHolder = (await h.call('POST', '/login', { email: withRole.email, password })).body.access_token;
    expect((await h.call('DELETE', `/roles/${role.body.role.id}?force=true`, undefined, admin)).status).toBe(200);
    await h.call('PUT', `/admin/users/${withPermission.user.id}/permissions`, { permissions: [] }, admin);

    const refused = {
      logout: loggedOut.token,
      'password change': changed.token,
      'password reset': reset.token,
      'account deletion': deleted.token,
      'admin demoted': adminToken,
      'role deleted': roleHolder,
      'permissions changed': withPermission.token,
    };
    const accepted = { live: live.token, 'after password change': change.body.access_token as string };
    const answers = async () => {
      const out: Record<string, unknown> = {};
      for (const [name, token] of Object.entries({ ...refused, ...accepted })) out[name] = await h.revocationOf(token);
      return out;
    };
    const expected = (cacheRefused: string, cacheAccepted: string) => ({
      ...Object.fromEntries(Object.keys(refused).map((k) => [k, { database: true, cache: cacheRefused }])),
      ...Object.fromEntries(Object.keys(accepted).map((k) => [k, { database: false, cache: cacheAccepted }])),
    });
    expect(await answers()).toEqual(expected('revoked', 'valid'));

    // Redis restarted empty: the cache knows nothing and says so; the database still refuses.
    await emptyRedis();
    expect(await answers()).toEqual(expected('unknown', 'unknown'));

    // Rebuilt (at start-up, after a reconnection, when the sentinel is missing, periodically).
    const rebuilt = await h.revocation.rebuild();
    expect(rebuilt).toMatchObject({ tokens: 1 });
    expect(await answers()).toEqual(expected('revoked', 'valid'));
    expect(await h.redis.get(`${h.config.REDIS_KEY_PREFIX}token-version:${deleted.user.id}`)).toBe(
      String(DELETED_ACCOUNT_VERSION),
    );
  });

  it('lets only one replica rebuild at a time, and prunes revocations that have expired', async () => {
    const other = await h.build(h.redis);
    try {
      // The replica's start-up rebuild, done.
      await other.revocation.rebuild();
      await h.db
        .insert(revokedTokens)
        .values({ jti: 'expired-jti', userId: crypto.randomUUID(), expiresAt: new Date(Date.now() - 60_000) });
      // Another replica holds the rebuild lock: this one skips.
      const whileLocked = await h.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('cartable:revocation-cache'))`);
        return other.revocation.rebuild();
      });
      expect(whileLocked).toBe('skipped');
      const done = await other.revocation.rebuild();
      expect(done).toMatchObject({ pruned: 1 });
      expect(await h.db.select().from(revokedTokens).where(eq(revokedTokens.jti, 'expired-jti'))).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('does not claim a complete cache after a failed cache write; the database answers until a rebuild', async () => {
    const { token, user } = await h.member('rv_wrongtype');
    const key = `${h.config.REDIS_KEY_PREFIX}token-version:${user.id}`;
    // A key of the wrong type makes the cache write fail, on a Redis that is otherwise fine.
    await h.redis.lpush(key, 'x');
    const change = await h.call(
      'PUT',
      '/user/change-password',
      { current_password: password, password: newPassword, password_confirmation: newPassword },
      token,
    );
    expect(change.status).toBe(200);
    expect(await h.redis.exists(revocationLoadedKey(h.config.REDIS_KEY_PREFIX))).toBe(0);
    expect(await h.revocationOf(token)).toEqual({ database: true, cache: 'unknown' });
    // A rebuild cannot write that key either: still no sentinel, readers keep asking auth.
    await expect(h.revocation.rebuild()).rejects.toThrow(/WRONGTYPE/);
    expect(await h.redis.exists(revocationLoadedKey(h.config.REDIS_KEY_PREFIX))).toBe(0);
    await h.redis.del(key);
    await h.revocation.rebuild();
    expect(await h.revocationOf(token)).toEqual({ database: true, cache: 'revoked' });
    expect(await h.revocationOf(change.body.access_token)).toEqual({ database: false, cache: 'valid' });
  });
});

describe('without Redis', () => {
  it('logs in, registers, locks, logs out and changes passwords; revocations are kept in the database', async () => {
    const client = unreachableRedis();
    const dead = await h.build(client);
    try {
      const { email, token } = await h.member('sansredis');
      const login = await dead.call('POST', '/login', { email, password });
      expect(login.status).toBe(200);
      expect(
        (
          await dead.call('POST', '/register', {
            name: 'Élève sans',
            email: 'sansredis2@example.ga',
            username: 'eleve_sansredis2',
            password,
            password_confirmation: password,
            country_id: 266,
            city_id: 1,
          })
        ).status,
      ).toBe(201);
      expect((await dead.call('POST', '/forgot-password', { email })).status).toBe(200);
      expect((await dead.call('POST', '/logout', undefined, login.body.access_token)).status).toBe(200);
      const change = await dead.call(
        'PUT',
        '/user/change-password',
        { current_password: password, password: newPassword, password_confirmation: newPassword },
        token,
      );
      expect(change.status).toBe(200);
      expect((await dead.call('POST', '/internal/token-status', undefined, token)).body).toEqual({ revoked: true });
      expect((await dead.call('POST', '/internal/token-status', undefined, login.body.access_token)).body).toEqual({
        revoked: true,
      });
      expect((await dead.call('POST', '/internal/token-status', undefined, change.body.access_token)).body).toEqual({
        revoked: false,
      });

      for (let i = 0; i < h.config.LOGIN_FREE_ATTEMPTS; i++) {
        expect((await dead.call('POST', '/login', { email, password: 'Mauvais1a' })).status).toBe(401);
      }
      expect((await dead.call('POST', '/login', { email, password: newPassword })).status).toBe(429);
    } finally {
      await dead.close();
      client.disconnect();
    }
  });
});

describe('login throttling per account, in the database', () => {
  const attacker = '203.0.113.66';
  const owner = '198.51.100.7';
  const wrong = (email: string, from = attacker) =>
    h.call('POST', '/login', { email, password: 'Mauvais1a' }, undefined, from);
  const right = (email: string, from = owner) => h.call('POST', '/login', { email, password }, undefined, from);
  const free = () => h.config.LOGIN_FREE_ATTEMPTS;
  /** Time passes: the account's next attempt is allowed now. */
  const waitOver = (userId: string) =>
    h.db.update(users).set({ lockedUntil: sql`now() - interval '1 second'` }).where(eq(users.id, userId));

  it('counts concurrent guesses before checking them: 60 at once, only the free ones are tried', async () => {
    const { email, user } = await h.member('verrou_rafale');
    const answers = await Promise.all(Array.from({ length: 60 }, () => wrong(email)));
    const tried = answers.filter((a) => a.status === 401).length;
    expect(tried).toBeLessThanOrEqual(free() + 1);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(60 - tried);
    const [row] = await h.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.failedLogins).toBe(tried);
  });

  it('makes each attempt past the free ones wait twice as long as the previous, and says how long', async () => {
    const { email, user } = await h.member('verrou_delai');
    for (let i = 0; i < free(); i++) expect((await wrong(email)).status).toBe(401);
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      await waitOver(user.id);
      expect((await wrong(email)).status).toBe(401);
      const refused = await wrong(email);
      expect(refused.status).toBe(429);
      expect(refused.body.message).toBe('Trop de tentatives. Veuillez attendre avant de réessayer.');
      waits.push(refused.body.retry_after);
    }
    expect(waits).toEqual([2, 4, 8, 16]);
  });

  it('never locks the owner out from an address they signed in from: at most a short wait', async () => {
    const { email, user } = await h.member('verrou_proprio');
    expect((await right(email)).status).toBe(200); // the owner's address is now known
    // An attacker hammers the account for a long time: the wait reaches its maximum.
    for (let i = 0; i < 30; i++) {
      await waitOver(user.id);
      await wrong(email);
    }
    const attackerTurn = await wrong(email);
    expect(attackerTurn.status).toBe(429);
    expect(attackerTurn.body.retry_after).toBeGreaterThan(h.config.LOGIN_KNOWN_SOURCE_MAX_DELAY_SECONDS);
    // Right after the attacker's last try the owner waits at most the short delay…
    const ownerTurn = await right(email);
    expect(ownerTurn.status).toBe(429);
    expect(ownerTurn.body.retry_after).toBeLessThanOrEqual(h.config.LOGIN_KNOWN_SOURCE_MAX_DELAY_SECONDS);
    // …and once it has passed, signs in, while an unknown address still waits.
    await h.db
      .update(users)
      .set({
        lastLoginAttemptAt: sql`now() - make_interval(secs => ${h.config.LOGIN_KNOWN_SOURCE_MAX_DELAY_SECONDS + 1})`,
      })
      .where(eq(users.id, user.id));
    expect((await wrong(email, '203.0.113.99')).status).toBe(429);
    expect((await right(email)).status).toBe(200);
  });

  it('clears the count on a success, and forgets attempts older than the window', async () => {
    const { email, user } = await h.member('verrou_fenetre');
    for (let i = 0; i < free() - 1; i++) await wrong(email);
    expect((await right(email)).status).toBe(200);
    for (let i = 0; i < free(); i++) await wrong(email);
    expect((await wrong(email)).status).toBe(429);
    await h.db
      .update(users)
      .set({ failedLoginsSince: sql`now() - interval '1 day'`, lockedUntil: sql`now() - interval '1 second'` })
      .where(eq(users.id, user.id));
    await wrong(email);
    const [row] = await h.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.failedLogins).toBe(1);
  });
});

describe('the internal token status', () => {
  it('gives the current rights of a member promoted after their token was issued', async () => {
    const { token, user } = await h.member('int_promu');
    expect((await h.call('POST', '/internal/token-status', undefined, token)).body).toEqual({ revoked: false });
    expect((await h.call('POST', `/admin/users/${user.id}/promote`, undefined, await h.admin())).status).toBe(200);
    const answer = (await h.call('POST', '/internal/token-status', undefined, token)).body;
    expect(answer).toMatchObject({ revoked: false, rights: { is_admin: true } });
    // auth's own guards read them too: an admin-only route answers the old token.
    expect((await h.call('GET', '/users/all', undefined, token)).status).toBe(200);
  });

  it('answers only a valid token’s holder, and only revoked yes or no', async () => {
    expect((await h.call('POST', '/internal/token-status')).status).toBe(401);
    const { token } = await h.member('interne');
    const forged = `${token.slice(0, -4)}AAAA`;
    expect((await h.call('POST', '/internal/token-status', undefined, forged)).status).toBe(401);
    expect((await h.call('POST', '/internal/token-status', undefined, token)).body).toEqual({ revoked: false });
  });

  it('refuses a caller without the service credential, whatever token it brings', async () => {
    const { token } = await h.member('sans_cle');
    const ask = (headers: Record<string, string>) =>
      h.app.inject({
        method: 'POST',
        url: '/internal/token-status',
        headers: { authorization: `Bearer ${token}`, ...headers },
      });
    for (const credential of [undefined, '', 'x'.repeat(32), `${DEVELOPMENT_INTERNAL_SERVICE_TOKEN}x`]) {
      const res = await ask(credential === undefined ? {} : { [SERVICE_TOKEN_HEADER]: credential });
      expect(res.statusCode, String(credential)).toBe(403);
      expect(res.json()).toEqual({ message: "Vous n'avez pas l'autorisation d'effectuer cette action." });
    }
    const allowed = await ask({ [SERVICE_TOKEN_HEADER]: DEVELOPMENT_INTERNAL_SERVICE_TOKEN });
    expect(allowed.json()).toEqual({ revoked: false });
  });
});
