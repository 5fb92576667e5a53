import type { Db, Redis } from '@cartable/service-kit';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { categories, categoryParents } from '../db/schema.ts';
import { CategoryGraph } from './category-graph.ts';

interface Snapshot {
  categories: Array<{ id: number; name: string; order: number }>;
  edges: Array<{ categoryId: number; parentId: number }>;
  /** Books not sold, in each category or below it, each book counted once. */
  counts: Array<[number, number]>;
}

export interface CategoryView {
  graph: CategoryGraph;
  bookCount(id: number): number;
}

const SHARED_TTL_SECONDS = 12 * 3600;
const LOCAL_TTL_MS = 5000;

/**
 * The hierarchy and its book counts, built from the database at most once per change: shared
 * by every catalog replica through Redis for 12 hours (SPEC.md section 9), dropped when a
 * category or a book changes, and memoised here for a few seconds so a request costs nothing.
 */
export function createCategoryStore(db: Db, redis: Redis | undefined, prefix: string, log: Logger) {
  const key = `${prefix}catalog:categories`;
  let local: { at: number; view: CategoryView } | null = null;
  let building: Promise<CategoryView> | null = null;

  async function build(): Promise<Snapshot> {
    const [cats, edges] = await Promise.all([
      db.select({ id: categories.id, name: categories.name, order: categories.order }).from(categories),
      db.select({ categoryId: categoryParents.categoryId, parentId: categoryParents.parentId }).from(categoryParents),
    ]);
    // Counted as the catalogue filters: what each category wholly contains.
    const graph = new CategoryGraph(cats, edges);
    const pairs = cats.flatMap((c) => graph.within(c.id).map((d) => sql`(${c.id}::int, ${d}::int)`));
    const counts = pairs.length
      ? await db.execute(sql`
          select w.ancestor as id, count(distinct bc.book_id)::int as n
          from (values ${sql.join(pairs, sql`, `)}) as w(ancestor, descendant)
          join (select b.id as book_id, unnest(b.category_ids) as category_id from books b where b.status <> 'vendu') bc
            on bc.category_id = w.descendant
          group by w.ancestor`)
      : { rows: [] };
    // node-postgres and PGlite both answer { rows }.
    const rows = (counts as unknown as { rows: Array<{ id: number; n: number }> }).rows;
    return { categories: cats, edges, counts: rows.map((r) => [Number(r.id), Number(r.n)]) };
  }

  function toView(snapshot: Snapshot): CategoryView {
    const counts = new Map(snapshot.counts);
    return { graph: new CategoryGraph(snapshot.categories, snapshot.edges), bookCount: (id) => counts.get(id) ?? 0 };
  }

  async function load(): Promise<CategoryView> {
    const cached = await redis?.get(key).catch(() => null);
    if (cached) return toView(JSON.parse(cached) as Snapshot);
    const snapshot = await build();
    await redis?.set(key, JSON.stringify(snapshot), 'EX', SHARED_TTL_SECONDS).catch((err: unknown) => {
      log.warn({ err }, 'category cache not written');
    });
    return toView(snapshot);
  }

  return {
    async view(): Promise<CategoryView> {
      if (local && Date.now() - local.at < LOCAL_TTL_MS) return local.view;
      building ??= load()
        .then((view) => {
          local = { at: Date.now(), view };
          return view;
        })
        .finally(() => {
          building = null;
        });
      return building;
    },
    async invalidate() {
      local = null;
      await redis?.del(key).catch(() => {});
    },
  };
}
export type CategoryStore = ReturnType<typeof createCategoryStore>;
