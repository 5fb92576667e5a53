import {
  emailRequestSchema,
  emailVerifiedResponseSchema,
  messageResponseSchema,
  messages,
  registerRequestSchema,
  registerResponseSchema,
  tokenEmailSchema,
  verifyEmailResponseSchema,
} from '@cartable/contracts';
import { conflict, type FieldErrors, HttpError, isUniqueViolation, recordEvent } from '@cartable/service-kit';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { users } from '../db/schema.ts';
import type { AuthDeps } from '../deps.ts';
import { requestVerificationEmail } from '../domain/account-events.ts';
import { consumeAccountToken, issueAccountToken } from '../domain/account-tokens.ts';
import { refuseCommonPassword } from '../domain/common-passwords.ts';
import { hashPassword } from '../domain/passwords.ts';
import { findUserByEmail, toUserDto } from '../domain/users.ts';

const m = messages.auth;
const messageSchema = messageResponseSchema;
const tags = ['registration'];

/** POST /register, /verify-email, /resend-verification-email, /check-email-verification. */
export const registrationRoutes: FastifyPluginAsyncZod<AuthDeps> = async (app, deps) => {
  const { db, config, relay } = deps;
  const verificationTtlMinutes = config.EMAIL_VERIFICATION_TTL_HOURS * 60;

  async function takenFields(email: string, username: string): Promise<FieldErrors> {
    const errors: FieldErrors = {};
    if (await findUserByEmail(db, email)) errors.email = [m.emailTaken(email)];
    const [byUsername] = await db
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.username}) = ${username.toLowerCase()}`)
      .limit(1);
    if (byUsername) errors.username = [m.usernameTaken(username)];
    return errors;
  }

  const refuseTaken = (taken: FieldErrors) =>
    conflict(taken.email?.[0] ?? taken.username?.[0] ?? messages.conflict, taken);

  app.post(
    '/register',
    { schema: { tags, body: registerRequestSchema, response: { 201: registerResponseSchema } } },
    async (request, reply) => {
      const body = request.body;
      const taken = await takenFields(body.email, body.username);
      if (Object.keys(taken).length) throw refuseTaken(taken);
      refuseCommonPassword(body.password);
      const passwordHash = await hashPassword(body.password);
      try {
        const user = await db.transaction(async (tx) => {
          const [row] = await tx
            .insert(users)
            .values({
              name: body.name,
              email: body.email,
              username: body.username,
              passwordHash,
              countryId: body.country_id,
              cityId: body.city_id,
            })
            .returning();
          if (!row) throw new Error('insert returned nothing');
          const verification = await issueAccountToken(tx, row.id, 'verify_email', verificationTtlMinutes);
          await recordEvent(tx, 'auth.user.registered', {
            user_id: row.id,
            name: row.name,
            username: row.username,
            email: row.email,
            country_id: row.countryId,
            city_id: row.cityId,
            profile_image: row.profileImage,
            created_at: row.createdAt.toISOString(),
            version: row.version,
            verification: { token: verification.token, expires_at: verification.expiresAt.toISOString() },
          });
          return toUserDto(tx, row);
        });
        relay.kick();
        return reply.status(201).send({ message: m.registered, user });
      } catch (err) {
        // Two sign-ups with the same address at the same moment: the unique index decides.
        if (isUniqueViolation(err)) throw refuseTaken(await takenFields(body.email, body.username));
        throw err;
      }
    },
  );

  app.post(
    '/verify-email',
    {
      schema: { tags, body: tokenEmailSchema, response: { 200: verifyEmailResponseSchema } },
    },
    async (request) => {
      const { token, email } = request.body;
      const verified = await db.transaction(async (tx) => {
        const userId = await consumeAccountToken(tx, token, 'verify_email', email);
        if (!userId) return false;
        const now = new Date();
        await tx
          .update(users)
          .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`, updatedAt: now })
          .where(eq(users.id, userId));
        await recordEvent(tx, 'auth.user.verified', { user_id: userId, verified_at: now.toISOString() });
        return true;
      });
      if (!verified) throw new HttpError(400, m.verificationLinkInvalid);
      relay.kick();
      return { message: m.emailVerified, verified: true as const };
    },
  );

  app.post(
    '/resend-verification-email',
    { schema: { tags, body: emailRequestSchema, response: { 200: messageSchema } } },
    async (request) => {
      const user = await findUserByEmail(db, request.body.email);
      // One answer whatever the address: this call must not tell who has an account, nor
      // whose is verified. Only an account waiting for its verification gets a new link.
      if (!user || user.emailVerifiedAt) return { message: m.verificationSentIfPending };
      await db.transaction((tx) => requestVerificationEmail(tx, user, verificationTtlMinutes));
      relay.kick();
      return { message: m.verificationSentIfPending };
    },
  );

  app.post(
    '/check-email-verification',
    { schema: { tags, body: emailRequestSchema, response: { 200: emailVerifiedResponseSchema } } },
    async (request) => {
      // Unknown addresses answer false: the page that asks only waits for its own address.
      const [row] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.email, request.body.email), sql`${users.emailVerifiedAt} is not null`))
        .limit(1);
      return { verified: Boolean(row) };
    },
  );
};
