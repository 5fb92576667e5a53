import {
  type BookCondition,
  PRICE_GUIDE_MIN_DEALS,
  PRICE_GUIDE_MONTHS,
  type PriceGuide,
  type UsualPrice,
} from '@cartable/contracts';
import type { Db } from '@cartable/service-kit';
import { askingPrices } from '../db/queries.ts';
import type { DealSales } from './listing-writes.ts';

/** A book as the price guide finds it again: its ISBN when it has one, else its title, and its condition. */
export interface GuidedBook {
  isbn?: string | null | undefined;
  title?: string | null | undefined;
  condition: BookCondition;
}

/**
 * The price guide: what the same book in the same condition sold for in confirmed deals (trust's,
 * through the DealSales port), and what it is offered for now. Nothing is suggested from fewer
 * than PRICE_GUIDE_MIN_DEALS sales: a price two people agreed once is not « habituel ».
 */
export function priceGuide(db: Db, sales: DealSales) {
  async function sold(book: GuidedBook) {
    const found = await sales.soldPrices(db, book, PRICE_GUIDE_MONTHS);
    const usual: UsualPrice | null =
      found.deals >= PRICE_GUIDE_MIN_DEALS && found.median !== null && found.low !== null && found.high !== null
        ? { median: found.median, low: found.low, high: found.high, deals: found.deals }
        : null;
    return { deals: found.deals, usual };
  }

  return {
    /** « Prix habituel » on a listing's page, or null. */
    usual: async (book: GuidedBook) => (await sold(book)).usual,
    /** What the listing form shows beside the price: the usual price and the offers of the moment. */
    async guide(book: GuidedBook, excludeId?: number): Promise<PriceGuide> {
      const [{ deals, usual }, listings] = await Promise.all([sold(book), askingPrices(db, book, excludeId)]);
      return { usual, deals, listings, min_deals: PRICE_GUIDE_MIN_DEALS, months: PRICE_GUIDE_MONTHS };
    },
  };
}
export type PriceGuides = ReturnType<typeof priceGuide>;
