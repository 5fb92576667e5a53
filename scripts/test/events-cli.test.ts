import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { streamName, subjectFor } from '@cartable/contracts';
import { ensureStream, publishDeadLetter } from '@cartable/service-kit';
import { repoRoot } from '@cartable/stack/processes';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const namespace = `t${randomBytes(4).toString('hex')}`;
let nc: NatsConnection;

const events = (...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'scripts/events.ts', ...args], {
    cwd: repoRoot,
    env: { ...process.env, NATS_URL, EVENT_NAMESPACE: namespace },
  });

beforeAll(async () => {
  nc = await connect({ servers: NATS_URL });
  const jsm = await jetstreamManager(nc);
  await ensureStream(jsm, 'auth', namespace);
  await ensureStream(jsm, 'dlq', namespace);
});
afterAll(async () => {
  const jsm = await jetstreamManager(nc);
  for (const p of ['auth', 'dlq'] as const) await jsm.streams.delete(streamName(p, namespace)).catch(() => false);
  await nc.close();
});

describe('npm run events -- dlq', () => {
  it('lists dead letters, replays one to its original subject with its consumer named, drops another', async () => {
    const js = jetstream(nc);
    const letter = (id: string, consumer: string, sequence: number) =>
      publishDeadLetter(js, namespace, new TextEncoder().encode(JSON.stringify({ id, type: 'auth.user.registered' })), {
        consumer,
        type: 'auth.user.registered',
        subject: subjectFor('auth.user.registered', namespace),
        stream: streamName('auth', namespace),
        sequence,
        error: 'relation "members" does not exist',
      });
    await letter('first', 'catalog', 7);
    await letter('second', 'messaging', 8);

    const listed = await events('dlq', 'list');
    expect(listed.stdout).toContain('catalog  auth.user.registered');
    expect(listed.stdout).toContain('relation "members" does not exist');
    expect(listed.stdout).toContain('2 lettre(s) morte(s).');
    const json = JSON.parse((await events('dlq', 'list', '--json', '--consumer', 'messaging')).stdout);
    expect(json).toHaveLength(1);
    expect(json[0]).toMatchObject({ consumer: 'messaging', sequence: 8 });

    const before = (await jetstreamManager(nc).then((m) => m.streams.info(streamName('auth', namespace)))).state
      .last_seq;
    const replay = await events('dlq', 'replay', '--consumer', 'catalog');
    expect(replay.stdout).toContain('1 événement(s) rejoué(s).');
    const jsm = await jetstreamManager(nc);
    const replayed = await jsm.streams.getMessage(streamName('auth', namespace), { seq: before + 1 });
    expect(replayed?.json<{ id: string }>().id).toBe('first');
    expect(replayed?.header?.get('Cartable-Replay-For')).toBe('catalog');

    const drop = await events('dlq', 'drop', '--seq', String(json[0].seq));
    expect(drop.stdout).toContain('1 lettre(s) morte(s) supprimée(s).');
    expect((await events('dlq', 'list')).stdout).toContain('Aucune lettre morte.');
  }, 60_000);

  it('refuses an unknown command with its usage', async () => {
    await expect(events('dlq', 'purge')).rejects.toMatchObject({ code: 2 });
  }, 30_000);
});
