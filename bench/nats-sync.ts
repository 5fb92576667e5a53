/**
 * What `sync_interval: always` (docker/nats/nats.conf, k8s/infra/nats.values.yaml) costs a
 * publisher: JetStream publications acknowledged, per second, on a nats-server of the bench's own
 * with the default (flushed every 2 minutes) and with every message flushed before its ack, the
 * way the outbox relay publishes (one at a time, and pipelined batches of 100), with a payment
 * event's size. A server older than 2.10 knows no sync_interval: then the bench says so and
 * measures what bounds it instead, this disk's write+fsync rate of such a record.
 *   npm run bench -- nats-sync          (SEQUENTIAL=2000 PIPELINED=10000)
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { closeSync, fsyncSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@cartable/stack/ports';
import { jetstream, jetstreamManager, StorageType } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';

const SEQUENTIAL = Number(process.env.SEQUENTIAL ?? 2000);
const PIPELINED = Number(process.env.PIPELINED ?? 10_000);
const BATCH = 100;
const NATS = process.env.NATS_SERVER ?? '/usr/sbin/nats-server';
const dir = mkdtempSync(join(tmpdir(), 'cartable-bench-nats-sync-'));

/** A catalog.payment event as the relay publishes it (about 700 bytes). */
const payload = JSON.stringify({
  id: crypto.randomUUID(),
  type: 'catalog.payment.paid',
  occurred_at: new Date().toISOString(),
  data: {
    payment_id: crypto.randomUUID(),
    user_id: crypto.randomUUID(),
    purpose: 'subscription',
    plan: { id: 2, name: 'Vendeur actif', duration_days: 30 },
    amount: 2500,
    currency: 'XAF',
    provider: 'airtel_money',
    provider_reference: 'AM-2026-12-07-0000123456',
    phone: '+24177000000',
    confirmed_at: new Date().toISOString(),
    version: 3,
    note: 'x'.repeat(200),
  },
});

async function server(name: string, sync: boolean): Promise<{ url: string; stop(): Promise<void> } | string> {
  const port = await freePort();
  const store = join(dir, name);
  const conf = join(dir, `${name}.conf`);
  writeFileSync(
    conf,
    `listen: 127.0.0.1:${port}\njetstream {\n  store_dir: "${store}"\n${sync ? '  sync_interval: always\n' : ''}}\n`,
  );
  const check = spawnSync(NATS, ['-c', conf, '-t'], { encoding: 'utf8' });
  if (check.status !== 0) return `${(check.stderr || check.stdout).trim()}`;
  const child: ChildProcess = spawn(NATS, ['-c', conf], { stdio: 'ignore' });
  const url = `nats://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      const nc = await connect({ servers: url, timeout: 500 });
      await nc.close();
      break;
    } catch (err) {
      if (i > 50) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url,
    stop: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function measure(url: string) {
  const nc = await connect({ servers: url });
  const jsm = await jetstreamManager(nc);
  await jsm.streams.add({ name: 'BENCH', subjects: ['bench.>'], storage: StorageType.File, duplicate_window: 120e9 });
  const js = jetstream(nc);
  const data = new TextEncoder().encode(payload);
  for (let i = 0; i < 200; i++) await js.publish('bench.warmup', data); // warm-up
  let start = performance.now();
  for (let i = 0; i < SEQUENTIAL; i++) await js.publish('bench.one', data, { msgID: `one-${i}` });
  const sequential = SEQUENTIAL / ((performance.now() - start) / 1000);
  start = performance.now();
  for (let i = 0; i < PIPELINED; i += BATCH) {
    await Promise.all(
      Array.from({ length: BATCH }, (_, j) => js.publish('bench.batch', data, { msgID: `batch-${i + j}` })),
    );
  }
  const pipelined = PIPELINED / ((performance.now() - start) / 1000);
  await nc.close();
  return { sequential, pipelined };
}

/** What flushing each record costs this disk: write + fsync of a record, one after the other. */
function fsyncRate(count = 1000) {
  const file = join(dir, 'fsync.bin');
  const fd = openSync(file, 'w');
  const record = Buffer.from(payload);
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    writeSync(fd, record);
    fsyncSync(fd);
  }
  const rate = count / ((performance.now() - start) / 1000);
  closeSync(fd);
  return rate;
}

const round = (n: number) => Math.round(n).toLocaleString('fr-FR');
const version = spawnSync(NATS, ['--version'], { encoding: 'utf8' }).stdout.trim();
console.log(
  `${version}, event of ${payload.length} bytes, ${SEQUENTIAL} one at a time, ${PIPELINED} in batches of ${BATCH}`,
);
try {
  const results: Record<string, { sequential: number; pipelined: number }> = {};
  for (const [name, sync] of [
    ['default (flush every 2 min)', false],
    ['sync_interval: always', true],
  ] as const) {
    const started = await server(sync ? 'sync' : 'default', sync);
    if (typeof started === 'string') {
      console.log(`${name}: not measured, this server refuses it (${started}); NATS ≥ 2.10 knows it`);
      continue;
    }
    try {
      results[name] = await measure(started.url);
    } finally {
      await started.stop();
    }
    const r = results[name]!;
    console.log(`${name}: ${round(r.sequential)} publications/s one at a time, ${round(r.pipelined)}/s pipelined`);
  }
  const rate = fsyncRate();
  console.log(
    `this disk: ${round(rate)} write+fsync of one event per second (what bounds one-at-a-time publications with sync always)`,
  );
  const [base, synced] = [results['default (flush every 2 min)'], results['sync_interval: always']];
  if (base && synced) {
    console.log(
      `sync always keeps ${Math.round((100 * synced.sequential) / base.sequential)} % of the one-at-a-time rate, ` +
        `${Math.round((100 * synced.pipelined) / base.pipelined)} % of the pipelined rate`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
