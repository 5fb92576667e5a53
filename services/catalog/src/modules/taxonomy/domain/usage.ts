import type { Db } from '@cartable/service-kit';

/**
 * What taxonomy asks of the modules that place things in its categories and towns. They answer
 * (taxonomy names none of their tables); the service wires them in at start-up, so taxonomy
 * depends on none of them.
 */
export interface TaxonomyUsage {
  /**
   * Listings of the public catalogue that each category wholly contains, each listing once, given
   * the pairs (category, a category it wholly contains).
   */
  shownListingsWithin(db: Db, within: Array<[ancestor: number, descendant: number]>): Promise<Array<[number, number]>>;
  /** Listings in any state (sold and hidden ones too) that carry this category. */
  listingsWithCategory(db: Db, categoryId: number): Promise<number>;
  /** Listings (any state) and members placed in each of these towns. */
  placedInTowns(db: Db, cityIds: number[]): Promise<Map<number, { listings: number; members: number }>>;
}
