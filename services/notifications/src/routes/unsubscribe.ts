import {
  type AlertMailKind,
  alertMailKindLabels,
  alertUnsubscribeInfoSchema,
  alertUnsubscribeQuerySchema,
  alertUnsubscribeResponseSchema,
  trustMessages as t,
} from '@cartable/contracts';
import { type Db, notFound } from '@cartable/service-kit';
import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { alertChannels, notificationPreferences } from '../db/schema.ts';
import { channelsOf } from '../sms/alert-channels.ts';

/** The e-mail switch of the kinds of alert a link can stop that have a column of their own. */
const EMAIL_SWITCH = {
  favourites: 'favouriteEmails',
  class_list: 'classListEmails',
} as const satisfies Partial<Record<AlertMailKind, keyof typeof notificationPreferences.$inferSelect>>;

/** The school year's reminders are a choice of alert_channels (« Mon profil »), not a column. */
async function emailsActive(db: Db, row: typeof notificationPreferences.$inferSelect, kind: AlertMailKind) {
  if (kind !== 'school_year') return row[EMAIL_SWITCH[kind]];
  return (await channelsOf(db, row.userId)).school_year.email;
}

async function stopEmails(db: Db, userId: string, kind: AlertMailKind) {
  if (kind !== 'school_year') {
    await db
      .update(notificationPreferences)
      .set({ [EMAIL_SWITCH[kind]]: false, updatedAt: sql`now()` })
      .where(eq(notificationPreferences.userId, userId));
    return;
  }
  const current = (await channelsOf(db, userId)).school_year;
  await db
    .insert(alertChannels)
    .values({ userId, kind, email: false, sms: current.sms, inApp: current.in_app })
    .onConflictDoUpdate({
      target: [alertChannels.userId, alertChannels.kind],
      set: { email: false, updatedAt: sql`now()` },
    });
}

async function preferencesByToken(db: Db, token: string) {
  const [row] = await db
    .select()
    .from(notificationPreferences)
    .where(eq(notificationPreferences.unsubscribeToken, token));
  if (!row) throw notFound(t.unsubscribeInvalid);
  return row;
}

/**
 * One-click unsubscribe of the favourites', « Ma liste »'s and the school year's alert mails (RFC 8058): no login, the
 * token of the member's preferences is the proof. GET says what the link stops (the page asks
 * before it acts, since mail scanners open links); POST stops it, as mail clients' buttons do.
 */
export const unsubscribeRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  // Mail clients POST `List-Unsubscribe=One-Click` as a form: read (bounded) and ignored, the
  // token says it all.
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 4096 }, (_request, _body, done) => done(null, {}));
  const tags = ['notifications'];

  app.get(
    '/notifications/unsubscribe',
    { schema: { tags, querystring: alertUnsubscribeQuerySchema, response: { 200: alertUnsubscribeInfoSchema } } },
    async (request) => {
      const { token, kind } = request.query;
      const row = await preferencesByToken(db, token);
      return { kind, kind_label: alertMailKindLabels[kind], active: await emailsActive(db, row, kind) };
    },
  );

  app.post(
    '/notifications/unsubscribe',
    { schema: { tags, querystring: alertUnsubscribeQuerySchema, response: { 200: alertUnsubscribeResponseSchema } } },
    async (request) => {
      const { token, kind } = request.query;
      const row = await preferencesByToken(db, token);
      await stopEmails(db, row.userId, kind);
      return { message: t.unsubscribed, kind, kind_label: alertMailKindLabels[kind], active: false };
    },
  );
};
