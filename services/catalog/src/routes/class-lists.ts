import {
  adminClassListQuerySchema,
  CLASS_LIST_IMPORT_MAX_BYTES,
  CLASS_LIST_ITEMS_MAX,
  CLASS_LISTS_PER_PAGE,
  classListAvailabilityQuerySchema,
  classListAvailabilitySchema,
  classListCopyRequestSchema,
  classListCreateRequestSchema,
  classListImportQuerySchema,
  classListImportResponseSchema,
  classListItemRequestSchema,
  classListItemSearchQuerySchema,
  classListItemSearchResponseSchema,
  classListItemUpdateRequestSchema,
  classListItemWriteResponseSchema,
  classListPageSchema,
  classListProposalRequestSchema,
  classListQuerySchema,
  classListRejectRequestSchema,
  classListResponseSchema,
  classListUpdateRequestSchema,
  classListWriteResponseSchema,
  idParamsSchema,
  classListMessages as m,
  messageResponseSchema,
  positiveId,
  SAVED_CLASS_LISTS_MAX,
  savedClassListRequestSchema,
  savedClassListResponseSchema,
  savedClassListsResponseSchema,
} from '@cartable/contracts';
import { conflict, type Db, hasPermission, isUniqueViolation, notFound, unprocessable } from '@cartable/service-kit';
import multipart from '@fastify/multipart';
import { and, asc, count, desc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { categories, classListItems, classLists, savedClassLists } from '../db/schema.ts';
import type { CatalogDeps } from '../deps.ts';
import {
  availability,
  checkListReferences,
  duplicateList,
  insertItems,
  itemsOf,
  itemValues,
  listDetail,
  listOrNotFound,
  recordReviewed,
  savedListsOf,
  searchItems,
  toItemDtos,
  toListDtos,
  touchList,
} from '../domain/class-lists.ts';
import { importItems } from '../domain/class-lists-import.ts';

const tags = ['class-lists'];
const security = [{ bearer: [] }];
const PERMISSION = 'lists.manage';
/** A member has at most this many proposals waiting for an operator. */
const PENDING_PROPOSALS_MAX = 5;
const itemParams = z.object({ id: positiveId(), item_id: positiveId(m.itemNotFound) });

const canManage = (request: FastifyRequest) => Boolean(request.claims && hasPermission(request.claims, PERMISSION));

/** A unique violation is the 409 of a second list for the same year, level and school. */
async function guardUnique<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicateList();
    throw err;
  }
}

/**
 * Class book lists (issue 15; API.md « Class book lists »): the public lists, « Ma liste », the
 * listing form's autofill, members' proposals and saved lists, and the back office of holders
 * of lists.manage. Rules and queries are in domain/class-lists.ts.
 */
