import { periodOf, type StatsWindow } from '@cartable/service-kit';
import * as queries from '../db/queries.ts';
import type { ModerationDeps } from '../deps.ts';

/** What waits for the back office, and what came in over the period, per day. */
export async function moderationFigures({ uow }: Pick<ModerationDeps, 'uow'>, window: StatsWindow) {
  const figures = await queries.moderationFigures(uow.db, window);
  return {
    period: periodOf(window),
    pending_comments: figures.pending_comments,
    new_contacts: figures.new_contacts,
    open_reports: figures.open_reports,
    comments: figures.commentTrend,
    contacts: figures.contactTrend,
    comments_per_day: figures.commentsPerDay,
    contacts_per_day: figures.contactsPerDay,
  };
}
