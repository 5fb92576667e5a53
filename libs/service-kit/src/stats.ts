import {
  type DailySeries,
  STATS_DEFAULT_DAYS,
  STATS_TIME_ZONE,
  type StatsPeriodQuery,
  type Trend,
} from '@cartable/contracts';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from './db/database.ts';

/**
 * Counting rows by day for the back office's figures (libs/contracts/src/stats.ts), the same way
 * in every service: days are Libreville's, days without rows count 0, and a trend compares the
 * period with the one of the same length just before.
 */

export interface StatsWindow {
  from: string;
  to: string;
  days: number;
  /** First day of the period of the same length just before. */
  previousFrom: string;
}

const DAY_MS = 86_400_000;
const toDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** Today's date in Libreville. */
/** Built once: a formatter costs a millisecond to make, and days are read on hot paths. */
const librevilleDay = new Intl.DateTimeFormat('en-CA', { timeZone: STATS_TIME_ZONE });
export function libreville(now: Date = new Date()): string {
  return librevilleDay.format(now);
}

/** The period asked for, or the last 30 days (today included); the schema has checked bounds. */
export function statsWindow(query: StatsPeriodQuery, now: Date = new Date()): StatsWindow {
  const to = query.to ?? (query.from ? toDay(Math.max(dayMs(query.from), dayMs(libreville(now)))) : libreville(now));
  const from = query.from ?? toDay(dayMs(to) - (STATS_DEFAULT_DAYS - 1) * DAY_MS);
  const days = Math.round((dayMs(to) - dayMs(from)) / DAY_MS) + 1;
  return { from, to, days, previousFrom: toDay(dayMs(from) - days * DAY_MS) };
}

/** The window's public shape. */
export const periodOf = (window: StatsWindow) => ({ from: window.from, to: window.to, days: window.days });

/** Midnight of a Libreville day, as a timestamptz expression. */
const startOf = (day: string) => sql`(${day}::date::timestamp at time zone ${STATS_TIME_ZONE})`;
const endOf = (day: string) => sql`((${day}::date + 1)::timestamp at time zone ${STATS_TIME_ZONE})`;

export interface CountedRows {
  /** The table (or a subquery with an alias), e.g. sql`users`. */
  from: SQL;
  /** The timestamptz column that dates a row, e.g. sql`created_at`. */
  at: SQL;
  /** Further conditions. */
  where?: SQL;
}

const rowsOf = (db: Db, query: SQL) =>
  db.execute(query).then((result) => (result as unknown as { rows: Array<Record<string, unknown>> }).rows);

/** Rows per day over the window, one entry a day. */
export async function dailyCounts(db: Db, rows: CountedRows, window: StatsWindow): Promise<DailySeries> {
  const extra = rows.where ? sql` and (${rows.where})` : sql``;
  const found = await rowsOf(
    db,
    sql`select to_char(d, 'YYYY-MM-DD') as day, coalesce(c.n, 0)::int as count
        from generate_series(${window.from}::date, ${window.to}::date, interval '1 day') as d
        left join (
          select (${rows.at} at time zone ${STATS_TIME_ZONE})::date as day, count(*)::int as n
          from ${rows.from}
          where ${rows.at} >= ${startOf(window.from)} and ${rows.at} < ${endOf(window.to)}${extra}
          group by 1
        ) as c on c.day = d::date
        order by d`,
  );
  return found.map((r) => ({ day: String(r.day), count: Number(r.count) }));
}

/** Rows of the window and of the window of the same length before it, in one read. */
export async function trend(
  db: Db,
  rows: CountedRows,
  window: Pick<StatsWindow, 'from' | 'to' | 'previousFrom'>,
): Promise<Trend> {
  const extra = rows.where ? sql` and (${rows.where})` : sql``;
  const [found] = await rowsOf(
    db,
    sql`select count(*) filter (where ${rows.at} >= ${startOf(window.from)})::int as current,
               count(*) filter (where ${rows.at} < ${startOf(window.from)})::int as previous
        from ${rows.from}
        where ${rows.at} >= ${startOf(window.previousFrom)} and ${rows.at} < ${endOf(window.to)}${extra}`,
  );
  return { current: Number(found?.current ?? 0), previous: Number(found?.previous ?? 0) };
}

/** The last 7 days (today included) against the 7 before, whatever the period shown. */
export function lastWeek(now: Date = new Date()): Pick<StatsWindow, 'from' | 'to' | 'previousFrom'> {
  const to = libreville(now);
  return { to, from: toDay(dayMs(to) - 6 * DAY_MS), previousFrom: toDay(dayMs(to) - 13 * DAY_MS) };
}
