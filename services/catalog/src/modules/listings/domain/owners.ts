import type { Db } from '@cartable/service-kit';
import * as queries from '../db/queries.ts';
import type { ListingCards } from './cards.ts';

/** A member's listings: their own page (« Mes manuels »), the public profile's, and their figures. */
export function ownerListings(db: Db, cards: ListingCards) {
  return {
    /** Every listing of theirs, newest first (sold and hidden ones too). */
    own: async (userId: string) => cards.byIds(await queries.idsOfOwner(db, userId)),
    /** What others see of them: available or reserved, shown, newest first, 50 at most. */
    public: async (userId: string) => cards.byIds(await queries.publicIdsOfOwner(db, userId)),
    /** A page of them, for the public profile's listings. */
    async publicPage(userId: string, page: number, perPage: number) {
      const { ids, total } = await queries.publicPageOfOwner(db, userId, {
        limit: perPage,
        offset: (page - 1) * perPage,
      });
      return {
        data: await cards.byIds(ids),
        total,
        per_page: perPage,
        current_page: page,
        last_page: Math.max(1, Math.ceil(total / perPage)),
      };
    },
    async stats(userId: string) {
      const rows = await queries.ownerStats(db, userId);
      const count = (status: string) => rows.find((r) => r.status === status)?.n ?? 0;
      return {
        total: rows.reduce((sum, r) => sum + r.n, 0),
        available: count('disponible'),
        reserved: count('réservé'),
        sold: count('vendu'),
        views: rows.reduce((sum, r) => sum + r.views, 0),
      };
    },
  };
}
