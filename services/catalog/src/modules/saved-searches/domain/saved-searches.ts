import { randomBytes, timingSafeEqual } from 'node:crypto';
import {
  type BookListQuery,
  conditionFlagFilterLabels,
  conditionLabels,
  savedSearchMessages as m,
  SAVED_SEARCHES_MAX,
  type SavedSearch,
  type SavedSearchFilters,
  type SavedSearchFrequency,
  savedSearchFrequencyLabels,
  savedSearchQueryString,
} from '@cartable/contracts';
import {
  conflict,
  formatFcfa,
  isUniqueViolation,
  notFound,
  type Transaction,
  type UnitOfWork,
  unprocessable,
} from '@cartable/service-kit';
import { planSearch } from '../../search/index.ts';
import { type CategoryStore, type CategoryView, existingCategoryIds, townNames } from '../../taxonomy/index.ts';
import * as queries from '../db/queries.ts';
import { savedSearchesMatched, savedSearchStopped } from '../events.ts';

type Row = queries.SavedSearchRow;

const unique = (ids: number[]) => [...new Set(ids)];
const fcfa = (n: number) => formatFcfa(n, ' ');
/** What the catalogue reads as an ISBN (search's text condition). */
const isbnOf = (text: string) => {
  const compact = text.replace(/[-\s]/g, '');
  return /^\d{9,13}[\dXx]?$/.test(compact) ? compact : null;
};
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/**
 * The filters as the catalogue reads them (search's planner): levels and subjects in the text
 * become category conditions unless `literal` or an explicit category of that kind wins;
 * explicit categories as the graph's filter groups. `any`: a category every match has (the
 * smallest set of each group, together; [0] for no condition), for the candidates' index.
 */
export function resolveFilters(filters: SavedSearchFilters, view: CategoryView) {
  const graph = view.graph;
  const plan = planSearch({ ...filters, page: 1 } as BookListQuery, view);
  const text = (plan ? plan.query.query : filters.query)?.trim() || null;
  const understood = plan
    ? [plan.filter.levelIds, plan.filter.subjectIds]
        .filter((ids) => ids.length > 0)
        .map((ids) => unique(ids.flatMap((id) => graph.within(id))))
    : [];
  const explicit = filters.category_ids?.length ? graph.filterGroups(filters.category_ids) : [];
  const groups = explicit.length
    ? explicit.map((sets) => [...sets, ...understood])
    : understood.length
      ? [understood]
      : null;
  const any = groups
    ? unique(groups.flatMap((sets) => sets.reduce((a, b) => (b.length < a.length ? b : a)))).sort((a, b) => a - b)
    : [0];
  return { groups, any, text, isbn: text ? isbnOf(text) : null };
}

/** « maths 6e · Mathématiques · Libreville · 1 000 à 5 000 FCFA · Bon état · Négociable · Échange possible ». */
export function summarize(filters: SavedSearchFilters, view: CategoryView, cityName: string | null): string {
  const parts: string[] = [];
  if (filters.query) parts.push(`« ${filters.query} »`);
  for (const id of filters.category_ids ?? []) {
    const name = view.graph.nodes.get(id)?.name;
    if (name) parts.push(name);
  }
  if (cityName) parts.push(cityName);
  const { min_price: min, max_price: max } = filters;
  if (min !== undefined && max !== undefined) parts.push(min === max ? fcfa(min) : `${fcfa(min)} à ${fcfa(max)}`);
  else if (max !== undefined) parts.push(max === 0 ? 'Dons uniquement' : `${fcfa(max)} au plus`);
  else if (min !== undefined) parts.push(`${fcfa(min)} au moins`);
  if (filters.condition) parts.push(conditionLabels[filters.condition]);
  for (const flag of filters.without_flags ?? []) parts.push(conditionFlagFilterLabels[flag]);
  if (filters.is_negociable !== undefined) parts.push(filters.is_negociable ? 'Négociable' : 'Prix ferme');
  if (filters.is_exchange_possible !== undefined)
    parts.push(filters.is_exchange_possible ? 'Échange possible' : 'Sans échange');
  return parts.join(' · ') || 'Toutes les annonces';
}

