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
import { notificationPreferences } from '../db/schema.ts';

/** The e-mail switch of each kind of alert a link can stop. */
const EMAIL_SWITCH = {
  favourites: 'favouriteEmails',
  class_list: 'classListEmails',
} as const satisfies Record<AlertMailKind, keyof typeof notificationPreferences.$inferSelect>;

async function preferencesByToken(db: Db, token: string) {
  const [row] = await db
    .select()
    .from(notificationPreferences)
    .where(eq(notificationPreferences.unsubscribeToken, token));
  if (!row) throw notFound(t.unsubscribeInvalid);
  return row;
}

/**
 * One-click unsubscribe of the favourites' and « Ma liste »'s alert mails (RFC 8058): no login, the
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
      return { kind, kind_label: alertMailKindLabels[kind], active: row[EMAIL_SWITCH[kind]] };
    },
  );

  app.post(
    '/notifications/unsubscribe',
    { schema: { tags, querystring: alertUnsubscribeQuerySchema, response: { 200: alertUnsubscribeResponseSchema } } },
    async (request) => {
      const { token, kind } = request.query;
      const row = await preferencesByToken(db, token);
      await db
        .update(notificationPreferences)
        .set({ [EMAIL_SWITCH[kind]]: false, updatedAt: sql`now()` })
        .where(eq(notificationPreferences.userId, row.userId));
      return { message: t.unsubscribed, kind, kind_label: alertMailKindLabels[kind], active: false };
    },
  );
};
