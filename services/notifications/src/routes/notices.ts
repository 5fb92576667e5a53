import {
  allNoticesReadResponseSchema,
  NOTICES_PER_PAGE,
  type NotificationPreferences,
  noticeListSchema,
  noticeParamsSchema,
  noticeReadResponseSchema,
  noticesQuerySchema,
  notificationPreferencesRequestSchema,
  notificationPreferencesResponseSchema,
  trustMessages as t,
  unreadNoticesResponseSchema,
} from '@cartable/contracts';
import { type Db, type Guards, notFound } from '@cartable/service-kit';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notices, notificationPreferences } from '../db/schema.ts';

export interface NoticeDeps {
  db: Db;
  guards: Guards;
}

const toDto = (row: typeof notices.$inferSelect) => ({
  id: row.id,
  type: row.type,
  title: row.title,
  body: row.body,
  link: row.link,
  read_at: row.readAt?.toISOString() ?? null,
  created_at: row.createdAt.toISOString(),
});

async function preferencesOf(db: Db, userId: string): Promise<NotificationPreferences> {
  const [row] = await db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, userId));
  return {
    favourite_emails: row?.favouriteEmails ?? true,
    favourite_notices: row?.favouriteNotices ?? true,
    class_list_emails: row?.classListEmails ?? true,
    class_list_notices: row?.classListNotices ?? true,
  };
}

/**
 * The member's notice centre (access 'user'): only their own notices, by the token's subject; a
 * notice of someone else answers 404 like an unknown one. And their notification preferences.
 */
export const noticeRoutes: FastifyPluginAsyncZod<NoticeDeps> = async (app, { db, guards }) => {
  app.addHook('onRequest', guards.requireUser);
  const tags = ['notifications'];
  const security = [{ bearer: [] }];

  app.get(
    '/notifications',
    { schema: { tags, security, querystring: noticesQuerySchema, response: { 200: noticeListSchema } } },
    async (request) => {
      const userId = request.claims!.sub;
      const { page, per_page: perPage = NOTICES_PER_PAGE } = request.query;
      const [rows, [count]] = await Promise.all([
        db
          .select()
          .from(notices)
          .where(eq(notices.userId, userId))
          .orderBy(desc(notices.createdAt), desc(notices.id))
          .limit(perPage)
          .offset((page - 1) * perPage),
        db.select({ total: sql<number>`count(*)::int` }).from(notices).where(eq(notices.userId, userId)),
      ]);
      const total = count?.total ?? 0;
      return {
        data: rows.map(toDto),
        meta: { current_page: page, last_page: Math.max(1, Math.ceil(total / perPage)), total, per_page: perPage },
      };
    },
  );

  app.get(
    '/notifications/unread-count',
    { schema: { tags, security, response: { 200: unreadNoticesResponseSchema } } },
    async (request) => {
      const [row] = await db
        .select({ count: sql<number>`count(*)::int` })
        .from(notices)
        .where(and(eq(notices.userId, request.claims!.sub), isNull(notices.readAt)));
      return { count: row?.count ?? 0 };
    },
  );

  app.post(
    '/notifications/:id/read',
    { schema: { tags, security, params: noticeParamsSchema, response: { 200: noticeReadResponseSchema } } },
    async (request) => {
      const userId = request.claims!.sub;
      const where = and(eq(notices.id, request.params.id), eq(notices.userId, userId));
      // Read once: a second call keeps the first time.
      const [row] = await db
        .update(notices)
        .set({ readAt: sql`coalesce(${notices.readAt}, now())` })
        .where(where)
        .returning();
      if (!row) throw notFound(t.noticeNotFound);
      return { message: t.noticeRead, notice: toDto(row) };
    },
  );

  app.post(
    '/notifications/read-all',
    { schema: { tags, security, response: { 200: allNoticesReadResponseSchema } } },
    async (request) => {
      const rows = await db
        .update(notices)
        .set({ readAt: sql`now()` })
        .where(and(eq(notices.userId, request.claims!.sub), isNull(notices.readAt)))
        .returning({ id: notices.id });
      return { message: t.allRead, updated: rows.length };
    },
  );

  app.get(
    '/notifications/preferences',
    { schema: { tags, security, response: { 200: notificationPreferencesResponseSchema } } },
    async (request) => ({ preferences: await preferencesOf(db, request.claims!.sub) }),
  );

  app.put(
    '/notifications/preferences',
    {
      schema: {
        tags,
        security,
        body: notificationPreferencesRequestSchema,
        response: { 200: notificationPreferencesResponseSchema },
      },
    },
    async (request) => {
      const userId = request.claims!.sub;
      const next = { ...(await preferencesOf(db, userId)), ...request.body };
      const values = {
        favouriteEmails: next.favourite_emails,
        favouriteNotices: next.favourite_notices,
        classListEmails: next.class_list_emails,
        classListNotices: next.class_list_notices,
      };
      await db
        .insert(notificationPreferences)
        .values({ userId, ...values })
        .onConflictDoUpdate({ target: notificationPreferences.userId, set: { ...values, updatedAt: sql`now()` } });
      return { message: t.preferencesSaved, preferences: next };
    },
  );
};
