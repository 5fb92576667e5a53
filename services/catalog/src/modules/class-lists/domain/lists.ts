import {
  CLASS_LIST_ITEMS_MAX,
  CLASS_LISTS_PER_PAGE,
  type ClassList,
  type ClassListDetail,
  type ClassListItem,
  type ClassListItemRequest,
  classListItemRequestSchema,
  classListKindLabels,
  classListRequirementLabels,
  classListStatusLabels,
  classListMessages as m,
} from '@cartable/contracts';
import { conflict, type Db, isUniqueViolation, notFound, type UnitOfWork, unprocessable } from '@cartable/service-kit';
import { type CategoryStore, type CategoryView, existingCityIds, kindOf, townNames } from '../../taxonomy/index.ts';
import * as queries from '../db/queries.ts';
import { listReviewed } from '../events.ts';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
/** A member has at most this many proposals waiting for an operator. */
const PENDING_PROPOSALS_MAX = 5;

/** A unique violation on (year, level, kind, school) as a French 409. */
export const duplicateList = () => conflict(m.duplicateList, { school_year: [m.duplicateList] });

/** A unique violation is the 409 of a second list for the same year, level and school. */
async function guardUnique<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicateList();
    throw err;
  }
}

type ParsedItem = ReturnType<typeof classListItemRequestSchema.parse>;
export const itemValues = (listId: number, item: ParsedItem, position: number): queries.ItemValues => ({
  listId,
  title: item.title,
  author: item.author,
  publisher: item.publisher,
  edition: item.edition,
  year: item.year,
  isbn: item.isbn,
  subjectId: item.subject_id,
  requirement: item.requirement,
  position: item.position ?? position,
});

const nameOf = (view: CategoryView, id: number) => view.graph.nodes.get(id)?.name;

/** Lists and their books as the API shows them, and the rules every write of a list obeys. */
export function classListBooks(db: Db, categories: CategoryStore) {
  /** The answers' form of lists, with level and town names and item counts. */
  async function listDtos(rows: queries.ListRow[], on: Db = db): Promise<ClassList[]> {
    if (!rows.length) return [];
    const [view, towns, counts] = await Promise.all([
      categories.view(),
      townNames(
        on,
        rows.flatMap((r) => (r.cityId ? [r.cityId] : [])),
      ),
      queries.itemCounts(
        on,
        rows.map((r) => r.id),
      ),
    ]);
    return rows.map((r) => ({
      id: r.id,
      school_year: r.schoolYear,
      level: { id: r.levelId, name: nameOf(view, r.levelId) ?? 'Niveau supprimé' },
      kind: r.kind,
      kind_label: classListKindLabels[r.kind],
      school_name: r.schoolName,
      city:
        r.cityId && towns.has(r.cityId)
          ? { id: r.cityId, name: towns.get(r.cityId)!.name, province: towns.get(r.cityId)!.province }
          : null,
      status: r.status,
      status_label: classListStatusLabels[r.status],
      source_note: r.sourceNote,
      rejection_reason: r.rejectionReason,
      proposed_by: r.proposedBy,
      items_count: counts.get(r.id)?.n ?? 0,
      required_count: counts.get(r.id)?.required ?? 0,
      published_at: iso(r.publishedAt),
      created_at: iso(r.createdAt)!,
      updated_at: iso(r.updatedAt)!,
    }));
  }

  async function itemDtos(rows: queries.ItemRow[]): Promise<ClassListItem[]> {
    const view = await categories.view();
    return rows.map((r) => ({
      id: r.id,
      list_id: r.listId,
      title: r.title,
      author: r.author,
      publisher: r.publisher,
      edition: r.edition,
      year: r.year,
      isbn: r.isbn,
      subject: r.subjectId ? { id: r.subjectId, name: nameOf(view, r.subjectId) ?? 'Matière supprimée' } : null,
      requirement: r.requirement,
      requirement_label: classListRequirementLabels[r.requirement],
      position: r.position,
    }));
  }

  async function listOrNotFound(id: number) {
    const row = await queries.listById(db, id);
    if (!row) throw notFound(m.notFound);
    return row;
  }

  async function detail(id: number): Promise<ClassListDetail> {
    const row = await listOrNotFound(id);
    const [[list], items] = await Promise.all([listDtos([row]), queries.itemsOf(db, id)]);
    return { ...list!, items: await itemDtos(items) };
  }

  /** Level (a level or a series, not a subject), subjects and town exist; French field errors otherwise. */
  async function checkReferences(refs: {
    level_id?: number | undefined;
    city_id?: number | null | undefined;
    subject_ids?: unknown[];
  }) {
    const view = await categories.view();
    const errors: Record<string, string[]> = {};
    if (refs.level_id !== undefined) {
      if (!view.graph.nodes.has(refs.level_id) || kindOf(view.graph, refs.level_id) === 'subject')
        errors.level_id = [m.levelNotFound];
    }
    const subjects = [...new Set((refs.subject_ids ?? []).filter((id): id is number => typeof id === 'number'))];
    if (subjects.some((id) => !view.graph.nodes.has(id))) errors.subject_id = [m.subjectNotFound];
    if (refs.city_id && !(await existingCityIds(db, [refs.city_id])).length) errors.city_id = [m.cityNotFound];
    if (Object.keys(errors).length) throw unprocessable(errors);
  }

  /** Adds items at the end of the list, within its 60 books. */
  async function addItems(on: Db, listId: number, items: ClassListItemRequest[]) {
    const parsed = items.map((i) => classListItemRequestSchema.parse(i));
    if (!parsed.length) return;
    const { n, last } = await queries.itemTally(on, listId);
    if (n + parsed.length > CLASS_LIST_ITEMS_MAX) throw unprocessable({ items: [m.tooManyItems] });
    await queries.insertItems(
      on,
      parsed.map((item, i) => itemValues(listId, item, last + 1 + i)),
    );
  }

  async function page(filter: queries.ListFilter, order: 'public' | 'review', pageNo: number) {
    const { rows, total } = await queries.listPage(db, filter, order, {
      limit: CLASS_LISTS_PER_PAGE,
      offset: (pageNo - 1) * CLASS_LISTS_PER_PAGE,
    });
    return {
      data: await listDtos(rows),
      meta: { current_page: pageNo, last_page: Math.max(1, Math.ceil(total / CLASS_LISTS_PER_PAGE)), total },
    };
  }

  return { listDtos, itemDtos, listOrNotFound, detail, checkReferences, addItems, page, guardUnique };
}
export type ClassListBooks = ReturnType<typeof classListBooks>;

