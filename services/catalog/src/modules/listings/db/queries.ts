import { type Db, rowsOf } from '@cartable/service-kit';
import { inArray, sql } from 'drizzle-orm';
import { books } from './schema.ts';

// ── what the listings say of taxonomy's categories and towns ─────────────────────────────────

/**
 * Listings of the public catalogue (not sold, not hidden, seller active) that each category
 * wholly contains, each listing once, given the pairs (category, a category it wholly contains).
 */
export async function countShownWithin(db: Db, within: Array<[number, number]>): Promise<Array<[number, number]>> {
  if (!within.length) return [];
  const pairs = within.map(([ancestor, descendant]) => sql`(${ancestor}::int, ${descendant}::int)`);
  const rows = await rowsOf<{ id: number; n: number }>(
    db,
    sql`select w.ancestor as id, count(distinct bc.book_id)::int as n
      from (values ${sql.join(pairs, sql`, `)}) as w(ancestor, descendant)
      join (
        select b.id as book_id, unnest(b.category_ids) as category_id from ${books} b
        where b.status <> 'vendu' and b.hidden_at is null and not b.seller_away
      ) bc on bc.category_id = w.descendant
      group by w.ancestor`,
  );
  return rows.map((r) => [Number(r.id), Number(r.n)]);
}

/** Listings in any state (sold and hidden ones too) that carry this category. */
export async function countWithCategory(db: Db, categoryId: number) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(books)
    .where(sql`${books.categoryIds} @> array[${categoryId}]::integer[]`);
  return row?.n ?? 0;
}

/** Listings (any state) placed in each of these towns. */
export async function countInTowns(db: Db, cityIds: number[]) {
  if (!cityIds.length) return new Map<number, number>();
  const rows = await db
    .select({ cityId: books.cityId, n: sql<number>`count(*)::int` })
    .from(books)
    .where(inArray(books.cityId, cityIds))
    .groupBy(books.cityId);
  return new Map(rows.map((r) => [r.cityId!, r.n]));
}
