import { FEATURED_BOOKS_MAX } from '@cartable/contracts';
import type { Db } from '@cartable/service-kit';
import { memberStanding } from '../../members/index.ts';
import * as queries from '../db/queries.ts';
import type { BoostedIds } from './catalogue.ts';
import type { ListingSelection } from './listing-index.ts';
import type { ListingIndexFeed } from './listing-index-feed.ts';

/** « Recommandés pour vous »: how many. */
const RECOMMENDED_BOOKS = 8;

/**
 * The home page's rows: « À la une » (the boosted listings first, then the most viewed) and
 * « Recommandés pour vous » (near the member first, then the most viewed). The most viewed come
 * from the in-memory index (the table has no index on views: migration 0024), from SQL while the
 * index is behind or absent.
 */
export function featuredListings(options: { db: Db; feed?: ListingIndexFeed | undefined; boostedIds: BoostedIds }) {
  const { db, feed, boostedIds } = options;

  /** The most viewed available listings that are shown, leaving out `excludeIds`; null when the index cannot say. */
  function mostViewed(
    limit: number,
    filter: Pick<ListingSelection, 'cityId' | 'notCityId' | 'excludeUserId'> & { excludeIds?: number[] } = {},
  ): number[] | null {
    const { excludeIds = [], ...where } = filter;
    if (limit <= 0) return [];
    if (!feed) return null;
    const page = feed.select({
      status: 'disponible',
      categoryConditions: [],
      ...where,
      order: { by: 'views', descending: true },
      offset: 0,
      limit: limit + excludeIds.length,
    });
    if (!page) return null;
    const excluded = new Set(excludeIds);
    return page.ids.filter((id) => !excluded.has(id)).slice(0, limit);
  }

  return {
    /** « À la une »: ids, the boosted ones (in a new order each time) first, with which are boosted. */
    async featured(): Promise<{ ids: number[]; sponsored: Set<number> }> {
      const boosted = await boostedIds();
      const shownBoosted = await queries.availableAmong(db, boosted);
      const sponsoredIds = shownBoosted.sort(() => Math.random() - 0.5).slice(0, FEATURED_BOOKS_MAX);
      const limit = FEATURED_BOOKS_MAX - sponsoredIds.length;
      const ids =
        mostViewed(limit, { excludeIds: sponsoredIds }) ??
        (await queries.mostViewedIds(db, limit, { excludeIds: sponsoredIds }));
      return { ids: [...sponsoredIds, ...ids], sponsored: new Set(sponsoredIds) };
    },

    /** « Recommandés pour vous »: near the member first (same town), then the most viewed; never their own. */
    async recommended(userId: string | undefined): Promise<number[]> {
      const town = userId ? ((await memberStanding(db, userId)).cityId ?? undefined) : undefined;
      const own = userId ? { excludeUserId: userId } : {};
      const near = town === undefined ? [] : mostViewed(RECOMMENDED_BOOKS, { ...own, cityId: town });
      const rest = near && mostViewed(RECOMMENDED_BOOKS - near.length, { ...own, notCityId: town });
      if (near && rest) return [...near, ...rest];
      return queries.mostViewedIds(db, RECOMMENDED_BOOKS, { excludeUserId: userId, nearCityId: town });
    },
  };
}
export type FeaturedListings = ReturnType<typeof featuredListings>;
