import { messages, userSchema } from '@cartable/contracts';
import { conflict, type Db, HttpError, notFound, recordEvent } from '@cartable/service-kit';
import { asc, count, eq, ilike, inArray, or } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { permissions, rolePermissions, roles, userPermissions, userRoles, users } from '../db/schema.ts';
import type { AuthDeps } from '../deps.ts';
import { revokeAllSessions } from '../domain/sessions.ts';
import { claimsFor, findUserById, toUserDto, toUserDtos } from '../domain/users.ts';

const m = messages.auth;
const slugSchema = z
  .string()
  .trim()
  .regex(/^([a-z0-9_]+(\.[a-z0-9_]+)*|\*)$/, 'Identifiant invalide (lettres minuscules, chiffres, _ et .)');
const idParams = z.object({ id: z.string().uuid() });
const roleBody = z.object({
  slug: slugSchema,
  name: z.string().trim().min(2).max(100),
  permissions: z.array(slugSchema).default([]),
});
const roleSchema = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  permissions: z.array(z.object({ slug: z.string() })),
});

/** Users, admin rights, roles and permissions (SPEC.md section 6). Every change emits auth.user.role_changed. */
export const adminUserRoutes: FastifyPluginAsyncZod<AuthDeps> = async (app, deps) => {
  const { db, guards, relay } = deps;

  /**
   * Rights taken away must not survive in tokens already issued: the holders' sessions end, in
   * the transaction of the change, and they sign in again with their new claims. (Promotion
   * needs no such thing.) Returns what to publish to the cache once committed.
   */
  const endSessions = (tx: Db, userIds: string[]) => revokeAllSessions(tx, userIds);
  const noSessionEnded = { publish: async () => {} };

  async function roleChanged(tx: Db, userId: string, changedBy: string) {
    const row = await findUserById(tx, userId);
    if (!row) return;
    const claims = claimsFor(await toUserDto(tx, row), row.tokenVersion);
    await recordEvent(tx, 'auth.user.role_changed', {
      user_id: userId,
      is_admin: claims.is_admin,
      roles: claims.roles,
      permissions: claims.permissions,
      changed_by: changedBy,
    });
  }

  async function permissionIds(tx: Db, slugs: string[]) {
    if (!slugs.length) return [];
    const rows = await tx.select().from(permissions).where(inArray(permissions.slug, slugs));
    const unknown = slugs.filter((s) => !rows.some((r) => r.slug === s));
    if (unknown.length) {
      throw new HttpError(422, messages.validation, { permissions: [`Permissions inconnues : ${unknown.join(', ')}`] });
    }
    return rows.map((r) => r.id);
  }

  async function listRoles(where?: ReturnType<typeof eq>) {
    const rows = await db.select().from(roles).where(where).orderBy(asc(roles.slug));
    const perms = rows.length
      ? await db
          .select({ roleId: rolePermissions.roleId, slug: permissions.slug })
          .from(rolePermissions)
          .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
          .where(
            inArray(
              rolePermissions.roleId,
              rows.map((r) => r.id),
            ),
          )
      : [];
    return rows.map((r) => ({
      ...r,
      permissions: perms.filter((p) => p.roleId === r.id).map((p) => ({ slug: p.slug })),
    }));
  }

  app.get(
    '/users/check-admin',
    { preHandler: guards.requireUser, schema: { response: { 200: z.object({ is_admin: z.boolean() }) } } },
    async (request) => ({
      is_admin: request.claims!.is_admin,
    }),
  );

  app.get(
    '/users/all',
    {
      preHandler: guards.requirePermission('users.view.any'),
      schema: {
        querystring: z.object({
          page: z.coerce.number().int().min(1).default(1),
          per_page: z.coerce.number().int().min(1).max(100).default(20),
          search: z.string().trim().max(100).optional(),
        }),
        response: {
          200: z.object({
            data: z.array(userSchema),
            meta: z.object({
              current_page: z.number(),
              last_page: z.number(),
              total: z.number(),
              per_page: z.number(),
            }),
          }),
        },
      },
    },
    async (request) => {
      const { page, per_page, search } = request.query;
      const pattern = search ? `%${search.replace(/[%_\\]/g, (c) => `\\${c}`)}%` : undefined;
      const where = pattern
        ? or(ilike(users.name, pattern), ilike(users.email, pattern), ilike(users.username, pattern))
        : undefined;
      const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(users).where(where);
      const rows = await db
        .select()
        .from(users)
        .where(where)
        .orderBy(asc(users.name), asc(users.id))
        .limit(per_page)
        .offset((page - 1) * per_page);
      return {
        data: await toUserDtos(db, rows),
        meta: { current_page: page, last_page: Math.max(1, Math.ceil(total / per_page)), total, per_page },
      };
    },
  );

  const userResponse = z.object({ message: z.string(), user: userSchema });

  for (const action of ['promote', 'revoke'] as const) {
    app.post(
      `/admin/users/:id/${action}`,
      { preHandler: guards.requireAdmin, schema: { params: idParams, response: { 200: userResponse } } },
      async (request) => {
        const { id } = request.params;
        if (action === 'revoke' && id === request.claims!.sub) throw new HttpError(422, m.cannotRevokeSelf);
        const { row, ended } = await db.transaction(async (tx) => {
          const [saved] = await tx
            .update(users)
            .set({ isAdmin: action === 'promote', updatedAt: new Date() })
            .where(eq(users.id, id))
            .returning();
          if (!saved) throw notFound(m.userNotFound);
          await roleChanged(tx, id, request.claims!.sub);
          return { row: saved, ended: action === 'revoke' ? await endSessions(tx, [id]) : noSessionEnded };
        });
        relay.kick();
        await ended.publish(deps);
        return { message: action === 'promote' ? m.promoted : m.revoked, user: await toUserDto(db, row) };
      },
    );
  }

  app.put(
    '/admin/users/:id/roles',
    {
      preHandler: guards.requireAdmin,
      schema: { params: idParams, body: z.object({ roles: z.array(slugSchema) }), response: { 200: userResponse } },
    },
    async (request) => {
      const { id } = request.params;
      const wanted = [...new Set(request.body.roles)];
      const { user, ended } = await db.transaction(async (tx) => {
        if (!(await findUserById(tx, id))) throw notFound(m.userNotFound);
        const found = wanted.length ? await tx.select().from(roles).where(inArray(roles.slug, wanted)) : [];
        const unknown = wanted.filter((s) => !found.some((r) => r.slug === s));
        if (unknown.length)
          throw new HttpError(422, messages.validation, { roles: [`Rôles inconnus : ${unknown.join(', ')}`] });
        await tx.delete(userRoles).where(eq(userRoles.userId, id));
        if (found.length) await tx.insert(userRoles).values(found.map((r) => ({ userId: id, roleId: r.id })));
        await roleChanged(tx, id, request.claims!.sub);
        const ended = await endSessions(tx, [id]);
        return { user: ended.rows[0], ended };
      });
      relay.kick();
      await ended.publish(deps);
      return { message: 'Rôles mis à jour.', user: await toUserDto(db, user!) };
    },
  );

  app.put(
    '/admin/users/:id/permissions',
    {
      preHandler: guards.requireAdmin,
      schema: {
        params: idParams,
        body: z.object({ permissions: z.array(slugSchema) }),
        response: { 200: userResponse },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { user, ended } = await db.transaction(async (tx) => {
        if (!(await findUserById(tx, id))) throw notFound(m.userNotFound);
        const ids = await permissionIds(tx, [...new Set(request.body.permissions)]);
        await tx.delete(userPermissions).where(eq(userPermissions.userId, id));
        if (ids.length)
          await tx.insert(userPermissions).values(ids.map((permissionId) => ({ userId: id, permissionId })));
        await roleChanged(tx, id, request.claims!.sub);
        const ended = await endSessions(tx, [id]);
        return { user: ended.rows[0], ended };
      });
      relay.kick();
      await ended.publish(deps);
      return { message: 'Permissions mises à jour.', user: await toUserDto(db, user!) };
    },
  );

  app.get(
    '/roles',
    {
      preHandler: guards.requirePermission('roles.view'),
      schema: { response: { 200: z.object({ roles: z.array(roleSchema) }) } },
    },
    async () => ({ roles: await listRoles() }),
  );

  app.get(
    '/permissions',
    {
      preHandler: guards.requirePermission('roles.view'),
      schema: {
        response: {
          200: z.object({ permissions: z.array(z.object({ id: z.string(), slug: z.string(), name: z.string() })) }),
        },
      },
    },
    async () => ({ permissions: await db.select().from(permissions).orderBy(asc(permissions.slug)) }),
  );

  app.post(
    '/roles',
    { preHandler: guards.requireAdmin, schema: { body: roleBody, response: { 201: z.object({ role: roleSchema }) } } },
    async (request, reply) => {
      const { slug, name } = request.body;
      const role = await db.transaction(async (tx) => {
        const [created] = await tx.insert(roles).values({ slug, name }).onConflictDoNothing().returning();
        if (!created) throw conflict(`Le rôle ${slug} existe déjà.`, { slug: [`Le rôle ${slug} existe déjà.`] });
        const ids = await permissionIds(tx, request.body.permissions);
        if (ids.length)
          await tx.insert(rolePermissions).values(ids.map((permissionId) => ({ roleId: created.id, permissionId })));
        return created;
      });
      const [full] = await listRoles(eq(roles.id, role.id));
      return reply.status(201).send({ role: full! });
    },
  );

  app.put(
    '/roles/:id',
    {
      preHandler: guards.requireAdmin,
      schema: { params: idParams, body: roleBody, response: { 200: z.object({ role: roleSchema }) } },
    },
    async (request) => {
      const { id } = request.params;
      const ended = await db.transaction(async (tx) => {
        const [saved] = await tx
          .update(roles)
          .set({ slug: request.body.slug, name: request.body.name })
          .where(eq(roles.id, id))
          .returning()
          .catch((err) => {
            if ((err as { code?: string }).code === '23505')
              throw conflict(`Le rôle ${request.body.slug} existe déjà.`);
            throw err;
          });
        if (!saved) throw notFound('Rôle introuvable.');
        const ids = await permissionIds(tx, request.body.permissions);
        await tx.delete(rolePermissions).where(eq(rolePermissions.roleId, id));
        if (ids.length)
          await tx.insert(rolePermissions).values(ids.map((permissionId) => ({ roleId: id, permissionId })));
        // Everyone holding the role now holds other permissions.
        const holders = await tx.select({ userId: userRoles.userId }).from(userRoles).where(eq(userRoles.roleId, id));
        for (const h of holders) await roleChanged(tx, h.userId, request.claims!.sub);
        return endSessions(
          tx,
          holders.map((h) => h.userId),
        );
      });
      relay.kick();
      await ended.publish(deps);
      const [full] = await listRoles(eq(roles.id, id));
      return { role: full! };
    },
  );

  app.delete(
    '/roles/:id',
    {
      preHandler: guards.requireAdmin,
      schema: { params: idParams, response: { 200: z.object({ message: z.string() }) } },
    },
    async (request) => {
      const { id } = request.params;
      const ended = await db.transaction(async (tx) => {
        const [role] = await tx.select().from(roles).where(eq(roles.id, id));
        if (!role) throw notFound('Rôle introuvable.');
        if (role.slug === 'admin') throw new HttpError(422, 'Le rôle administrateur ne peut pas être supprimé.');
        const holders = await tx.select({ userId: userRoles.userId }).from(userRoles).where(eq(userRoles.roleId, id));
        await tx.delete(roles).where(eq(roles.id, id));
        for (const h of holders) await roleChanged(tx, h.userId, request.claims!.sub);
        return endSessions(
          tx,
          holders.map((h) => h.userId),
        );
      });
      relay.kick();
      await ended.publish(deps);
      return { message: 'Rôle supprimé.' };
    },
  );
};
