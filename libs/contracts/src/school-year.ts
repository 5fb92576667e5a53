// The school year's seasons, without zod: the shell's first pages read them.

/**
 * Where a family stands in the school year: June and July, families sell what their children no
 * longer need (next year's lists are out, the rentrée is near); August to October, they buy
 * before the rentrée empties the bookshops; November to May, the year runs. Libreville's clock
 * (UTC+1, no summer time).
 */
export type SchoolSeason = 'vendre' | 'acheter' | 'garder';
export const schoolSeasonOf = (date: Date = new Date()): SchoolSeason => {
  const month = new Date(date.getTime() + 3600_000).getUTCMonth();
  return month === 5 || month === 6 ? 'vendre' : month >= 7 && month <= 9 ? 'acheter' : 'garder';
};
