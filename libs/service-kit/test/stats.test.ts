import { fileURLToPath } from 'node:url';
import { statsPeriodQuerySchema } from '@cartable/contracts';
import { testDatabase } from '@cartable/stack/databases';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Database,
  dailyCounts,
  idempotencyKeys,
  libreville,
  openDatabase,
  statsWindow,
  trend,
} from '../src/index.ts';

/** The back office's counting helpers on a real PostgreSQL: Libreville days, zeros, trends. */
let database: Database<{ idempotencyKeys: typeof idempotencyKeys }>;
let drop: () => Promise<void>;

beforeAll(async () => {
  const db = await testDatabase('stats');
  drop = db.drop;
  database = await openDatabase({
    name: 'stats',
    url: db.url,
    dataDir: db.dataDir,
    schema: { idempotencyKeys },
    migrationsFolder: fileURLToPath(new URL('./fixtures/drizzle', import.meta.url)),
  });
  await database.db.execute(sql`create table events (id serial primary key, at timestamptz not null, kind text)`);
  // 23:30 UTC on 9 Nov is 00:30 on 10 Nov in Libreville (UTC+1): it counts for the 10th.
  await database.db.execute(sql`insert into events (at, kind) values
    ('2026-11-01T10:00:00Z', 'a'), ('2026-11-01T11:00:00Z', 'b'),
    ('2026-11-09T23:30:00Z', 'a'),
    ('2026-11-10T12:00:00Z', 'a'),
    ('2026-10-25T12:00:00Z', 'a'), ('2026-10-20T12:00:00Z', 'a')`);
}, 60_000);

afterAll(async () => {
  await database?.close();
  await drop?.();
});

describe('statsWindow', () => {
  const now = new Date('2026-11-23T23:30:00Z'); // already 24 Nov in Libreville

  it('defaults to the last 30 days of Libreville, today included', () => {
    expect(libreville(now)).toBe('2026-11-24');
    expect(statsWindow({}, now)).toEqual({
      from: '2026-10-26',
      to: '2026-11-24',
      days: 30,
      previousFrom: '2026-09-26',
    });
  });

  it('takes the period asked for and the one of the same length before it', () => {
    expect(statsWindow({ from: '2026-11-01', to: '2026-11-10' }, now)).toEqual({
      from: '2026-11-01',
      to: '2026-11-10',
      days: 10,
      previousFrom: '2026-10-22',
    });
  });

  it('refuses reversed, impossible and too long periods in French', () => {
    const reversed = statsPeriodQuerySchema.safeParse({ from: '2026-11-10', to: '2026-11-01' });
    expect(reversed.error?.issues[0]?.message).toBe('La date de fin doit suivre la date de début.');
    const impossible = statsPeriodQuerySchema.safeParse({ from: '2026-02-30' });
    expect(impossible.error?.issues[0]?.message).toBe('Cette date n’existe pas.');
    const long = statsPeriodQuerySchema.safeParse({ from: '2024-01-01', to: '2026-01-01' });
    expect(long.error?.issues[0]?.message).toBe('La période ne peut pas dépasser 366 jours.');
  });
});

describe('dailyCounts and trend', () => {
  const events = { from: sql`events`, at: sql`at` };
  const window = statsWindow({ from: '2026-11-01', to: '2026-11-10' });

  it('counts every day of the period, days without rows as 0, by Libreville day', async () => {
    const series = await dailyCounts(database.db, events, window);
    expect(series).toHaveLength(10);
    expect(series[0]).toEqual({ day: '2026-11-01', count: 2 });
    expect(series[8]).toEqual({ day: '2026-11-09', count: 0 });
    expect(series[9]).toEqual({ day: '2026-11-10', count: 2 });
    expect(series.reduce((sum, d) => sum + d.count, 0)).toBe(4);
  });

  it('applies extra conditions', async () => {
    const series = await dailyCounts(database.db, { ...events, where: sql`kind = 'a'` }, window);
    expect(series[0]?.count).toBe(1);
  });

  it('compares the period with the one just before', async () => {
    expect(await trend(database.db, events, window)).toEqual({ current: 4, previous: 1 });
  });
});
