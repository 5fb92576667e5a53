import type { ClassListChange, ClassListRef } from '@cartable/contracts';
import type { Db, Transaction } from '@cartable/service-kit';
import type * as queries from '../db/queries.ts';
import * as versions from '../db/versions.ts';

/** A book as a version's change names it. */
export const changedItem = (i: Pick<queries.ItemRow, 'id' | 'title' | 'isbn'>) => ({
  id: i.id,
  title: i.title,
  isbn: i.isbn,
});

export async function listRef(db: Db, list: queries.ListRow): Promise<ClassListRef> {
  return {
    id: list.id,
    level_id: list.levelId,
    school_year: list.schoolYear,
    level_name: await versions.levelNameOf(db, list.levelId),
    school_name: list.schoolName,
  };
}

/**
 * A change of a list's books, in the change's transaction (the list locked by the caller): a new
 * version row, the withdrawn books kept for the listings' pages and the families' marks, and
 * catalog.class_list.changed with the diff. When the list is published, every member who saved it
 * gets catalog.class_list.saved_changed, and every seller of an available listing of a withdrawn
 * book that the list names no more gets catalog.class_list.listing_withdrawn: the events are
 * written with the version, so each is told once whatever the retries.
 */
export async function recordVersion(
  t: Transaction,
  list: queries.ListRow,
  source: versions.VersionRow['source'],
  changes: ClassListChange[],
) {
  if (!changes.length) return null;
  const number = await versions.nextVersionNumber(t.db, list.id);
  const row = await versions.insertVersion(t.db, { listId: list.id, number, source, changes });
  const withdrawn = changes.flatMap((c) =>
    c.kind === 'withdrawn' ? [c.item] : c.kind === 'replaced' && c.previous ? [c.previous] : [],
  );
  await versions.insertWithdrawals(t.db, list.id, number, withdrawn);
  const ref = await listRef(t.db, list);
  const at = new Date(row.createdAt).toISOString();
  await t.record('catalog.class_list.changed', {
    list: ref,
    status: list.status,
    version: number,
    source,
    changes,
    at,
  });
  if (list.status !== 'published') return row;

  const members = await versions.savedMembersOf(t.db, list.id);
  if (members.length)
    await t.recordAll(
      'catalog.class_list.saved_changed',
      members.map((userId) => ({ user_id: userId, list: ref, version: number, changes, at })),
    );
  const listings = await versions.listingsOfWithdrawn(t.db, list.id, withdrawn);
  if (listings.length)
    await t.recordAll(
      'catalog.class_list.listing_withdrawn',
      listings.map((l) => ({
        user_id: l.user_id,
        list: ref,
        version: number,
        book: { id: Number(l.book_id), title: l.book_title },
        item: { id: Number(l.item_id), title: l.item_title },
        at,
      })),
    );
  return row;
}
