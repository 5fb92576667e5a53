import { schoolSeasonOf } from '@cartable/contracts';
import type { Db } from '@cartable/service-kit';
import { and, asc, eq, isNull, notExists, sql } from 'drizzle-orm';
import { alertChannels, members, notices, schoolYearReminders } from '../db/schema.ts';
import { unsubscribeTokensOf } from '../db/unsubscribe-tokens.ts';
import { recordMail } from '../queue/outgoing-mails.ts';
import { recordAlertSms } from '../sms/outgoing-sms.ts';
import { type ReminderSeason, schoolYearReminderText } from '../templates/school-year.ts';

/** Members reminded per transaction: a run over every member never holds one huge transaction. */
export const SCHOOL_YEAR_REMINDER_BATCH = 500;

/** Libreville is UTC+1 all year: the year a season falls in there. */
const librevilleYear = (now: Date) => new Date(now.getTime() + 3600_000).getUTCFullYear();

/**
 * One batch: the next active members not yet reminded of this season this year. The reminder's
 * row is inserted first (its primary key is member, season and year) and only the rows this
 * transaction inserted get a notice, an e-mail and an SMS, written in the same transaction: a
 * replica running at the same moment waits on the same keys and inserts none of them, and a run
 * after a crash finds the committed ones. Answers how many members were reminded.
 */
async function remindBatch(db: Db, season: ReminderSeason, year: number, now: Date, limit: number) {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: members.id })
      .from(members)
      .where(
        and(
          isNull(members.deactivatedAt),
          notExists(
            tx
              .select({ one: sql`1` })
              .from(schoolYearReminders)
              .where(
                and(
                  eq(schoolYearReminders.userId, members.id),
                  eq(schoolYearReminders.season, season),
                  eq(schoolYearReminders.year, year),
                ),
              ),
          ),
        ),
      )
      .orderBy(asc(members.id))
      .limit(limit);
    if (!due.length) return { reminded: 0, done: true };
    const inserted = await tx
      .insert(schoolYearReminders)
      .values(due.map(({ id }) => ({ userId: id, season, year, sentAt: now })))
      .onConflictDoNothing()
      .returning({ userId: schoolYearReminders.userId });
    const text = schoolYearReminderText(season);
    for (const { userId } of inserted) {
      const [member] = await tx
        .select({
          name: members.name,
          email: members.email,
          // No choice yet: in the notice centre only (defaultAlertChannels).
          emails: sql<boolean>`coalesce(${alertChannels.email}, false)`,
          inApp: sql<boolean>`coalesce(${alertChannels.inApp}, true)`,
        })
        .from(members)
        .leftJoin(alertChannels, and(eq(alertChannels.userId, members.id), eq(alertChannels.kind, 'school_year')))
        .where(eq(members.id, userId));
      if (!member) continue;
      const key = `school-year-${season}-${year}-${userId}`;
      if (member.inApp)
        await tx
          .insert(notices)
          .values({
            key,
            userId,
            type: `school_year.${season}`,
            title: text.title,
            body: text.sentence,
            link: text.path,
            createdAt: now,
          })
          .onConflictDoNothing();
      // The SMS's choice, verified number, STOP, daily cap and quiet hours are the other alerts'.
      await recordAlertSms(
        tx,
        `${key}-sms`,
        { userId, kind: 'school_year', message: { template: 'school-year-reminder', data: { season } } },
        now,
      );
      if (member.emails)
        await recordMail(tx, key, {
          template: 'school-year-reminder',
          to: member.email,
          data: { name: member.name, season, unsubscribeToken: (await unsubscribeTokensOf(tx, [userId])).get(userId) },
        });
    }
    return { reminded: inserted.length, done: due.length < limit };
  });
}

/**
 * The school year's reminders at `now` (its season on Libreville's clock): in « vendre » (June,
 * July) and « acheter » (August to October), every active member not yet reminded of the season
 * this year is, by the channels they chose for `school_year`; in « garder » nothing. Answers how
 * many members were reminded (the caller queues the mails and SMS written).
 */
export async function sendSchoolYearReminders(
  db: Db,
  now = new Date(),
  batchSize = SCHOOL_YEAR_REMINDER_BATCH,
): Promise<number> {
  const season = schoolSeasonOf(now);
  if (season === 'garder') return 0;
  const year = librevilleYear(now);
  let reminded = 0;
  for (;;) {
    const batch = await remindBatch(db, season, year, now, batchSize);
    reminded += batch.reminded;
    if (batch.done) return reminded;
  }
}