/** The columns of a saved search for these filters. */
export function resolvedColumns(
  filters: SavedSearchFilters,
  view: CategoryView,
  cityName: string | null,
): queries.ResolvedColumns {
  const resolved = resolveFilters(filters, view);
  return {
    filters,
    summary: summarize(filters, view, cityName),
    categoryAny: resolved.any,
    categoryGroups: resolved.groups,
    text: resolved.text,
    isbn: resolved.isbn,
  };
}

/**
 * `<id>.<32 random bytes, base64url>`: a secret per saved search, kept on its row, so one link
 * stops that search only, needs no login and no shared key to rotate.
 */
export const newUnsubscribeSecret = () => randomBytes(32).toString('base64url');
export const unsubscribeTokenOf = (row: Pick<Row, 'id' | 'unsubscribeToken'>) => `${row.id}.${row.unsubscribeToken}`;

/** A second search under the same name (case ignored) is the 409 of the name. */
async function guardName<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(m.nameTaken, { name: [m.nameTaken] });
    throw err;
  }
}

/**
 * Saved searches with alerts (services/catalog/API.md « Saved searches »): the filters are
 * resolved once, when saved, into columns; a listing that becomes available is matched against
 * every active saved search by one statement, in the transaction that lists it (a reaction to
 * listings' events).
 */
