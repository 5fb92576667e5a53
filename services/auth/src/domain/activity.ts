import type { Db } from '@cartable/service-kit';
import * as queries from '../db/queries.ts';

/** A line of the member's own recent activity (dashboard), in the transaction of what it tells. */
export const recordActivity = (tx: Db, userId: string, type: string, title: string, link: string | null = null) =>
  queries.insertActivity(tx, { userId, type, title, link });
