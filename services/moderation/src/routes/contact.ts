import { randomInt } from 'node:crypto';
import { notFound, recordEvent, unprocessable } from '@cartable/service-kit';
import { and, count, desc, eq, gt, ilike, inArray, isNull, or } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ModerationDeps } from '../app.ts';
import { captchas, contactStatuses, contacts } from '../db/schema.ts';

const CAPTCHA_TTL_MS = 15 * 60_000;
const CAPTCHA_WRONG = "Veuillez résoudre correctement l'opération mathématique";

/** SPEC.md section 5: add, subtract the smaller from the larger, or multiply small numbers. */
export function newQuestion() {
  const a = randomInt(1, 11);
  const b = randomInt(1, 11);
  switch (randomInt(0, 3)) {
    case 0:
      return { question: `Combien font ${a} + ${b} ?`, answer: a + b };
    case 1:
      return {
        question: `Combien font ${Math.max(a, b)} − ${Math.min(a, b)} ?`,
        answer: Math.max(a, b) - Math.min(a, b),
      };
    default:
      return { question: `Combien font ${a} × ${b} ?`, answer: a * b };
  }
}

const contactBody = z.object({
  name: z.string({ error: 'Le nom est requis' }).trim().min(1, 'Le nom est requis').max(100),
  email: z
    .string({ error: "L'email est requis" })
    .trim()
    .min(1, "L'email est requis")
    .email('Veuillez entrer une adresse email valide')
    .toLowerCase(),
  subject: z.string({ error: 'Le sujet est requis' }).trim().min(1, 'Le sujet est requis').max(200),
  message: z.string({ error: 'Le message est requis' }).trim().min(1, 'Le message est requis').max(5000),
  captcha_id: z.string({ error: CAPTCHA_WRONG }).uuid(CAPTCHA_WRONG),
  captcha_answer: z.coerce.number({ error: CAPTCHA_WRONG }).int(CAPTCHA_WRONG),
});
const idParams = z.object({ id: z.string().uuid() });

type ContactRow = typeof contacts.$inferSelect;
const dto = (c: ContactRow) => ({
  id: c.id,
  name: c.name,
  email: c.email,
  subject: c.subject,
  message: c.message,
  status: c.status,
  response: c.response,
  responded_at: c.respondedAt?.toISOString() ?? null,
  created_at: c.createdAt.toISOString(),
});