export function savedSearchService(uow: UnitOfWork, categories: CategoryStore) {
  const db = uow.db;

  /** Unknown categories and towns are field errors (422); answers the town's name. */
  async function checkReferences(filters: SavedSearchFilters, view: CategoryView) {
    const errors: Record<string, string[]> = {};
    if (filters.category_ids?.some((id) => !view.graph.has(id))) {
      // The view may be a few seconds old: the database decides.
      const found = await existingCategoryIds(db, filters.category_ids);
      if (found.length !== filters.category_ids.length) errors['filters.category_ids'] = [m.categoryUnknown];
    }
    let cityName: string | null = null;
    if (filters.city_id) {
      cityName = (await townNames(db, [filters.city_id])).get(filters.city_id)?.name ?? null;
      if (!cityName) errors['filters.city_id'] = [m.cityUnknown];
    }
    if (Object.keys(errors).length) throw unprocessable(errors);
    return cityName;
  }

  async function dtos(rows: Row[]): Promise<SavedSearch[]> {
    const stats = await queries.matchStats(
      db,
      rows.map((r) => r.id),
    );
    return rows.map((r) => {
      const filters = r.filters as SavedSearchFilters;
      const stat = stats.get(r.id);
      return {
        id: r.id,
        name: r.name,
        frequency: r.frequency,
        frequency_label: savedSearchFrequencyLabels[r.frequency],
        filters,
        summary: r.summary,
        query_string: savedSearchQueryString(filters),
        active: r.active,
        match_count: Number(stat?.n ?? 0),
        last_match_at: iso(stat?.last ?? null),
        created_at: iso(r.createdAt)!,
        updated_at: iso(r.updatedAt)!,
      };
    });
  }

  /** The member's own saved search, or 404 (another member's is not theirs to know about). */
  async function own(userId: string, id: number) {
    const row = await queries.savedSearchOf(db, userId, id);
    if (!row) throw notFound(m.notFound);
    return row;
  }

  /** The saved search a token names, or 404 (the same answer for a wrong id and a wrong secret). */
  async function byToken(token: string): Promise<Row> {
    const match = /^(\d{1,10})\.([A-Za-z0-9_-]{20,100})$/.exec(token);
    const id = match ? Number(match[1]) : 0;
    const row = id > 0 && id <= 2_147_483_647 ? await queries.savedSearchById(db, id) : undefined;
    const given = Buffer.from(match?.[2] ?? '');
    const expected = Buffer.from(row?.unsubscribeToken ?? '');
    if (!row || given.length !== expected.length || !timingSafeEqual(given, expected)) throw notFound(m.tokenInvalid);
    return row;
  }

  let refreshing: Promise<number> | null = null;
  let again = false;

  return {
    list: async (userId: string) => dtos(await queries.savedSearchesOf(db, userId)),

    async create(userId: string, body: { name: string; frequency: SavedSearchFrequency; filters: SavedSearchFilters }) {
      const view = await categories.view();
      const cityName = await checkReferences(body.filters, view);
      const row = await guardName(() =>
        uow.run(async (t) => {
          await queries.lockMemberSearches(t.db, userId);
          if ((await queries.countOf(t.db, userId)) >= SAVED_SEARCHES_MAX) throw conflict(m.tooMany);
          return queries.insertSavedSearch(
            t.db,
            { userId, name: body.name, frequency: body.frequency, unsubscribeToken: newUnsubscribeSecret() },
            resolvedColumns(body.filters, view, cityName),
          );
        }),
      );
      return (await dtos([row]))[0]!;
    },

    async update(
      userId: string,
      id: number,
      body: {
        name?: string | undefined;
        frequency?: SavedSearchFrequency | undefined;
        filters?: SavedSearchFilters | undefined;
        active?: boolean | undefined;
      },
    ) {
      const row = await own(userId, id);
      const { name, frequency, filters, active } = body;
      let resolved: queries.ResolvedColumns | null = null;
      if (filters) {
        const view = await categories.view();
        resolved = resolvedColumns(filters, view, await checkReferences(filters, view));
      }
      const updated = await guardName(() =>
        uow.run(async (t) => {
          const next = await queries.updateSavedSearch(
            t.db,
            row.id,
            userId,
            {
              ...(name !== undefined ? { name } : {}),
              ...(frequency !== undefined ? { frequency } : {}),
              ...(active !== undefined ? { active } : {}),
            },
            resolved,
          );
          if (row.active && active === false) await savedSearchStopped(t, row, 'paused');
          return next;
        }),
      );
      return (await dtos([updated]))[0]!;
    },

    async remove(userId: string, id: number) {
      const row = await own(userId, id);
      await uow.run(async (t) => {
        await queries.deleteSavedSearch(t.db, row.id);
        await savedSearchStopped(t, row, 'deleted');
      });
    },

    byToken,

    /** The one-click unsubscribe of an alert e-mail (no login: the token is the proof). Whether it was active. */
    async unsubscribe(token: string) {
      const row = await byToken(token);
      if (!row.active) return { row, changed: false };
      await uow.run(async (t) => {
        await queries.setActive(t.db, row.id, false);
        await savedSearchStopped(t, row, 'unsubscribed');
      });
      return { row: { ...row, active: false }, changed: true };
    },

    /**
     * Resolves every saved search again against the category graph as it is now (a category added
     * under « Collège », renamed or moved): after each change of the hierarchy, in the background,
     * one at a time (a change during a run asks for one more). Answers how many rows it rewrote.
     */
    refresh(): Promise<number> {
      if (refreshing) {
        again = true;
        return refreshing;
      }
      const run = async () => {
        let total = 0;
        do {
          again = false;
          const view = await categories.view();
          for (const row of await queries.everyFilter(db)) {
            await queries.setResolved(db, row.id, resolvedColumns(row.filters, view, row.city_name));
            total++;
          }
        } while (again);
        return total;
      };
      refreshing = run().finally(() => {
        refreshing = null;
      });
      return refreshing;
    },
  };
}
export type SavedSearchService = ReturnType<typeof savedSearchService>;

/**
 * A listing became available (created, back to « disponible », shown again, or edited): every
 * active saved search of another member it matches gets one saved_search_matches row and one
 * catalog.saved_search.matched event, in the listing's transaction; a (saved search, listing)
 * pair already alerted is skipped.
 */
export async function alertSavedSearches(t: Transaction, bookId: number, thumbnail: string | null): Promise<number> {
  const rows = await queries.writeMatchesFor(t.db, bookId);
  if (!rows.length) return 0;
  const at = new Date().toISOString();
  await savedSearchesMatched(
    t,
    rows.map((r) => ({
      saved_search_id: Number(r.id),
      user_id: r.user_id,
      name: r.name,
      frequency: r.frequency,
      summary: r.summary,
      query_string: savedSearchQueryString(r.filters),
      unsubscribe_token: unsubscribeTokenOf({ id: Number(r.id), unsubscribeToken: r.unsubscribe_token }),
      book: { id: bookId, title: r.title, price: Number(r.price), city_name: r.city_name, thumbnail },
      at,
    })),
  );
  return rows.length;
}
