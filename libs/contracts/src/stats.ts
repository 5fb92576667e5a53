import { z } from 'zod';

/**
 * The back office's figures (dashboard and Rapports, SPEC section 2; permission reports.view).
 * Each service answers for the data it owns at /admin/stats/{members,catalog,messaging,moderation};
 * the admin remote puts them side by side. Days are Libreville's (Africa/Libreville, UTC+1).
 */
export const STATS_TIME_ZONE = 'Africa/Libreville';
/** Longest period a report may cover, in days (a year and a leap day). */
export const STATS_MAX_DAYS = 366;
/** Default period: the last 30 days, today included. */
export const STATS_DEFAULT_DAYS = 30;

const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'La date doit être au format AAAA-MM-JJ.' })
  .refine(
    (value) =>
      !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
    {
      message: 'Cette date n’existe pas.',
    },
  );

const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / 86_400_000;

export const statsPeriodQuerySchema = z
  .object({ from: isoDay.optional(), to: isoDay.optional() })
  .refine((q) => !q.from || !q.to || dayNumber(q.from) <= dayNumber(q.to), {
    path: ['to'],
    message: 'La date de fin doit suivre la date de début.',
  })
  .refine((q) => !q.from || !q.to || dayNumber(q.to) - dayNumber(q.from) < STATS_MAX_DAYS, {
    path: ['from'],
    message: `La période ne peut pas dépasser ${STATS_MAX_DAYS} jours.`,
  });
export type StatsPeriodQuery = z.infer<typeof statsPeriodQuerySchema>;

/** One count per day of the period, days without any included (count 0). */
export const dailySeriesSchema = z.array(z.object({ day: z.string(), count: z.number().int() }));
export type DailySeries = z.infer<typeof dailySeriesSchema>;

export const statsPeriodSchema = z.object({ from: z.string(), to: z.string(), days: z.number().int() });
export type StatsPeriod = z.infer<typeof statsPeriodSchema>;

/** A count now and over the period of the same length just before: the trend. */
export const trendSchema = z.object({ current: z.number().int(), previous: z.number().int() });
export type Trend = z.infer<typeof trendSchema>;

const rankedSchema = z.array(z.object({ id: z.number().int(), name: z.string(), count: z.number().int() }));

export const memberStatsSchema = z.object({
  period: statsPeriodSchema,
  total: z.number().int(),
  verified: z.number().int(),
  admins: z.number().int(),
  /** Sign-ups over the last 7 days and the 7 before. */
  this_week: trendSchema,
  /** Sign-ups over the period and the period before. */
  signups: trendSchema,
  signups_per_day: dailySeriesSchema,
});
export type MemberStats = z.infer<typeof memberStatsSchema>;

export const catalogStatsSchema = z.object({
  period: statsPeriodSchema,
  total: z.number().int(),
  by_status: z.object({ disponible: z.number().int(), réservé: z.number().int(), vendu: z.number().int() }),
  this_week: trendSchema,
  listings: trendSchema,
  new_per_day: dailySeriesSchema,
  /** Listings not sold, by city and by level (a level is a category between a cycle and its subjects). */
  top_cities: rankedSchema,
  top_levels: rankedSchema,
  /** Listings not sold per level and subject, most first. */
  by_level_subject: z.array(
    z.object({
      level_id: z.number().int(),
      level: z.string(),
      subject_id: z.number().int(),
      subject: z.string(),
      count: z.number().int(),
    }),
  ),
  /** What visitors searched for during the period and did not find, most asked first. */
  search_misses: z.array(
    z.object({ query: z.string(), category: z.string().nullable(), searches: z.number().int(), last_seen: z.string() }),
  ),
  /**
   * What the community lacks before the rentrée: books of the latest official class lists that
   * families look for (missing from saved lists, exchange wishes, searches that found nothing
   * during the period) against the listings available, most wanted and least offered first.
   */
  shortages: z
    .array(
      z.object({
        item_id: z.number().int(),
        title: z.string(),
        level: z.string(),
        school_year: z.string(),
        wanted: z.number().int(),
        searched: z.number().int(),
        available: z.number().int(),
      }),
    )
    .default([]),
});
export type CatalogStats = z.infer<typeof catalogStatsSchema>;

export const messagingStatsSchema = z.object({
  period: statsPeriodSchema,
  conversations: trendSchema,
  messages: trendSchema,
  conversations_per_day: dailySeriesSchema,
  messages_per_day: dailySeriesSchema,
});
export type MessagingStats = z.infer<typeof messagingStatsSchema>;

export const moderationStatsSchema = z.object({
  period: statsPeriodSchema,
  pending_comments: z.number().int(),
  new_contacts: z.number().int(),
  /** Reports (« Signalements ») not handled yet. */
  open_reports: z.number().int(),
  comments: trendSchema,
  contacts: trendSchema,
  comments_per_day: dailySeriesSchema,
  contacts_per_day: dailySeriesSchema,
});
export type ModerationStats = z.infer<typeof moderationStatsSchema>;
