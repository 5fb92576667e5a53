import type { CatalogStats, StatsPeriodQuery } from '@cartable/contracts';
import { type Db, periodOf, statsWindow } from '@cartable/service-kit';
import { availableExactly, latestOfficialDemand } from '../../class-lists/index.ts';
import { wishesForItems } from '../../exchanges/index.ts';
import { listingFigures } from '../../listings/index.ts';
import { missesMatchingTitles, topMisses } from '../../search/index.ts';
import type { CategoryGraph } from '../../taxonomy/index.ts';

const TOP = 8;
/** Books « the community lacks » on the dashboard. */
const SHORTAGES = 10;

/** A level sits between a cycle (a root) and the subjects (leaves): 6e, 2nde, Terminale C… */
const isLevel = (graph: CategoryGraph, id: number) => {
  const node = graph.nodes.get(id);
  return Boolean(node?.parents.length && node.children.length);
};
const isSubject = (graph: CategoryGraph, id: number) => {
  const node = graph.nodes.get(id);
  return Boolean(node?.parents.length && !node.children.length);
};

/**
 * The catalogue's figures for the back office (dashboard and Rapports), each module answering for
 * its own: the listings, the searches that found nothing, and the latest official lists' books
 * set against what families want (saved lists still missing them, exchange wishes, searches in
 * vain) and what is listed.
 */
export async function catalogFigures(db: Db, graph: CategoryGraph, query: StatsPeriodQuery): Promise<CatalogStats> {
  const window = statsWindow(query);
  const [listings, misses, demand] = await Promise.all([
    listingFigures(db, window, TOP),
    topMisses(db, window, 50),
    latestOfficialDemand(db),
  ]);
  const [wished, searched, available] = await Promise.all([
    wishesForItems(
      db,
      demand.map((d) => Number(d.item_id)),
    ),
    missesMatchingTitles(db, window, [...new Set(demand.map((d) => d.title_key))]),
    availableExactly(
      db,
      demand.map((d) => ({ id: Number(d.item_id), isbn: d.isbn, titleKey: d.title_key })),
    ),
  ]);

  const statusCounts = { disponible: 0, réservé: 0, vendu: 0 };
  for (const row of listings.byStatus) {
    if (row.status in statusCounts) statusCounts[row.status] = row.n;
  }

  const levels = new Map<number, number>();
  const pairs = new Map<string, { level_id: number; subject_id: number; count: number }>();
  for (const { ids, n } of listings.categorySets) {
    const bookLevels = ids.filter((id) => isLevel(graph, id));
    const subjects = ids.filter((id) => isSubject(graph, id));
    for (const level of bookLevels) {
      levels.set(level, (levels.get(level) ?? 0) + n);
      for (const subject of subjects) {
        const key = `${level}:${subject}`;
        const pair = pairs.get(key) ?? { level_id: level, subject_id: subject, count: 0 };
        pair.count += n;
        pairs.set(key, pair);
      }
    }
  }
  const name = (id: number) => graph.nodes.get(id)?.name ?? `Catégorie ${id}`;
  const shortages = demand.map((d) => {
    const id = Number(d.item_id);
    return {
      item_id: id,
      title: d.title,
      level: d.level,
      school_year: d.school_year,
      wanted: d.saved_missing + (wished.get(id) ?? 0),
      searched: searched.get(d.title_key) ?? 0,
      available: available.get(id) ?? 0,
    };
  });

  return {
    period: periodOf(window),
    total: statusCounts.disponible + statusCounts.réservé + statusCounts.vendu,
    by_status: statusCounts,
    this_week: listings.thisWeek,
    listings: listings.inPeriod,
    new_per_day: listings.perDay,
    top_cities: listings.towns,
    top_levels: [...levels]
      .map(([id, count]) => ({ id, name: name(id), count }))
      .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name, 'fr'))
      .slice(0, TOP),
    by_level_subject: [...pairs.values()]
      .map((p) => ({ ...p, level: name(p.level_id), subject: name(p.subject_id) }))
      .sort((a, b) => b.count - a.count || a.level.localeCompare(b.level, 'fr')),
    search_misses: misses.map((m) => ({
      query: m.query,
      category: m.categoryId ? name(m.categoryId) : null,
      searches: m.searches,
      last_seen: new Date(m.lastSeen).toISOString(),
    })),
    shortages: shortages
      .filter((s) => s.wanted + s.searched > 0)
      .sort((a, b) => b.wanted + b.searched - (a.wanted + a.searched) || a.available - b.available)
      .slice(0, SHORTAGES),
  };
}