/** The contact form and its back office (SPEC.md sections 2, 5 and 7). */
export const contactRoutes: FastifyPluginAsyncZod<ModerationDeps> = async (app, { db, guards, relay }) => {
  app.get('/contact/captcha', async (_request, reply) => {
    const { question, answer } = newQuestion();
    const [row] = await db
      .insert(captchas)
      .values({ answer, expiresAt: new Date(Date.now() + CAPTCHA_TTL_MS) })
      .returning({ id: captchas.id });
    reply.header('cache-control', 'no-store');
    return { captcha_id: row!.id, question };
  });

  app.post('/contact', { schema: { body: contactBody } }, async (request, reply) => {
    const { captcha_id, captcha_answer, ...message } = request.body;
    // Used up whatever the answer: a wrong guess means a new question.
    const [captcha] = await db
      .update(captchas)
      .set({ usedAt: new Date() })
      .where(and(eq(captchas.id, captcha_id), isNull(captchas.usedAt), gt(captchas.expiresAt, new Date())))
      .returning();
    if (!captcha || captcha.answer !== captcha_answer)
      throw unprocessable({ captcha_answer: [CAPTCHA_WRONG] }, CAPTCHA_WRONG);
    await db.insert(contacts).values(message);
    return reply.status(201).send({ message: 'Votre message a bien été envoyé. Nous vous répondons sous 24 heures.' });
  });

  const admin = { preHandler: guards.requireAdmin };

  app.get(
    '/admin/contacts',
    {
      ...admin,
      schema: {
        querystring: z.object({
          status: z.enum(contactStatuses).optional(),
          search: z.string().trim().max(100).optional(),
          page: z.coerce.number().int().min(1).default(1),
          per_page: z.coerce.number().int().min(1).max(100).default(20),
        }),
      },
    },
    async (request) => {
      const { status, search, page, per_page } = request.query;
      const pattern = search ? `%${search.replace(/[%_\\]/g, (c) => `\\${c}`)}%` : undefined;
      const where = and(
        status ? eq(contacts.status, status) : undefined,
        pattern
          ? or(ilike(contacts.name, pattern), ilike(contacts.email, pattern), ilike(contacts.subject, pattern))
          : undefined,
      );
      const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(contacts).where(where);
      const rows = await db
        .select()
        .from(contacts)
        .where(where)
        .orderBy(desc(contacts.createdAt))
        .limit(per_page)
        .offset((page - 1) * per_page);
      return {
        data: rows.map(dto),
        meta: { current_page: page, last_page: Math.max(1, Math.ceil(total / per_page)), total },
      };
    },
  );

  app.get('/admin/contacts/stats', admin, async () => {
    const rows = await db.select({ status: contacts.status, n: count() }).from(contacts).groupBy(contacts.status);
    const of = (s: string) => rows.find((r) => r.status === s)?.n ?? 0;
    return {
      stats: {
        total: rows.reduce((sum, r) => sum + r.n, 0),
        new: of('new'),
        read: of('read'),
        answered: of('answered'),
        archived: of('archived'),
      },
    };
  });

  async function find(id: string) {
    const [row] = await db.select().from(contacts).where(eq(contacts.id, id));
    if (!row) throw notFound('Message introuvable.');
    return row;
  }

  app.get('/admin/contacts/:id', { ...admin, schema: { params: idParams } }, async (request) => {
    let row = await find(request.params.id);
    if (row.status === 'new')
      [row = row] = await db.update(contacts).set({ status: 'read' }).where(eq(contacts.id, row.id)).returning();
    return { data: dto(row) };
  });

  app.post(
    '/admin/contacts/:id/respond',
    {
      ...admin,
      schema: {
        params: idParams,
        body: z.object({ response: z.string().trim().min(2, 'La réponse est requise').max(5000) }),
      },
    },
    async (request) => {
      const row = await find(request.params.id);
      const saved = await db.transaction(async (tx) => {
        const [updated] = await tx
          .update(contacts)
          .set({ response: request.body.response, respondedAt: new Date(), status: 'answered' })
          .where(eq(contacts.id, row.id))
          .returning();
        // notifications e-mails the answer.
        await recordEvent(tx, 'moderation.contact.answered', {
          contact_id: row.id,
          name: row.name,
          email: row.email,
          subject: row.subject,
          message: row.message,
          response: request.body.response,
        });
        return updated!;
      });
      relay.kick();
      return { message: 'Réponse envoyée par email', data: dto(saved) };
    },
  );

  app.patch(
    '/admin/contacts/:id/status',
    {
      ...admin,
      schema: { params: idParams, body: z.object({ status: z.enum(contactStatuses, { error: 'Statut inconnu' }) }) },
    },
    async (request) => {
      await find(request.params.id);
      const [saved] = await db
        .update(contacts)
        .set({ status: request.body.status })
        .where(eq(contacts.id, request.params.id))
        .returning();
      return { data: dto(saved!) };
    },
  );

  app.delete('/admin/contacts/:id', { ...admin, schema: { params: idParams } }, async (request) => {
    await find(request.params.id);
    await db.delete(contacts).where(eq(contacts.id, request.params.id));
    return { message: 'Message supprimé' };
  });

  app.post(
    '/admin/contacts/bulk-delete',
    {
      ...admin,
      schema: { body: z.object({ ids: z.array(z.string().uuid()).min(1, 'Choisissez au moins un message').max(500) }) },
    },
    async (request) => {
      const deleted = await db
        .delete(contacts)
        .where(inArray(contacts.id, request.body.ids))
        .returning({ id: contacts.id });
      return { deleted: deleted.length };
    },
  );
};