export const classListRoutes: FastifyPluginAsyncZod<CatalogDeps> = async (app, deps) => {
  const { db, storage, categoryStore, guards, relay } = deps;
  await app.register(multipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: CLASS_LIST_IMPORT_MAX_BYTES, files: 1, fields: 5 },
  });
  const manage = { preHandler: guards.requirePermission(PERMISSION) };

  /** A list the caller may read: published, or any for lists.manage, or their own proposal. */
  async function readable(request: FastifyRequest, id: number) {
    const row = await listOrNotFound(db, id);
    if (row.status === 'published' || canManage(request) || (request.claims && row.proposedBy === request.claims.sub))
      return row;
    throw notFound(m.notFound);
  }

  async function page(where: SQL | undefined, pageNo: number, order: SQL[]) {
    const [[{ total } = { total: 0 }], rows] = await Promise.all([
      db.select({ total: count() }).from(classLists).where(where),
      db
        .select({ list: classLists })
        .from(classLists)
        .leftJoin(categories, eq(categories.id, classLists.levelId))
        .where(where)
        .orderBy(...order)
        .limit(CLASS_LISTS_PER_PAGE)
        .offset((pageNo - 1) * CLASS_LISTS_PER_PAGE),
    ]);
    return {
      data: await toListDtos(
        db,
        rows.map((r) => r.list),
      ),
      meta: {
        current_page: pageNo,
        last_page: Math.max(1, Math.ceil(total / CLASS_LISTS_PER_PAGE)),
        total,
      },
    };
  }

  function filters(q: z.infer<typeof classListQuerySchema>) {
    const where: SQL[] = [];
    if (q.level_id) where.push(eq(classLists.levelId, q.level_id));
    if (q.school_year) where.push(eq(classLists.schoolYear, q.school_year));
    if (q.kind) where.push(eq(classLists.kind, q.kind));
    if (q.city_id) where.push(eq(classLists.cityId, q.city_id));
    if (q.school) {
      const like = `%${q.school.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      where.push(
        sql`cartable_unaccent(lower(coalesce(${classLists.schoolName}, ''))) like cartable_unaccent(lower(${like})) escape '\\'`,
      );
    }
    return where;
  }

  // ── public ─────────────────────────────────────────────────────────────────────────────────

  app.get(
    '/class-lists',
    { schema: { tags, querystring: classListQuerySchema, response: { 200: classListPageSchema } } },
    async (request) => {
      const q = request.query;
      return page(and(eq(classLists.status, 'published'), ...filters(q)), q.page, [
        desc(classLists.schoolYear),
        asc(categories.order),
        asc(classLists.kind),
        asc(classLists.schoolName),
        asc(classLists.id),
      ]);
    },
  );

  app.get(
    '/class-lists/:id',
    {
      preHandler: guards.optionalUser,
      schema: { tags, params: idParamsSchema, response: { 200: classListResponseSchema } },
    },
    async (request) => {
      await readable(request, request.params.id);
      return { list: await listDetail(db, request.params.id) };
    },
  );

  app.get(
    '/class-lists/:id/availability',
    {
      preHandler: guards.optionalUser,
      schema: {
        tags,
        params: idParamsSchema,
        querystring: classListAvailabilityQuerySchema,
        response: { 200: classListAvailabilitySchema },
      },
    },
    async (request) => {
      const row = await readable(request, request.params.id);
      const { city_id: cityId, owned, per_item: perItem } = request.query;
      const [saved] = request.claims
        ? await db
            .select()
            .from(savedClassLists)
            .where(and(eq(savedClassLists.userId, request.claims.sub), eq(savedClassLists.listId, row.id)))
        : [];
      const [[list], items] = await Promise.all([toListDtos(db, [row]), itemsOf(db, row.id)]);
      const ids = new Set(items.map((i) => i.id));
      const chosenCity = cityId ?? saved?.cityId ?? null;
      if (cityId) await checkListReferences(db, await categoryStore.view(), { city_id: cityId });
      return availability(db, storage, list!, await toItemDtos(db, items), {
        cityId: chosenCity,
        owned: (owned ?? saved?.ownedItemIds ?? []).filter((id) => ids.has(id)),
        perItem,
        saved: Boolean(saved),
      });
    },
  );

  app.get(
    '/class-list-items/search',
    {
      schema: {
        tags,
        querystring: classListItemSearchQuerySchema,
        response: { 200: classListItemSearchResponseSchema },
      },
    },
    async (request) => ({ suggestions: await searchItems(db, request.query.q, request.query.level_id) }),
  );

  // ── members ────────────────────────────────────────────────────────────────────────────────

  app.post(
    '/class-lists/proposals',
    {
      preHandler: guards.requireVerified,
      schema: {
        tags,
        security,
        body: classListProposalRequestSchema,
        response: { 201: classListWriteResponseSchema },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const userId = request.claims!.sub;
      await checkListReferences(db, await categoryStore.view(), {
        level_id: body.level_id,
        city_id: body.city_id,
        subject_ids: body.items.map((i) => i.subject_id),
      });
      const [{ pending } = { pending: 0 }] = await db
        .select({ pending: count() })
        .from(classLists)
        .where(and(eq(classLists.proposedBy, userId), eq(classLists.status, 'proposed')));
      if (pending >= PENDING_PROPOSALS_MAX)
        throw conflict(`Vous avez déjà ${PENDING_PROPOSALS_MAX} listes en attente de validation.`);
      const id = await db.transaction(async (tx) => {
        const [list] = await tx
          .insert(classLists)
          .values({
            schoolYear: body.school_year,
            levelId: body.level_id,
            kind: body.kind,
            schoolName: body.school_name,
            cityId: body.city_id,
            sourceNote: body.source_note,
            status: 'proposed',
            proposedBy: userId,
          })
          .returning({ id: classLists.id });
        await insertItems(tx, list!.id, body.items);
        return list!.id;
      });
      reply.status(201);
      return { message: m.proposed, list: await listDetail(db, id) };
    },
  );

  app.get(
    '/my-class-lists',
    {
      preHandler: guards.requireUser,
      schema: { tags, security, response: { 200: savedClassListsResponseSchema } },
    },
    async (request) => ({ data: await savedListsOf(db, request.claims!.sub) }),
  );

  app.put(
    '/my-class-lists/:id',
    {
      preHandler: guards.requireUser,
      schema: {
        tags,
        security,
        params: idParamsSchema,
        body: savedClassListRequestSchema,
        response: { 200: savedClassListResponseSchema },
      },
    },
    async (request) => {
      const userId = request.claims!.sub;
      const row = await listOrNotFound(db, request.params.id);
      const { city_id: cityId, owned_item_ids: owned } = request.body;
      if (cityId) await checkListReferences(db, await categoryStore.view(), { city_id: cityId });
      const ids = new Set((await itemsOf(db, row.id)).map((i) => i.id));
      if (owned.some((id) => !ids.has(id))) throw unprocessable({ owned_item_ids: [m.ownedInvalid] });
      await db.transaction(async (tx) => {
        const [existing] = await tx
          .select({ listId: savedClassLists.listId })
          .from(savedClassLists)
          .where(and(eq(savedClassLists.userId, userId), eq(savedClassLists.listId, row.id)));
        if (!existing) {
          if (row.status !== 'published') throw conflict(m.notPublished);
          // Serialises a member's saves, so two at once cannot both pass the cap.
          await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`saved_class_lists:${userId}`}))`);
          const [{ n } = { n: 0 }] = await tx
            .select({ n: count() })
            .from(savedClassLists)
            .where(eq(savedClassLists.userId, userId));
          if (n >= SAVED_CLASS_LISTS_MAX) throw conflict(m.tooManySaved);
        }
        await tx
          .insert(savedClassLists)
          .values({ userId, listId: row.id, cityId, ownedItemIds: [...new Set(owned)] })
          .onConflictDoUpdate({
            target: [savedClassLists.userId, savedClassLists.listId],
            set: { cityId, ownedItemIds: [...new Set(owned)], updatedAt: new Date() },
          });
      });
      const [saved] = await savedListsOf(db, userId, row.id);
      return { message: m.saved, saved: saved! };
    },
  );

  app.delete(
    '/my-class-lists/:id',
    {
      preHandler: guards.requireUser,
      schema: { tags, security, params: idParamsSchema, response: { 200: messageResponseSchema } },
    },
    async (request) => {
      const gone = await db
        .delete(savedClassLists)
        .where(and(eq(savedClassLists.userId, request.claims!.sub), eq(savedClassLists.listId, request.params.id)))
        .returning({ id: savedClassLists.listId });
      if (!gone.length) throw notFound(m.savedNotFound);
      return { message: m.unsaved };
    },
  );

  // ── back office (lists.manage) ─────────────────────────────────────────────────────────────

  app.get(
    '/admin/class-lists',
    {
      ...manage,
      schema: { tags, security, querystring: adminClassListQuerySchema, response: { 200: classListPageSchema } },
    },
    async (request) => {
      const q = request.query;
      const where = filters(q);
      if (request.query.status) where.push(eq(classLists.status, request.query.status));
      if (request.query.q) {
        const like = `%${request.query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        where.push(or(ilike(classLists.schoolName, like), ilike(classLists.sourceNote, like))!);
      }
      return page(and(...where), q.page, [
        // Proposals waiting first, then the newest.
        sql`(${classLists.status} = 'proposed') desc`,
        desc(classLists.updatedAt),
        desc(classLists.id),
      ]);
    },
  );

  app.get(
    '/admin/class-lists/:id',
    { ...manage, schema: { tags, security, params: idParamsSchema, response: { 200: classListResponseSchema } } },
    async (request) => ({ list: await listDetail(db, request.params.id) }),
  );

  app.post(
    '/admin/class-lists',
    {
      ...manage,
      schema: { tags, security, body: classListCreateRequestSchema, response: { 201: classListWriteResponseSchema } },
    },
    async (request, reply) => {
      const body = request.body;
      await checkListReferences(db, await categoryStore.view(), {
        level_id: body.level_id,
        city_id: body.city_id,
        subject_ids: body.items.map((i) => i.subject_id),
      });
      const id = await guardUnique(() =>
        db.transaction(async (tx) => {
          const [list] = await tx
            .insert(classLists)
            .values({
              schoolYear: body.school_year,
              levelId: body.level_id,
              kind: body.kind,
              schoolName: body.kind === 'school' ? body.school_name : null,
              cityId: body.city_id,
              sourceNote: body.source_note,
              status: body.status,
              reviewedBy: request.claims!.sub,
              publishedAt: body.status === 'published' ? new Date() : null,
            })
            .returning({ id: classLists.id });
          await insertItems(tx, list!.id, body.items);
          return list!.id;
        }),
      );
      reply.status(201);
      return { message: m.created, list: await listDetail(db, id) };
    },
  );

  app.put(
    '/admin/class-lists/:id',
    {
      ...manage,
      schema: {
        tags,
        security,
        params: idParamsSchema,
        body: classListUpdateRequestSchema,
        response: { 200: classListWriteResponseSchema },
      },
    },
    async (request) => {
      const row = await listOrNotFound(db, request.params.id);
      const body = request.body;
      await checkListReferences(db, await categoryStore.view(), { level_id: body.level_id, city_id: body.city_id });
      const kind = body.kind ?? row.kind;
      const schoolName =
        kind === 'official' ? null : body.school_name !== undefined ? body.school_name : row.schoolName;
      if (kind === 'school' && !schoolName) throw unprocessable({ school_name: [m.schoolRequired] });
      const status = body.status ?? row.status;
      await guardUnique(() =>
        db
          .update(classLists)
          .set({
            ...(body.school_year !== undefined ? { schoolYear: body.school_year } : {}),
            ...(body.level_id !== undefined ? { levelId: body.level_id } : {}),
            ...(body.city_id !== undefined ? { cityId: body.city_id } : {}),
            ...(body.source_note !== undefined ? { sourceNote: body.source_note } : {}),
            kind,
            schoolName,
            status,
            publishedAt: status === 'published' ? (row.publishedAt ?? new Date()) : row.publishedAt,
            rejectionReason: status === 'rejected' ? row.rejectionReason : null,
            reviewedBy: request.claims!.sub,
            updatedAt: new Date(),
          })
          .where(eq(classLists.id, row.id)),
      );
      return { message: m.updated, list: await listDetail(db, row.id) };
    },
  );

  app.delete(
    '/admin/class-lists/:id',
    { ...manage, schema: { tags, security, params: idParamsSchema, response: { 200: messageResponseSchema } } },
    async (request) => {
      const gone = await db
        .delete(classLists)
        .where(eq(classLists.id, request.params.id))
        .returning({ id: classLists.id });
      if (!gone.length) throw notFound(m.notFound);
      return { message: m.deleted };
    },
  );

  app.post(
    '/admin/class-lists/:id/items',
    {
      ...manage,
      schema: {
        tags,
        security,
        params: idParamsSchema,
        body: classListItemRequestSchema,
        response: { 201: classListItemWriteResponseSchema },
      },
    },
    async (request, reply) => {
      const row = await listOrNotFound(db, request.params.id);
      await checkListReferences(db, await categoryStore.view(), { subject_ids: [request.body.subject_id] });
      const itemId = await db.transaction(async (tx) => {
        // One writer per list at a time: the 60-book cap holds under concurrent additions.
        await tx.execute(sql`select 1 from ${classLists} where ${classLists.id} = ${row.id} for update`);
        const [{ n, last } = { n: 0, last: -1 }] = await tx
          .select({ n: count(), last: sql<number>`coalesce(max(${classListItems.position}), -1)::int` })
          .from(classListItems)
          .where(eq(classListItems.listId, row.id));
        if (n >= CLASS_LIST_ITEMS_MAX) throw unprocessable({ items: [m.tooManyItems] });
        const [item] = await tx
          .insert(classListItems)
          .values(itemValues(row.id, request.body, last + 1))
          .returning({ id: classListItems.id });
        await touchList(tx, row.id);
        return item!.id;
      });
      const [item] = await db.select().from(classListItems).where(eq(classListItems.id, itemId));
      reply.status(201);
      return { message: m.itemAdded, item: (await toItemDtos(db, [item!]))[0]! };
    },
  );

  async function itemOrNotFound(listId: number, itemId: number) {
    const [item] = await db
      .select()
      .from(classListItems)
      .where(and(eq(classListItems.id, itemId), eq(classListItems.listId, listId)));
    if (!item) throw notFound(m.itemNotFound);
    return item;
  }

  app.put(
    '/admin/class-lists/:id/items/:item_id',
    {
      ...manage,
      schema: {
        tags,
        security,
        params: itemParams,
        body: classListItemUpdateRequestSchema,
        response: { 200: classListItemWriteResponseSchema },
      },
    },
    async (request) => {
      const item = await itemOrNotFound(request.params.id, request.params.item_id);
      const b = request.body;
      await checkListReferences(db, await categoryStore.view(), { subject_ids: [b.subject_id] });
      const set = {
        ...(b.title !== undefined ? { title: b.title } : {}),
        ...(b.author !== undefined ? { author: b.author } : {}),
        ...(b.publisher !== undefined ? { publisher: b.publisher } : {}),
        ...(b.edition !== undefined ? { edition: b.edition } : {}),
        ...(b.year !== undefined ? { year: b.year } : {}),
        ...(b.isbn !== undefined ? { isbn: b.isbn } : {}),
        ...(b.subject_id !== undefined ? { subjectId: b.subject_id } : {}),
        ...(b.requirement !== undefined ? { requirement: b.requirement } : {}),
        ...(b.position !== undefined ? { position: b.position } : {}),
      };
      const [updated] = await db.transaction(async (tx) => {
        const rows = Object.keys(set).length
          ? await tx.update(classListItems).set(set).where(eq(classListItems.id, item.id)).returning()
          : [item];
        await touchList(tx, item.listId);
        return rows;
      });
      return { message: m.itemUpdated, item: (await toItemDtos(db, [updated!]))[0]! };
    },
  );

  app.delete(
    '/admin/class-lists/:id/items/:item_id',
    { ...manage, schema: { tags, security, params: itemParams, response: { 200: messageResponseSchema } } },
    async (request) => {
      const item = await itemOrNotFound(request.params.id, request.params.item_id);
      await db.transaction(async (tx) => {
        await tx.delete(classListItems).where(eq(classListItems.id, item.id));
        await touchList(tx, item.listId);
      });
      return { message: m.itemDeleted };
    },
  );

  app.post(
    '/admin/class-lists/:id/copy',
    {
      ...manage,
      schema: {
        tags,
        security,
        params: idParamsSchema,
        body: classListCopyRequestSchema,
        response: { 201: classListWriteResponseSchema },
      },
    },
    async (request, reply) => {
      const row = await listOrNotFound(db, request.params.id);
      if (request.body.school_year === row.schoolYear) throw unprocessable({ school_year: [m.sameYear] });
      const items = await itemsOf(db, row.id);
      const id = await guardUnique(() =>
        db.transaction(async (tx) => {
          const [copy] = await tx
            .insert(classLists)
            .values({
              schoolYear: request.body.school_year,
              levelId: row.levelId,
              kind: row.kind,
              schoolName: row.schoolName,
              cityId: row.cityId,
              sourceNote: row.sourceNote,
              status: 'draft',
              reviewedBy: request.claims!.sub,
            })
            .returning({ id: classLists.id });
          if (items.length)
            await tx.insert(classListItems).values(
              items.map((i) => ({
                listId: copy!.id,
                title: i.title,
                author: i.author,
                publisher: i.publisher,
                edition: i.edition,
                year: i.year,
                isbn: i.isbn,
                subjectId: i.subjectId,
                requirement: i.requirement,
                position: i.position,
              })),
            );
          return copy!.id;
        }),
      );
      reply.status(201);
      return { message: m.copied, list: await listDetail(db, id) };
    },
  );

  app.post(
    '/admin/class-lists/:id/import',
    {
      ...manage,
      schema: {
        tags,
        security,
        params: idParamsSchema,
        querystring: classListImportQuerySchema,
        response: { 200: classListImportResponseSchema },
      },
    },
    async (request) => {
      const row = await listOrNotFound(db, request.params.id);
      if (!request.isMultipart()) throw unprocessable({ csv_file: [m.csvRequired] });
      let bytes: Buffer | null = null;
      for await (const part of request.parts()) {
        if (part.type === 'file' && part.fieldname === 'csv_file') {
          bytes = await part.toBuffer();
          if (part.file.truncated)
            throw unprocessable({
              csv_file: [`Fichier trop lourd : ${CLASS_LIST_IMPORT_MAX_BYTES / 1024} Ko au plus.`],
            });
        } else if (part.type === 'file') await part.toBuffer();
      }
      if (!bytes) throw unprocessable({ csv_file: [m.csvRequired] });
      return importItems(db as Db, await categoryStore.view(), row.id, bytes, request.query.dry_run);
    },
  );

  app.post(
    '/admin/class-lists/:id/approve',
    { ...manage, schema: { tags, security, params: idParamsSchema, response: { 200: classListWriteResponseSchema } } },
    async (request) => {
      const row = await listOrNotFound(db, request.params.id);
      if (row.status !== 'proposed') throw conflict(m.notProposed);
      await guardUnique(() =>
        db.transaction(async (tx) => {
          const [done] = await tx
            .update(classLists)
            .set({
              status: 'published',
              publishedAt: new Date(),
              reviewedBy: request.claims!.sub,
              rejectionReason: null,
              updatedAt: new Date(),
            })
            .where(and(eq(classLists.id, row.id), eq(classLists.status, 'proposed')))
            .returning();
          if (!done) throw conflict(m.notProposed);
          const [dto] = await toListDtos(tx, [done]);
          await recordReviewed(tx, dto!, 'published', null);
        }),
      );
      relay.kick();
      return { message: m.approved, list: await listDetail(db, row.id) };
    },
  );

  app.post(
    '/admin/class-lists/:id/reject',
    {
      ...manage,
      schema: {
        tags,
        security,
        params: idParamsSchema,
        body: classListRejectRequestSchema,
        response: { 200: classListWriteResponseSchema },
      },
    },
    async (request) => {
      const row = await listOrNotFound(db, request.params.id);
      if (row.status !== 'proposed') throw conflict(m.notProposed);
      await db.transaction(async (tx) => {
        const [done] = await tx
          .update(classLists)
          .set({
            status: 'rejected',
            rejectionReason: request.body.reason,
            reviewedBy: request.claims!.sub,
            updatedAt: new Date(),
          })
          .where(and(eq(classLists.id, row.id), eq(classLists.status, 'proposed')))
          .returning();
        if (!done) throw conflict(m.notProposed);
        const [dto] = await toListDtos(tx, [done]);
        await recordReviewed(tx, dto!, 'rejected', request.body.reason);
      });
      relay.kick();
      return { message: m.rejected, list: await listDetail(db, row.id) };
    },
  );
};
