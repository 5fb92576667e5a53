import type { Db, Redis } from '@cartable/service-kit';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { categories, categoryParents } from '../db/schema.ts';
import { CategoryGraph } from './category-graph.ts';

interface Snapshot {
  categories: Array<{ id: number; name: string; order: number }>;
  edges: Array<{ categoryId: number; parentId: number }>;
  /** Books in the public catalogue (not sold, not hidden, seller active), in each category or below it, each once. */
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
  /**
   * One more at each change: a view built from reads that began before a change (a concurrent
   * request's) is neither handed to a later caller nor written to Redis, so a category just
   * created is always in the view its own request reads next.
   */
  let generation = 0;
  let building: { generation: number; view: Promise<CategoryView> } | null = null;

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
          join (
            select b.id as book_id, unnest(b.category_ids) as category_id from books b
            where b.status <> 'vendu' and b.hidden_at is null
              and not b.seller_away
          ) bc
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

  async function load(started: number): Promise<CategoryView> {
    const cached = await redis?.get(key).catch(() => null);
    if (cached) return toView(JSON.parse(cached) as Snapshot);
    const snapshot = await build();
    if (started === generation) {
      await redis?.set(key, JSON.stringify(snapshot), 'EX', SHARED_TTL_SECONDS).catch((err: unknown) => {
        log.warn({ err }, 'category cache not written');
      });
    }
    return toView(snapshot);
  }

  return {
    async view(): Promise<CategoryView> {
      if (local && Date.now() - local.at < LOCAL_TTL_MS) return local.view;
      if (building?.generation !== generation) {
        const started = generation;
        const current = {
          generation: started,
          view: load(started)
            .then((view) => {
              if (started === generation) local = { at: Date.now(), view };
              return view;
            })
            .finally(() => {
              if (building === current) building = null;
            }),
        };
        building = current;
      }
      return building.view;
    },
    async invalidate() {
      generation++;
      local = null;
      await redis?.del(key).catch(() => {});
    },
  };
}
export type CategoryStore = ReturnType<typeof createCategoryStore>;
