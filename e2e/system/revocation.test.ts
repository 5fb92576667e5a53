import { verifiedMember } from '@cartable/stack/members';
import { type OwnServer, redisServer } from '@cartable/stack/servers';
import { freePort, startTestStack, type TestStack } from '@cartable/stack/test-stack';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Revoked tokens stay revoked and logins keep working whatever happens to Redis: the stack runs
 * on a Redis of its own, started here, killed with SIGKILL and started again empty on the same
 * port (never the machine's shared Redis).
 */
let stack: TestStack;
/** This test's own Redis (never the machine's shared one), killed and restarted empty below. */
let redis: OwnServer;

beforeAll(async () => {
  redis = redisServer(await freePort());
  await redis.start();
  stack = await startTestStack({
    only: ['auth', 'catalog', 'notifications', 'gateway'],
    env: {
      REDIS_URL: redis.url,
      // Members are verified through their e-mail; some verification mails wait for the
      // reconciler (see the report of this change): let it run often here.
      MAIL_RECONCILE_INTERVAL_MS: '1000',
      // Every login of this test comes from one address (the gateway believes no X-Forwarded-For).
      RATE_LIMIT_LOGIN: '1000/60',
    },
  });
});
afterAll(async () => {
  await stack?.teardown();
  await redis?.remove();
});

/** One API call, timed. */
async function api(path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  const started = performance.now();
  const res = await fetch(`${stack.api}${path}`, {
    method: init.method ?? (init.body ? 'POST' : 'GET'),
    headers: {
      ...(init.body ? { 'content-type': 'application/json' } : {}),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    ...(init.body ? { body: JSON.stringify(init.body) } : {}),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: kept as text, and the checks below say so
  }
  return { status: res.status, body: body as Record<string, unknown>, ms: performance.now() - started };
}

const ADMIN = { email: 'admin@cartable.ga', password: 'Cartable2026!' };
const login = async (email: string, password = 'Cartable1a') => api('/login', { body: { email, password } });

describe('revocation and logins when Redis is lost', () => {
  it('keeps every revoked token refused through a Redis killed and restarted empty; logins work without it', async () => {
    const adminToken = (await login(ADMIN.email, ADMIN.password)).body.access_token as string;
    expect(adminToken).toBeTruthy();

    // Four members: one logs out, one changes the password while logged in on another device, one is
    // demoted from administrator, one just goes on.
    const out = await verifiedMember(stack, 'rv_sortie');
    const changer = await verifiedMember(stack, 'rv_change');
    const changerSecond = (await login(changer.email)).body.access_token as string;
    const demoted = await verifiedMember(stack, 'rv_promu');
    const live = await verifiedMember(stack, 'rv_actif');
    expect((await api(`/admin/users/${demoted.id}/promote`, { method: 'POST', token: adminToken })).status).toBe(200);
    const demotedAdminToken = (await login(demoted.email)).body.access_token as string;
    expect((await api('/users/check-admin', { token: demotedAdminToken })).body).toEqual({ is_admin: true });

    expect((await api('/logout', { method: 'POST', token: out.token })).status).toBe(200);
    const changed = await api('/user/change-password', {
      method: 'PUT',
      token: changerSecond,
      body: { current_password: 'Cartable1a', password: 'Nouveau2b', password_confirmation: 'Nouveau2b' },
    });
    expect(changed.status).toBe(200);
    expect((await api(`/admin/users/${demoted.id}/revoke`, { method: 'POST', token: adminToken })).status).toBe(200);

    const revoked: Record<string, string> = {
      'logged out': out.token,
      'other session, before the password change': changer.token,
      'session that changed the password (old token)': changerSecond,
      'demoted administrator': demotedAdminToken,
    };
    const accepted: Record<string, string> = {
      administrator: adminToken,
      'after the password change': changed.body.access_token as string,
      member: live.token,
    };
    const measured: Record<string, unknown> = {};

    /** Every token on GET /user and an admin route: revoked ones 401, live ones 200. */
    async function check(phase: string) {
      const seen: Record<string, string> = {};
      const times: number[] = [];
      for (const [name, token] of Object.entries(revoked)) {
        const user = await api('/user', { token });
        const adminRoute = await api('/users/all', { token });
        seen[name] = `${user.status}/${adminRoute.status}`;
        times.push(user.ms, adminRoute.ms);
      }
      for (const [name, token] of Object.entries(accepted)) {
        const user = await api('/user', { token });
        seen[name] = String(user.status);
        times.push(user.ms);
      }
      measured[phase] = { answers: seen, slowest_ms: Math.round(Math.max(...times)) };
      return seen;
    }
    const expected = () => ({
      ...Object.fromEntries(Object.keys(revoked).map((k) => [k, '401/401'])),
      ...Object.fromEntries(Object.keys(accepted).map((k) => [k, '200'])),
    });

    expect(await check('1. Redis up')).toEqual(expected());

    // ── Redis killed ──────────────────────────────────────────────────────────────────────
    await redis.kill();
    const downAt = performance.now();
    const loginDown = await login(live.email, 'Cartable1a');
    expect(loginDown.status).toBe(200);
    expect((await login(live.email, 'Mauvais1a')).status).toBe(401);
    expect((await login('personne@example.ga', 'Cartable1a')).status).toBe(401);
    measured['2. login with Redis down'] = { status: loginDown.status, ms: Math.round(loginDown.ms) };
    expect(await check('2. Redis down (answers from auth)')).toEqual(expected());

    // A logout while Redis is down is kept too.
    const secondSession = loginDown.body.access_token as string;
    expect((await api('/logout', { method: 'POST', token: secondSession })).status).toBe(200);
    revoked['logged out while Redis was down'] = secondSession;
    expect((await api('/user', { token: secondSession })).status).toBe(401);

    // Every kind of route: its normal answer or a JSON 503, never a 500 or a hang.
    const sweep: Array<[string, string, string | undefined, unknown?]> = [
      ['GET', '/user', live.token],
      ['GET', '/user/profile', live.token],
      ['GET', '/user/stats', live.token],
      ['GET', '/user/recent-activity', live.token],
      ['GET', '/users/all', adminToken],
      ['GET', '/user/books', live.token],
      ['GET', '/books/stats/user', live.token],
      ['GET', '/books', undefined],
      ['GET', '/books', live.token],
      ['GET', '/books/featured', undefined],
      ['GET', '/books/search?query=maths', undefined],
      ['GET', '/categories/hierarchy/tree', undefined],
      ['GET', '/categories/leaves', undefined],
      ['GET', '/banners/active', undefined],
      ['GET', '/locations/cities/search?q=libreville', undefined],
      ['GET', '/messages', live.token],
      ['GET', '/messages/unread/count', live.token],
      ['GET', '/user/messages/recent', live.token],
      ['GET', '/contact/captcha', undefined],
      ['POST', '/forgot-password', undefined, { email: live.email }],
      [
        'POST',
        '/register',
        undefined,
        {
          name: 'Parent sans Redis',
          email: 'rv_sansredis@example.ga',
          username: 'parent_sansredis',
          password: 'Cartable1a',
          password_confirmation: 'Cartable1a',
          country_id: 266,
          city_id: 1,
        },
      ],
    ];
    const sweepAnswers: Record<string, string> = {};
    const badAnswers: string[] = [];
    for (const [method, path, token, body] of sweep) {
      const res = await api(path, { method, token, ...(body ? { body } : {}) });
      const key = `${method} ${path}${token ? ' (token)' : ''}`;
      sweepAnswers[key] = `${res.status} ${Math.round(res.ms)} ms`;
      const json = typeof res.body === 'object' && res.body !== null;
      const fine = res.status < 500 || (res.status === 503 && json && typeof res.body.message === 'string');
      if (!fine || !json) badAnswers.push(`${key}: ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`);
    }
    measured['3. every route with Redis down'] = sweepAnswers;
    measured['Redis down for (ms)'] = Math.round(performance.now() - downAt);

    // ── Redis back, empty, on the same port ──────────────────────────────────────────────
    await redis.start();
    const upAt = performance.now();
    const probe = new Redis({ port: redis.port });
    try {
      measured['4. keys in the new Redis when first checked'] = await probe.dbsize();
      // Straight away: the cache is empty, so the gateway must not take "absent" for "valid".
      expect(await check('4. Redis restarted empty, at once')).toEqual(expected());
      // auth rebuilds the cache after its reconnection and puts the sentinel back.
      const sentinel = `cartable:${stack.id}:revocation:loaded`;
      for (let i = 0; i < 200 && !(await probe.exists(sentinel)); i++) await new Promise((r) => setTimeout(r, 50));
      expect(await probe.exists(sentinel)).toBe(1);
      measured['5. cache rebuilt by auth after restart (ms)'] = Math.round(performance.now() - upAt);
      measured['5. revocation keys in the new Redis'] = (await probe.keys(`cartable:${stack.id}:*`)).filter(
        (k) => k.includes(':revoked:') || k.includes(':token-version:'),
      ).length;
      expect(await check('6. Redis rebuilt')).toEqual(expected());
      expect((await login(live.email, 'Cartable1a')).status).toBe(200);
    } finally {
      probe.disconnect();
    }

    console.log(`revocation and Redis loss, measured:\n${JSON.stringify(measured, null, 2)}`);
    expect(badAnswers).toEqual([]);
  }, 180_000);
});
