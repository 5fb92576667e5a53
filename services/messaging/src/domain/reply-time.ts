import { REPLY_TIME_DAYS, REPLY_TIME_MIN_SAMPLES, replyTimeBucket, replyTimeLabels } from '@cartable/contracts';
import type { Db } from '@cartable/service-kit';
import { replyDelays } from '../db/queries.ts';

/**
 * A member's typical reply time: in each conversation where the other member wrote first within
 * the last 90 days, the delay between that first message and the member's first answer after
 * it; the median of those delays. Conversations the member never answered are left out (no
 * delay to measure); too few answers (under REPLY_TIME_MIN_SAMPLES) and nothing is said.
 */
export async function replyTime(db: Db, userId: string, now = new Date()) {
  const { median, samples } = await replyDelays(db, userId, new Date(now.getTime() - REPLY_TIME_DAYS * 86_400_000));
  if (samples < REPLY_TIME_MIN_SAMPLES || median === null)
    return { bucket: null, label: null, median_seconds: null, samples };
  const bucket = replyTimeBucket(median);
  return { bucket, label: replyTimeLabels[bucket], median_seconds: median, samples };
}
