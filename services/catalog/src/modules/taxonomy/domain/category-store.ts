import { Cache, type Db, type Redis } from '@cartable/service-kit';
import type { Logger } from 'pino';
import { readCategoryGraph } from '../db/queries.ts';
import { CategoryGraph } from './category-graph.ts';
import type { TaxonomyUsage } from './usage.ts';

interface Snapshot {
  categories: Array<{ id: number; name: string; order: number }>;
  edges: Array<{ categoryId: number; parentId: number }>;
  /** Books in the public catalogue, in each category or below it, each once. */
  counts: Array<[number, number]>;
}

export interface CategoryView {
  graph: CategoryGraph;
  bookCount(id: number): number;
}

const SHARED_TTL_SECONDS = 12 * 3600;
const LOCAL_TTL_MS = 5000;

export interface CategoryStore {
  view(): Promise<CategoryView>;
  /** The hierarchy or the listings changed: the next view is built anew (and Redis's copy dropped). */
  clear(): void;
}

/**
 * The hierarchy and its book counts, built from the database at most once per change: shared
 * by every catalog replica through Redis for 12 hours (SPEC.md section 9), dropped when a
 * category or a listing changes, and kept here for a few seconds so a request costs nothing.
 */
export function createCategoryStore(options: {
  db: Db;
  redis: Redis | undefined;
  prefix: string;
  log: Pick<Logger, 'warn'>;
  usage: Pick<TaxonomyUsage, 'shownListingsWithin'>;
}): CategoryStore {
  const { db, redis, log } = options;
  const key = `${options.prefix}catalog:categories`;
  const local = new Cache<'view', CategoryView>({ max: 1, ttlMs: LOCAL_TTL_MS });

  async function build(): Promise<Snapshot> {
    const { nodes, edges } = await readCategoryGraph(db);
    // Counted as the catalogue filters: what each category wholly contains.
    const graph = new CategoryGraph(nodes, edges);
    const within = nodes.flatMap((c) => graph.within(c.id).map((d): [number, number] => [c.id, d]));
    const counts = within.length ? await options.usage.shownListingsWithin(db, within) : [];
    return { categories: nodes, edges, counts };
  }

  function toView(snapshot: Snapshot): CategoryView {
    const counts = new Map(snapshot.counts);
    return { graph: new CategoryGraph(snapshot.categories, snapshot.edges), bookCount: (id) => counts.get(id) ?? 0 };
  }

  return {
    view: () =>
      local.read('view', async (current) => {
        const shared = await redis?.get(key).catch(() => null);
        if (shared) return toView(JSON.parse(shared) as Snapshot);
        const snapshot = await build();
        // A snapshot built from reads that a change overtook is neither kept nor shared.
        if (current()) {
          await redis?.set(key, JSON.stringify(snapshot), 'EX', SHARED_TTL_SECONDS).catch((err: unknown) => {
            log.warn({ err }, 'category cache not written');
          });
        }
        return toView(snapshot);
      }),
    clear() {
      local.clear();
      redis?.del(key).catch(() => {});
    },
  };
}
