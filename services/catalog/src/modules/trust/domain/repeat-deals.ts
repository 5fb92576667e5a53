/**
 * Two members who deal again and again count once per window in a member's public standing (the
 * rating's average and count, « transactions conclues »): otherwise two friends could sell each
 * other the same book back and forth for as many five-star ratings as they like. 180 days is
 * a school year and its holidays: a family that buys from the same seller at each rentrée still
 * counts once a year, a burst of deals between two accounts counts once.
 */
export const REPEAT_DEAL_WINDOW_DAYS = 180;
const WINDOW_MS = REPEAT_DEAL_WINDOW_DAYS * 24 * 3600_000;

/**
 * Of each counterpart's deals (by the time they were confirmed), those that count: the first,
 * then the first one at least a window after the last that counted.
 */
export function countedOnce<T extends { otherId: string; at: Date }>(items: T[]): T[] {
  const sorted = [...items].sort((a, b) => a.at.getTime() - b.at.getTime());
  const lastCounted = new Map<string, number>();
  return sorted.filter((item) => {
    const last = lastCounted.get(item.otherId);
    if (last !== undefined && item.at.getTime() - last < WINDOW_MS) return false;
    lastCounted.set(item.otherId, item.at.getTime());
    return true;
  });
}

/** The average (two decimals) and count of the ratings that count. */
export function ratingOfCounted(ratings: Array<{ otherId: string; at: Date; rating: number }>) {
  const counted = countedOnce(ratings);
  if (!counted.length) return { average: 0, count: 0 };
  const sum = counted.reduce((total, r) => total + r.rating, 0);
  return { average: Math.round((sum / counted.length) * 100) / 100, count: counted.length };
}