/** A member proposes a list (an operator publishes or rejects it), at most five waiting at once. */
export function proposeList(uow: UnitOfWork, books: ClassListBooks) {
  return async (
    userId: string,
    body: {
      school_year: string;
      level_id: number;
      kind: queries.ListRow['kind'];
      school_name?: string | null | undefined;
      city_id?: number | null | undefined;
      source_note?: string | null | undefined;
      items: ClassListItemRequest[];
    },
  ) => {
    await books.checkReferences({
      level_id: body.level_id,
      city_id: body.city_id,
      subject_ids: body.items.map((i) => i.subject_id),
    });
    if ((await queries.pendingProposalsOf(uow.db, userId)) >= PENDING_PROPOSALS_MAX)
      throw conflict(`Vous avez déjà ${PENDING_PROPOSALS_MAX} listes en attente de validation.`);
    const id = await uow.run(async (t) => {
      const listId = await queries.insertList(t.db, {
        schoolYear: body.school_year,
        levelId: body.level_id,
        kind: body.kind,
        schoolName: body.school_name ?? null,
        cityId: body.city_id ?? null,
        sourceNote: body.source_note ?? null,
        status: 'proposed',
        proposedBy: userId,
      });
      await books.addItems(t.db, listId, body.items);
      return listId;
    });
    return books.detail(id);
  };
}

/** A proposal reviewed by an operator: published, or rejected with the reason its author reads. */
export function reviewList(uow: UnitOfWork, books: ClassListBooks) {
  return async (
    id: number,
    operatorId: string,
    outcome: { published: true } | { published: false; reason: string },
  ) => {
    const row = await books.listOrNotFound(id);
    if (row.status !== 'proposed') throw conflict(m.notProposed);
    const now = new Date();
    await books.guardUnique(() =>
      uow.run(async (t) => {
        const done = await queries.reviewProposal(
          t.db,
          row.id,
          outcome.published
            ? { status: 'published', publishedAt: now, reviewedBy: operatorId, rejectionReason: null, updatedAt: now }
            : { status: 'rejected', rejectionReason: outcome.reason, reviewedBy: operatorId, updatedAt: now },
        );
        if (!done) throw conflict(m.notProposed);
        const [dto] = await books.listDtos([done], t.db);
        await listReviewed(
          t,
          dto!,
          outcome.published ? 'published' : 'rejected',
          outcome.published ? null : outcome.reason,
        );
      }),
    );
    return books.detail(row.id);
  };
}
