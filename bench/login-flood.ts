/**
 * Logins under a flood of expensive requests: a member's login
 * time alone, then while many clients hammer POST /reset-password with invented links and
 * POST /register, straight to auth (as a distributed attacker past the gateway's per-address
 * limits would). Starts its own isolated stack, prints the figures.
 *   npm run bench -- login-flood     (FLOOD_SECONDS=15 FLOOD_CONNECTIONS=40 by default)
 */

import { verifiedMember } from '@cartable/stack/members';
import { startTestStack } from '@cartable/stack/test-stack';
import autocannon from 'autocannon';
import { benchEnv } from './support/stack-env.ts';

const seconds = Number(process.env.FLOOD_SECONDS ?? 15);
const connections = Number(process.env.FLOOD_CONNECTIONS ?? 40);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0);
};

const stack = await startTestStack({ env: { ...benchEnv, RATE_LIMIT_LOGIN: '100000/60' } });
try {
  const member = await verifiedMember(stack, 'bench_flood');
  async function logins(count: number) {
    const times: number[] = [];
    const statuses = new Map<number, number>();
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      const res = await fetch(`${stack.api}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: member.email, password: 'Cartable1a' }),
      });
      await res.arrayBuffer();
      times.push(performance.now() - started);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
    return { p50: percentile(times, 50), p95: percentile(times, 95), statuses: Object.fromEntries(statuses) };
  }

  console.log(
    `# Node ${process.version}, ${connections} flooding connections for ${seconds} s, everything on this machine`,
  );
  console.log(JSON.stringify({ title: 'login alone', ...(await logins(20)) }));

  let n = 0;
  const flood = autocannon({
    url: stack.url('auth'),
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: '/reset-password',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          token: 'invente',
          email: 'victime@example.ga',
          password: 'Nouveau2b',
          password_confirmation: 'Nouveau2b',
        }),
      },
      {
        method: 'POST',
        path: '/register',
        headers: { 'content-type': 'application/json' },
        setupRequest: (request) => {
          n++;
          return {
            ...request,
            body: JSON.stringify({
              name: `Flot ${n}`,
              email: `flot${n}-${Date.now()}@example.ga`,
              username: `flot_${n}_${Date.now() % 100000}`.slice(0, 20),
              password: 'Cartable1a',
              password_confirmation: 'Cartable1a',
              country_id: 266,
              city_id: 1,
            }),
          };
        },
      },
    ],
  });
  await new Promise((r) => setTimeout(r, 2000));
  const during = await logins(20);
  const result = await flood;
  console.log(JSON.stringify({ title: 'login during the flood', ...during }));
  console.log(
    JSON.stringify({
      title: 'the flood',
      'req/s': Math.round(result.requests.average),
      'p50 ms': result.latency.p50,
      statuses: { '2xx': result['2xx'], '4xx': result['4xx'], '5xx': result['5xx'] },
    }),
  );
} finally {
  await stack.teardown();
}
