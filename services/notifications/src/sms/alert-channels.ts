import {
  type AlertChannelName,
  type AlertChannels,
  type AlertChannelsRequest,
  type AlertKind,
  alertKinds,
  defaultAlertChannels,
  fixedAlertChannels,
  alertChannelMessages as m,
  SMS_ALERTS_PER_DAY,
} from '@cartable/contracts';
import { type Db, unprocessable } from '@cartable/service-kit';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { alertChannels, alertPhones, notificationPreferences } from '../db/schema.ts';
import { phoneOf } from './alert-phone.ts';
import { smsQuietHours } from './outgoing-sms.ts';

const hourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

/**
 * Per kind of alert, the channels a member chose. « Ma liste »'s e-mail and in-app switches are
 * the older columns of notification_preferences (GET/PUT /notifications/preferences keep working
 * on them); everything else is a row of alert_channels. No row: the kind's defaults (e-mail and
 * in-app, no SMS; the school year's reminders in-app only).
 */
export async function channelsOf(db: Db, userId: string): Promise<AlertChannels> {
  const [rows, [legacy]] = await Promise.all([
    db.select().from(alertChannels).where(eq(alertChannels.userId, userId)),
    db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, userId)),
  ]);
  const byKind = new Map(rows.map((r) => [r.kind, r]));
  const channels = {} as AlertChannels;
  for (const kind of alertKinds) {
    const row = byKind.get(kind);
    const byDefault = defaultAlertChannels(kind);
    channels[kind] = {
      email: row?.email ?? byDefault.email,
      sms: row?.sms ?? byDefault.sms,
      in_app: row?.inApp ?? byDefault.in_app,
    };
  }
  channels.class_list.email = legacy?.classListEmails ?? true;
  channels.class_list.in_app = legacy?.classListNotices ?? true;
  for (const [kind, fixed] of Object.entries(fixedAlertChannels) as Array<[AlertKind, AlertChannelName[]]>)
    for (const channel of fixed) channels[kind][channel] = true;
  return channels;
}

export async function channelSettings(db: Db, userId: string) {
  return {
    channels: await channelsOf(db, userId),
    phone: await phoneOf(db, userId),
    sms_per_day: SMS_ALERTS_PER_DAY,
    quiet_hours: smsQuietHours.current
      ? { from: hourLabel(smsQuietHours.current.from), to: hourLabel(smsQuietHours.current.to) }
      : null,
  };
}

/** Saves the kinds and channels sent; SMS can be chosen only with a verified number that did not say STOP. */
export async function saveChannels(db: Db, userId: string, change: AlertChannelsRequest) {
  const current = await channelsOf(db, userId);
  const kinds = Object.keys(change) as AlertKind[];
  const wantsSms = kinds.filter((k) => change[k]?.sms === true && !current[k].sms);
  if (wantsSms.length) {
    const [phone] = await db
      .select({ userId: alertPhones.userId })
      .from(alertPhones)
      .where(and(eq(alertPhones.userId, userId), isNull(alertPhones.stoppedAt)));
    if (!phone) throw unprocessable(Object.fromEntries(wantsSms.map((k) => [`${k}.sms`, [m.noPhone]])), m.noPhone);
  }
  await db.transaction(async (tx) => {
    for (const kind of kinds) {
      const next = { ...current[kind], ...change[kind] };
      const values = { email: next.email, sms: next.sms, inApp: next.in_app };
      await tx
        .insert(alertChannels)
        .values({ userId, kind, ...values })
        .onConflictDoUpdate({
          target: [alertChannels.userId, alertChannels.kind],
          set: { ...values, updatedAt: sql`now()` },
        });
      if (kind === 'class_list') {
        const legacy = { classListEmails: next.email, classListNotices: next.in_app };
        await tx
          .insert(notificationPreferences)
          .values({ userId, ...legacy })
          .onConflictDoUpdate({ target: notificationPreferences.userId, set: { ...legacy, updatedAt: sql`now()` } });
      }
    }
  });
  return { message: m.channelsSaved, ...(await channelSettings(db, userId)) };
}
