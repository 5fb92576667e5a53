import { lastWeek, periodOf, type StatsWindow } from '@cartable/service-kit';
import * as queries from '../db/queries.ts';
import type { AuthDeps } from '../deps.ts';

/** Members' figures for the back office's dashboard and reports: totals, sign-ups and their trend. */
export async function memberFigures({ uow }: Pick<AuthDeps, 'uow'>, window: StatsWindow) {
  const db = uow.db;
  const [totals, thisWeek, inPeriod, perDay] = await Promise.all([
    queries.memberTotals(db),
    queries.signupTrend(db, lastWeek()),
    queries.signupTrend(db, window),
    queries.signupsPerDay(db, window),
  ]);
  return {
    period: periodOf(window),
    total: totals.total,
    verified: totals.verified,
    admins: totals.admins,
    this_week: thisWeek,
    signups: inPeriod,
    signups_per_day: perDay,
  };
}
