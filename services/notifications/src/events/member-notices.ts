import type { Db } from '@cartable/service-kit';
import { and, eq, gt, sql } from 'drizzle-orm';
import { members, notices, notificationPreferences, outgoingMails } from '../db/schema.ts';

/**
 * At most this many e-mails of one « Ma liste » kind per member in 24 hours: at the rentrée a saved
 * 6e list can match dozens of new listings a day, and an administrator withdrawing books one by one
 * changes it as often. Notices are not capped; the member sees them all in the bell.
 */
export const CLASS_LIST_MAILS_PER_DAY = 5;

/** A notice in a member's bell, once per event: keyed by the event and the member, so a redelivery adds nothing. */
export function recordNotice(
  tx: Db,
  eventId: string,
  notice: { userId: string; type: string; title: string; body: string; link: string | null },
) {
  return tx
    .insert(notices)
    .values({ key: `${eventId}:${notice.userId}`, ...notice })
    .onConflictDoNothing();
}

/** The member with their « Ma liste » switches (e-mail, notices); no row of preferences: both on. */
export async function classListMemberOf(tx: Db, userId: string) {
  const [member] = await tx
    .select({
      name: members.name,
      email: members.email,
      emails: sql<boolean>`coalesce(${notificationPreferences.classListEmails}, true)`,
      inApp: sql<boolean>`coalesce(${notificationPreferences.classListNotices}, true)`,
    })
    .from(members)
    .leftJoin(notificationPreferences, eq(notificationPreferences.userId, members.id))
    .where(eq(members.id, userId));
  return member;
}

/** How many mails of this template an address was written in the last 24 hours (a daily cap counts them). */
export async function mailsOfLastDay(tx: Db, email: string, template: string) {
  const [sent] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(outgoingMails)
    .where(
      and(
        eq(outgoingMails.recipient, email),
        eq(outgoingMails.template, template),
        gt(outgoingMails.createdAt, sql`now() - interval '24 hours'`),
      ),
    );
  return sent?.n ?? 0;
}
