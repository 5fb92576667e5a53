import type { CatalogStats, StatsPeriodQuery } from '@cartable/contracts';
import {
  type Db,
  dailyCounts,
  deleteOlderThan,
  type HousekeepingTask,
  lastWeek,
  libreville,
  periodOf,
  statsWindow,
  trend,
} from '@cartable/service-kit';
import { sql } from 'drizzle-orm';
import type { CategoryGraph } from '../modules/taxonomy/domain/category-graph.ts';

/** How long a day of search misses is kept. */
export const SEARCH_MISS_RETENTION_DAYS = 180;
export const searchMissRetention: HousekeepingTask = {
  name: 'search_misses',
  run: deleteOlderThan('search_misses', 'day', SEARCH_MISS_RETENTION_DAYS),
};

const MAX_QUERY = 100;
const TOP = 8;
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** The text as people type it, comparable: lower case, single spaces, bounded. */
export function normaliseSearch(text: string): string {
  return text.toLocaleLowerCase('fr').replace(/\s+/g, ' ').trim().slice(0, MAX_QUERY);
}

/**
 * Notes a catalogue search that found nothing (one row a day per text and category; a burst is
 * one upsert each). Only searches with a text count: filters alone say nothing of what is sought.
 */
export async function recordSearchMiss(db: Db, text: string | undefined, categoryIds: number[] = []) {
  const query = normaliseSearch(text ?? '');
  if (query.length < 2) return;
  const categoryId = categoryIds[0] ?? 0;
  await db.execute(sql`
    insert into search_misses (day, query, category_id) values (${libreville()}::date, ${query}, ${categoryId})
    on conflict (day, query, category_id)
    do update set searches = search_misses.searches + 1, last_seen = now()`);
}

/** A level sits between a cycle (a root) and the subjects (leaves): 6e, 2nde, Terminale C… */
const isLevel = (graph: CategoryGraph, id: number) => {
  const node = graph.nodes.get(id);
  return Boolean(node?.parents.length && node.children.length);
};
const isSubject = (graph: CategoryGraph, id: number) => {
  const node = graph.nodes.get(id);
  return Boolean(node?.parents.length && !node.children.length);
};

/** The catalogue's figures for the back office (dashboard and Rapports). */
/** Books « the community lacks » on the dashboard. */
const SHORTAGES = 10;

export async function catalogStats(db: Db, graph: CategoryGraph, query: StatsPeriodQuery): Promise<CatalogStats> {
  const window = statsWindow(query);
  const created = { from: sql`books`, at: sql`created_at` };
  const [byStatus, thisWeek, inPeriod, perDay, cities, categorySets, misses, shortages] = await Promise.all([
    db.execute(sql`select status, count(*)::int as n from books group by status`),
    trend(db, created, lastWeek()),
    trend(db, created, window),
    dailyCounts(db, created, window),
    db.execute(sql`
      select c.id, c.name, count(*)::int as count
      from books b join cities c on c.id = b.city_id
      where b.status <> 'vendu'
      group by c.id, c.name order by count desc, c.name limit ${TOP}`),
    // Few distinct sets (a subject and its level, mostly): classified here with the graph.
    db.execute(
      sql`select category_ids as ids, count(*)::int as n from books where status <> 'vendu' group by category_ids`,
    ),
    db.execute(sql`
      select query, category_id, sum(searches)::int as searches, max(last_seen) as last_seen
      from search_misses where day between ${window.from}::date and ${window.to}::date
      group by query, category_id order by searches desc, last_seen desc limit 50`),
    // The latest official lists' books: families' demand against what is listed. Exact matches
    // only (ISBN or the title's key), as « Ma liste » counts them.
    db.execute(sql`
      with latest as (
        select max(school_year) as year from class_lists where status = 'published' and kind = 'official'
      ),
      items as (
        select i.id, i.title, i.title_key, i.isbn, lc.name as level, l.school_year
        from class_list_items i
        join class_lists l on l.id = i.list_id and l.status = 'published' and l.kind = 'official'
        join latest on l.school_year = latest.year
        left join categories lc on lc.id = l.level_id
        where i.title_key <> ''
      )
      select it.id as item_id, it.title, coalesce(it.level, '') as level, it.school_year,
             (select count(*)::int from saved_class_lists s
                where s.list_id = (select list_id from class_list_items where id = it.id)
                  and not (it.id = any(s.owned_item_ids)))
             + (select count(*)::int from exchange_wishes w where w.class_list_item_id = it.id) as wanted,
             (select coalesce(sum(m.searches), 0)::int from search_misses m
                where m.day between ${window.from}::date and ${window.to}::date
                  and char_length(cartable_title_key(m.query)) >= 4
                  and it.title_key like '%' || cartable_title_key(m.query) || '%') as searched,
             -- Two index scans (ISBN; title key), as « Ma liste »: no index answers their OR.
             (select count(*)::int from (
                select b.id from books b
                where it.isbn is not null and b.isbn is not null and cartable_isbn_key(b.isbn) = it.isbn
                  and b.status <> 'vendu' and b.status = 'disponible' and b.hidden_at is null
                union
                select b.id from books b
                where cartable_title_key(b.title) = it.title_key
                  and b.status <> 'vendu' and b.status = 'disponible' and b.hidden_at is null) x) as available
      from items it`),
  ]);

  const statusCounts = { disponible: 0, réservé: 0, vendu: 0 };
  for (const row of rowsOf<{ status: keyof typeof statusCounts; n: number }>(byStatus)) {
    if (row.status in statusCounts) statusCounts[row.status] = row.n;
  }

  const levels = new Map<number, number>();
  const pairs = new Map<string, { level_id: number; subject_id: number; count: number }>();
  for (const { ids, n } of rowsOf<{ ids: number[]; n: number }>(categorySets)) {
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

  return {
    period: periodOf(window),
    total: statusCounts.disponible + statusCounts.réservé + statusCounts.vendu,
    by_status: statusCounts,
    this_week: thisWeek,
    listings: inPeriod,
    new_per_day: perDay,
    top_cities: rowsOf<{ id: number; name: string; count: number }>(cities),
    top_levels: [...levels]
      .map(([id, count]) => ({ id, name: name(id), count }))
      .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name, 'fr'))
      .slice(0, TOP),
    by_level_subject: [...pairs.values()]
      .map((p) => ({ ...p, level: name(p.level_id), subject: name(p.subject_id) }))
      .sort((a, b) => b.count - a.count || a.level.localeCompare(b.level, 'fr')),
    search_misses: rowsOf<{ query: string; category_id: number; searches: number; last_seen: Date | string }>(
      misses,
    ).map((m) => ({
      query: m.query,
      category: m.category_id ? name(m.category_id) : null,
      searches: m.searches,
      last_seen: new Date(m.last_seen).toISOString(),
    })),
    shortages: rowsOf<{
      item_id: number;
      title: string;
      level: string;
      school_year: string;
      wanted: number;
      searched: number;
      available: number;
    }>(shortages)
      .filter((s) => s.wanted + s.searched > 0)
      .sort((a, b) => b.wanted + b.searched - (a.wanted + a.searched) || a.available - b.available)
      .slice(0, SHORTAGES)
      .map((s) => ({ ...s, item_id: Number(s.item_id) })),
  };
}
