import { randomUUID } from 'node:crypto';
import {
  messageResponseSchema,
  messages,
  passwordOnlySchema,
  profileResponseSchema,
  profileUpdateResponseSchema,
  profileUpdateSchema,
  publicProfileParamsSchema,
  publicProfileResponseSchema,
  recentActivityQuerySchema,
  recentActivityResponseSchema,
  userStatsResponseSchema,
} from '@cartable/contracts';
import { conflict, HttpError, isUniqueViolation, notFound, recordEvent, unprocessable } from '@cartable/service-kit';
import { ImageRejected } from '@cartable/service-kit/images';
import multipart from '@fastify/multipart';
import { and, desc, eq, ne, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { userActivities, userStats, users } from '../db/schema.ts';
import type { AuthDeps } from '../deps.ts';
import { recordActivity, recordUserUpdated } from '../domain/account-events.ts';
import { verifyPassword } from '../domain/passwords.ts';
import { processProfileImage } from '../domain/profile-image.ts';
import { recordDeletedAccount } from '../domain/revocation.ts';
import { recoveryCodesLeft } from '../domain/two-factor.ts';
import { findUserById, toUserDto, type UserRow } from '../domain/users.ts';

const m = messages.auth;
const IMAGE_PREFIX = 'profiles/';

const tags = ['profile'];
const security = [{ bearer: [] }];

/** /user/profile (+ image), /user/account, /user/stats, /user/recent-activity, /users/{id}. */
export const profileRoutes: FastifyPluginAsyncZod<AuthDeps> = async (app, deps) => {
  const { db, guards, relay, storage, config, revocation } = deps;
  await app.register(multipart, {
    limits: { fileSize: config.PROFILE_IMAGE_MAX_BYTES, files: 1, fields: 5 },
  });

  async function currentRow(userId: string): Promise<UserRow> {
    const row = await findUserById(db, userId);
    if (!row) throw new HttpError(401, messages.tokenInvalid);
    return row;
  }

  async function profileOf(row: UserRow) {
    return {
      ...(await toUserDto(db, row)),
      phone: row.phone,
      bio: row.bio,
      show_email: row.showEmail,
      show_phone: row.showPhone,
      two_factor_enabled: row.twoFactorEnabledAt !== null,
      recovery_codes_left: row.twoFactorEnabledAt ? await recoveryCodesLeft(db, row.id) : 0,
    };
  }

  /** Saves profile changes and tells the other services, in one transaction. */
  async function saveProfile(userId: string, changes: Partial<typeof users.$inferInsert>, activity: string) {
    const row = await db.transaction(async (tx) => {
      const [saved] = await tx
        .update(users)
        .set({ ...changes, updatedAt: new Date() })
        .where(eq(users.id, userId))
        .returning();
      if (!saved) throw new HttpError(401, messages.tokenInvalid);
      await recordUserUpdated(tx, saved);
      await recordActivity(tx, userId, 'profile.updated', activity, '/profile');
      return saved;
    });
    relay.kick();
    return row;
  }

  const profileResponse = profileUpdateResponseSchema;
  const authed = { preHandler: guards.requireUser };

  app.get(
    '/user/profile',
    { ...authed, schema: { tags, security, response: { 200: profileResponseSchema } } },
    async (request) => ({
      profile: await profileOf(await currentRow(request.claims!.sub)),
    }),
  );

  app.put(
    '/user/profile',
    { ...authed, schema: { tags, security, body: profileUpdateSchema, response: { 200: profileResponse } } },
    async (request) => {
      const userId = request.claims!.sub;
      const body = request.body;
      const [taken] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(sql`lower(${users.username}) = ${body.username.toLowerCase()}`, ne(users.id, userId)))
        .limit(1);
      if (taken) throw conflict(m.usernameTaken(body.username), { username: [m.usernameTaken(body.username)] });
      try {
        const row = await saveProfile(
          userId,
          {
            name: body.name,
            username: body.username,
            phone: body.phone ?? null,
            bio: body.bio?.trim() ? body.bio.trim() : null,
            showEmail: body.show_email,
            showPhone: body.show_phone,
            countryId: body.country_id,
            cityId: body.city_id,
          },
          'Profil mis à jour',
        );
        return { message: m.profileUpdated, profile: await profileOf(row) };
      } catch (err) {
        if (isUniqueViolation(err)) {
          throw conflict(m.usernameTaken(body.username), { username: [m.usernameTaken(body.username)] });
        }
        throw err;
      }
    },
  );

  // Multipart: the file `profile_image`.
  app.post(
    '/user/profile/image',
    { ...authed, schema: { tags, security, response: { 200: profileResponse } } },
    async (request) => {
      const userId = request.claims!.sub;
      const invalid = (message: string) => unprocessable({ profile_image: [message] }, message);
      if (!request.isMultipart()) throw invalid('Envoyez une image dans le champ profile_image.');
      const file = await request.file();
      if (file?.fieldname !== 'profile_image') throw invalid('Envoyez une image dans le champ profile_image.');
      const bytes = await file.toBuffer().catch(() => null);
      const maxMb = Math.round(config.PROFILE_IMAGE_MAX_BYTES / 1024 / 1024);
      if (!bytes || file.file.truncated) throw invalid(`L'image ne doit pas dépasser ${maxMb} Mo.`);
      let image: Buffer;
      try {
        image = await processProfileImage(bytes);
      } catch (err) {
        if (err instanceof ImageRejected) throw invalid(err.message);
        throw err;
      }
      const previous = (await currentRow(userId)).profileImage;
      const key = `${IMAGE_PREFIX}${userId}/${randomUUID()}.webp`;
      await storage.put(key, image, 'image/webp');
      const row = await saveProfile(userId, { profileImage: storage.url(key) }, 'Photo de profil modifiée');
      if (previous?.startsWith('/storage/')) await storage.delete(previous.slice('/storage/'.length)).catch(() => {});
      return { message: 'Votre photo de profil a été mise à jour.', profile: await profileOf(row) };
    },
  );

  app.delete(
    '/user/profile/image',
    { ...authed, schema: { tags, security, response: { 200: profileResponse } } },
    async (request) => {
      const userId = request.claims!.sub;
      const previous = (await currentRow(userId)).profileImage;
      const row = await saveProfile(userId, { profileImage: null }, 'Photo de profil supprimée');
      if (previous?.startsWith('/storage/')) await storage.delete(previous.slice('/storage/'.length)).catch(() => {});
      return { message: 'Votre photo de profil a été supprimée.', profile: await profileOf(row) };
    },
  );

  app.delete(
    '/user/account',
    { ...authed, schema: { tags, security, body: passwordOnlySchema, response: { 200: messageResponseSchema } } },
    async (request) => {
      const row = await currentRow(request.claims!.sub);
      if (!(await verifyPassword(row.passwordHash, request.body.password))) {
        throw unprocessable({ password: [m.passwordWrong] }, m.passwordWrong);
      }
      await db.transaction(async (tx) => {
        // The user row goes: every token of theirs is refused by this one until they expire.
        await recordDeletedAccount(tx, row.id, config.ACCESS_TOKEN_TTL_SECONDS);
        const [gone] = await tx.delete(users).where(eq(users.id, row.id)).returning({ version: users.version });
        await recordEvent(tx, 'auth.user.deleted', {
          user_id: row.id,
          name: row.name,
          email: row.email,
          deleted_at: new Date().toISOString(),
          version: (gone?.version ?? row.version) + 1,
        });
      });
      relay.kick();
      await revocation.accountDeleted(row.id);
      if (row.profileImage?.startsWith('/storage/')) {
        await storage.delete(row.profileImage.slice('/storage/'.length)).catch(() => {});
      }
      return { message: m.accountDeleted };
    },
  );

  app.get(
    '/user/stats',
    { ...authed, schema: { tags, security, response: { 200: userStatsResponseSchema } } },
    async (request) => {
      const [row] = await db.select().from(userStats).where(eq(userStats.userId, request.claims!.sub));
      return {
        stats: {
          books_total: row?.booksTotal ?? 0,
          books_available: row?.booksAvailable ?? 0,
          books_sold: row?.booksSold ?? 0,
          conversations: row?.conversations ?? 0,
          messages_received: row?.messagesReceived ?? 0,
          comments: row?.comments ?? 0,
        },
      };
    },
  );

  app.get(
    '/user/recent-activity',
    {
      ...authed,
      schema: {
        tags,
        security,
        querystring: recentActivityQuerySchema,
        response: { 200: recentActivityResponseSchema },
      },
    },
    async (request) => {
      const rows = await db
        .select()
        .from(userActivities)
        .where(eq(userActivities.userId, request.claims!.sub))
        .orderBy(desc(userActivities.occurredAt))
        .limit(request.query.limit);
      return {
        activities: rows.map((r) => ({
          id: r.id,
          type: r.type,
          title: r.title,
          link: r.link,
          occurred_at: r.occurredAt.toISOString(),
        })),
      };
    },
  );

  app.get(
    '/users/:userId',
    {
      schema: { tags, params: publicProfileParamsSchema, response: { 200: publicProfileResponseSchema } },
    },
    async (request) => {
      const row = await findUserById(db, request.params.userId);
      // A deactivated member's public page is gone like their listings, until reactivation.
      if (!row || row.deactivatedAt) throw notFound(m.userNotFound);
      return {
        user: {
          id: row.id,
          name: row.name,
          username: row.username,
          profile_image: row.profileImage,
          bio: row.bio,
          country_id: row.countryId,
          city_id: row.cityId,
          created_at: row.createdAt.toISOString(),
          email: row.showEmail ? row.email : null,
          phone: row.showPhone ? row.phone : null,
        },
      };
    },
  );
};
