import {
  CLASS_LIST_ITEMS_MAX,
  type ClassListItemRequest,
  type classListItemUpdateRequestSchema,
  classListMessages as m,
} from '@cartable/contracts';
import { type Db, notFound, type UnitOfWork, unprocessable } from '@cartable/service-kit';
import type { z } from 'zod';
import * as queries from '../db/queries.ts';
import * as versions from '../db/versions.ts';
import { type ClassListBooks, itemValues } from './lists.ts';
import { changedItem, recordVersion } from './versions.ts';

type ItemUpdate = z.output<typeof classListItemUpdateRequestSchema>;

/** The back office of class lists (holders of lists.manage): lists and their books. */
export function classListAdmin(uow: UnitOfWork, books: ClassListBooks) {
  const db = uow.db;

  /** The list, locked until the transaction ends: one writer of its books (and versions) at a time. */
  async function lockedList(tx: Db, listId: number) {
    await queries.lockList(tx, listId);
    const list = await queries.listById(tx, listId);
    if (!list) throw notFound(m.notFound);
    return list;
  }

  async function itemOrNotFound(listId: number, itemId: number) {
    const item = await queries.itemOf(db, listId, itemId);
    if (!item) throw notFound(m.itemNotFound);
    return item;
  }

  return {
    async create(
      operatorId: string,
      body: {
        school_year: string;
        level_id: number;
        kind: queries.ListRow['kind'];
        school_name?: string | null | undefined;
        city_id?: number | null | undefined;
        source_note?: string | null | undefined;
        status: queries.ListRow['status'];
        items: ClassListItemRequest[];
      },
    ) {
      await books.checkReferences({
        level_id: body.level_id,
        city_id: body.city_id,
        subject_ids: body.items.map((i) => i.subject_id),
      });
      const id = await books.guardUnique(() =>
        uow.run(async (t) => {
          const listId = await queries.insertList(t.db, {
            schoolYear: body.school_year,
            levelId: body.level_id,
            kind: body.kind,
            schoolName: body.kind === 'school' ? (body.school_name ?? null) : null,
            cityId: body.city_id ?? null,
            sourceNote: body.source_note ?? null,
            status: body.status,
            reviewedBy: operatorId,
            publishedAt: body.status === 'published' ? new Date() : null,
          });
          await books.addItems(t.db, listId, body.items);
          return listId;
        }),
      );
      return books.detail(id);
    },

    async update(
      id: number,
      operatorId: string,
      body: {
        school_year?: string | undefined;
        level_id?: number | undefined;
        kind?: queries.ListRow['kind'] | undefined;
        school_name?: string | null | undefined;
        city_id?: number | null | undefined;
        source_note?: string | null | undefined;
        status?: queries.ListRow['status'] | undefined;
      },
    ) {
      const row = await books.listOrNotFound(id);
      await books.checkReferences({ level_id: body.level_id, city_id: body.city_id });
      const kind = body.kind ?? row.kind;
      const schoolName =
        kind === 'official' ? null : body.school_name !== undefined ? body.school_name : row.schoolName;
      if (kind === 'school' && !schoolName) throw unprocessable({ school_name: [m.schoolRequired] });
      const status = body.status ?? row.status;
      await books.guardUnique(() =>
        queries.updateList(db, row.id, {
          ...(body.school_year !== undefined ? { schoolYear: body.school_year } : {}),
          ...(body.level_id !== undefined ? { levelId: body.level_id } : {}),
          ...(body.city_id !== undefined ? { cityId: body.city_id } : {}),
          ...(body.source_note !== undefined ? { sourceNote: body.source_note } : {}),
          kind,
          schoolName,
          status,
          publishedAt: status === 'published' ? (row.publishedAt ?? new Date()) : row.publishedAt,
          rejectionReason: status === 'rejected' ? row.rejectionReason : null,
          reviewedBy: operatorId,
          updatedAt: new Date(),
        }),
      );
      return books.detail(row.id);
    },

    async remove(id: number) {
      if (!(await queries.deleteList(db, id))) throw notFound(m.notFound);
    },

    async addItem(listId: number, body: Parameters<typeof itemValues>[1]) {
      const row = await books.listOrNotFound(listId);
      await books.checkReferences({ subject_ids: [body.subject_id] });
      const itemId = await uow.run(async (t) => {
        // One writer per list at a time: the 60-book cap holds under concurrent additions, and
        // versions are numbered in order.
        const list = await lockedList(t.db, row.id);
        const { n, last } = await queries.itemTally(t.db, row.id);
        if (n >= CLASS_LIST_ITEMS_MAX) throw unprocessable({ items: [m.tooManyItems] });
        const [item] = await queries.insertItems(t.db, [itemValues(row.id, body, last + 1)]);
        await queries.touchList(t.db, row.id);
        await recordVersion(t, list, 'admin', [{ kind: 'added', item: changedItem(item!), previous: null }]);
        return item!.id;
      });
      return (await books.itemDtos([(await queries.itemById(db, itemId))!]))[0]!;
    },

    /** A book corrected in place; a change of its title or ISBN is a new version. */
    async updateItem(listId: number, itemId: number, b: ItemUpdate) {
      const item = await itemOrNotFound(listId, itemId);
      await books.checkReferences({ subject_ids: [b.subject_id] });
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
      const updated = await uow.run(async (t) => {
        const list = await lockedList(t.db, item.listId);
        const rows = Object.keys(set).length ? await queries.updateItem(t.db, item.id, set) : [item];
        await queries.touchList(t.db, item.listId);
        const after = rows[0]!;
        // Another title (not only its accents, case or punctuation) or another ISBN is another book
        // for the families and the sellers: a version, as a replacement in place (the marks stay).
        if (after.titleKey !== item.titleKey || after.isbn !== item.isbn)
          await recordVersion(t, list, 'admin', [
            { kind: 'replaced', item: changedItem(after), previous: changedItem(item) },
          ]);
        return after;
      });
      return (await books.itemDtos([updated]))[0]!;
    },

    /** A book withdrawn from the list: a new version; families and sellers are told. */
    async removeItem(listId: number, itemId: number) {
      const item = await itemOrNotFound(listId, itemId);
      await uow.run(async (t) => {
        const list = await lockedList(t.db, item.listId);
        await queries.deleteItem(t.db, item.id);
        await queries.touchList(t.db, item.listId);
        await recordVersion(t, list, 'admin', [{ kind: 'withdrawn', item: changedItem(item), previous: null }]);
      });
    },

    /**
     * A book replaced by another (a new edition, another title): the new one takes its place and
     * position, under a new id, so a family's « déjà obtenu » mark stays with the old book.
     */
    async replaceItem(listId: number, itemId: number, body: Parameters<typeof itemValues>[1]) {
      const item = await itemOrNotFound(listId, itemId);
      await books.checkReferences({ subject_ids: [body.subject_id] });
      const newId = await uow.run(async (t) => {
        const list = await lockedList(t.db, item.listId);
        if (!(await queries.itemOf(t.db, listId, itemId))) throw notFound(m.itemNotFound);
        await queries.deleteItem(t.db, item.id);
        const [added] = await queries.insertItems(t.db, [
          itemValues(item.listId, { ...body, position: body.position ?? item.position }, item.position),
        ]);
        await queries.touchList(t.db, item.listId);
        await recordVersion(t, list, 'admin', [
          { kind: 'replaced', item: changedItem(added!), previous: changedItem(item) },
        ]);
        return added!.id;
      });
      return (await books.itemDtos([(await queries.itemById(db, newId))!]))[0]!;
    },

    /** The list's versions, the newest first. */
    async versions(listId: number) {
      const row = await books.listOrNotFound(listId);
      return (await versions.versionsOf(db, row.id)).map(versions.versionDto);
    },

    /** A list copied to another school year, as a draft with the same books. */
    async copy(id: number, operatorId: string, schoolYear: string) {
      const row = await books.listOrNotFound(id);
      if (schoolYear === row.schoolYear) throw unprocessable({ school_year: [m.sameYear] });
      const items = await queries.itemsOf(db, row.id);
      const copyId = await books.guardUnique(() =>
        uow.run(async (t) => {
          const listId = await queries.insertList(t.db, {
            schoolYear,
            levelId: row.levelId,
            kind: row.kind,
            schoolName: row.schoolName,
            cityId: row.cityId,
            sourceNote: row.sourceNote,
            status: 'draft',
            reviewedBy: operatorId,
          });
          await queries.insertItems(
            t.db,
            items.map((i) => ({
              listId,
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
          return listId;
        }),
      );
      return books.detail(copyId);
    },
  };
}
export type ClassListAdmin = ReturnType<typeof classListAdmin>;
