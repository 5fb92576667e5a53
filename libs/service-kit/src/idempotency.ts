import { createHash } from 'node:crypto';
import { messages } from '@cartable/contracts';
import { and, eq } from 'drizzle-orm';
import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import fp from 'fastify-plugin';
import type { Db } from './db/database.ts';
import { conflict, unprocessable } from './errors.ts';
import { deleteOlderThan, type HousekeepingTask } from './housekeeping.ts';

/**
 * Answers to creating calls sent with an Idempotency-Key header, so that a retry (after a
 * timeout, a lost connection, a double tap) gets the first answer instead of a second effect.
 * Services that accept creating calls re-export it from their `db/schema.ts`.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    /** Who asked (a hash of their credentials), so one client never reads another's answer. */
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    /** `POST /books`: the same key on another call is refused. */
    request: text('request').notNull(),
    /** Null while the first request is being handled. */
    statusCode: integer('status_code'),
    contentType: text('content_type'),
    body: text('body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] })],
);

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY_PATTERN = /^[A-Za-z0-9_:-]{1,200}$/;

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: { scope: string; key: string };
  }
}

/**
 * POST requests with an `Idempotency-Key` header: the first one runs and its successful answer
 * is stored; a repeat with the same key (same client, same call) gets that answer back with
 * `Idempotent-Replayed: true`; a repeat while the first still runs gets 409. A failed answer is
 * not stored, so the client may try again with the same key. Keys are kept a day (housekeeping).
 */
export const idempotencyPlugin = fp<{ db: Db }>(
  async (app, { db }) => {
    app.addHook('preHandler', async (request, reply) => {
      const key = request.headers[IDEMPOTENCY_HEADER];
      if (request.method !== 'POST' || key === undefined) return;
      if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
        throw unprocessable({ 'Idempotency-Key': [messages.idempotencyInvalid] }, messages.idempotencyInvalid);
      }
      const scope = createHash('sha256')
        .update(request.headers.authorization ?? `anonymous:${request.ip}`)
        .digest('base64url');
      const call = `${request.method} ${request.routeOptions.url ?? request.url}`;
      /** Takes the key for this request; false when another request holds or held it. */
      const claim = async () => {
        const [fresh] = await db
          .insert(idempotencyKeys)
          .values({ scope, key, request: call })
          .onConflictDoNothing()
          .returning({ key: idempotencyKeys.key });
        if (fresh) request.idempotency = { scope, key };
        return Boolean(fresh);
      };
      if (await claim()) return;
      const [stored] = await db
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
      if (!stored) {
        // Removed in between (the first attempt failed): this one may run, unless another took it.
        if (await claim()) return;
        throw conflict(messages.idempotencyInProgress);
      }
      if (stored.request !== call)
        throw unprocessable({ 'Idempotency-Key': [messages.idempotencyReused] }, messages.idempotencyReused);
      if (stored.statusCode === null) throw conflict(messages.idempotencyInProgress);
      reply.header('idempotent-replayed', 'true');
      if (stored.contentType) reply.type(stored.contentType);
      return reply.status(stored.statusCode).send(stored.body ?? '');
    });

    app.addHook('onSend', async (request, reply, payload) => {
      const pending = request.idempotency;
      if (!pending) return payload;
      request.idempotency = undefined;
      const where = and(eq(idempotencyKeys.scope, pending.scope), eq(idempotencyKeys.key, pending.key));
      if (reply.statusCode >= 200 && reply.statusCode < 300 && typeof payload === 'string') {
        await db
          .update(idempotencyKeys)
          .set({
            statusCode: reply.statusCode,
            body: payload,
            contentType: String(reply.getHeader('content-type') ?? ''),
          })
          .where(where);
      } else {
        await db.delete(idempotencyKeys).where(where);
      }
      return payload;
    });
  },
  { name: 'cartable-idempotency' },
);

/** Housekeeping task: keys older than a day are forgotten. */
export const idempotencyRetention: HousekeepingTask = {
  name: 'idempotency_keys',
  run: deleteOlderThan('idempotency_keys', 'created_at', 1),
};
