import { messages, registerRequestSchema, registerResponseSchema } from '@cartable/contracts';
import { conflict, type FieldErrors, HttpError, recordEvent } from '@cartable/service-kit';
import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { users } from '../db/schema.ts';
import type { AuthDeps } from '../deps.ts';
import { hashPassword } from '../domain/passwords.ts';
import { findUserByEmail, toUserDto } from '../domain/users.ts';
import { consumeVerificationToken, issueVerificationToken } from '../domain/verification.ts';

const isUniqueViolation = (err: unknown) => (err as { code?: string })?.code === '23505';

/** POST /register and POST /verify-email. */
export const registrationRoutes: FastifyPluginAsyncZod<AuthDeps> = async (app, deps) => {
  const { db, config, relay } = deps;

  async function takenFields(email: string, username: string): Promise<FieldErrors> {
    const errors: FieldErrors = {};
    if (await findUserByEmail(db, email)) errors.email = [messages.auth.emailTaken(email)];
    const [byUsername] = await db
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.username}) = ${username.toLowerCase()}`)
      .limit(1);
    if (byUsername) errors.username = [messages.auth.usernameTaken(username)];
    return errors;
  }

  app.post(
    '/register',
    { schema: { body: registerRequestSchema, response: { 201: registerResponseSchema } } },
    async (request, reply) => {
      const body = request.body;
      const taken = await takenFields(body.email, body.username);
      if (Object.keys(taken).length) {
        throw conflict(taken.email?.[0] ?? taken.username?.[0] ?? messages.conflict, taken);
      }
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
          const verification = await issueVerificationToken(tx, row.id, config.EMAIL_VERIFICATION_TTL_HOURS);
          await recordEvent(tx, 'auth.user.registered', {
            user_id: row.id,
            name: row.name,
            username: row.username,
            email: row.email,
            country_id: row.countryId,
            city_id: row.cityId,
            profile_image: row.profileImage,
            created_at: row.createdAt.toISOString(),
            verification: { token: verification.token, expires_at: verification.expiresAt.toISOString() },
          });
          return toUserDto(tx, row);
        });
        relay.kick();
        return reply.status(201).send({ message: messages.auth.registered, user });
      } catch (err) {
        // Two sign-ups with the same address at the same moment: the unique index decides.
        if (isUniqueViolation(err)) {
          const raced = await takenFields(body.email, body.username);
          throw conflict(raced.email?.[0] ?? raced.username?.[0] ?? messages.conflict, raced);
        }
        throw err;
      }
    },
  );

  app.post(
    '/verify-email',
    {
      schema: {
        body: z.object({ token: z.string().min(1).max(200), email: z.string().email().toLowerCase() }),
        response: { 200: z.object({ message: z.string(), verified: z.literal(true) }) },
      },
    },
    async (request) => {
      const { token, email } = request.body;
      const verified = await db
        .transaction(async (tx) => {
          const userId = await consumeVerificationToken(tx, token);
          if (!userId) return false;
          const [row] = await tx
            .update(users)
            .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`, updatedAt: new Date() })
            .where(eq(users.id, userId))
            .returning({ email: users.email });
          // A token is valid only with the address it was sent to; otherwise nothing changes.
          if (row?.email !== email) throw new HttpError(400, 'invalid');
          return true;
        })
        .catch((err) => {
          if (err instanceof HttpError) return false;
          throw err;
        });
      if (!verified) {
        throw new HttpError(
          400,
          'Lien de vérification invalide. Veuillez vérifier votre email ou demandez un nouveau lien.',
        );
      }
      return {
        message: 'Votre adresse email a été vérifiée. Vous pouvez maintenant vous connecter.',
        verified: true as const,
      };
    },
  );
};
