import {
  type ClassList,
  type ClassListAvailability,
  type ClassListBookCard,
  type ClassListItem,
  type ClassListItemAvailability,
  conditionLabels,
  type Proximity,
} from '@cartable/contracts';
import type { Db, Storage } from '@cartable/service-kit';
import { firstThumbnailKeys } from '../../listings/index.ts';
import { townNames } from '../../taxonomy/index.ts';
import * as queries from '../db/queries.ts';

export const proximityOf = ['city', 'province', 'elsewhere'] as const satisfies readonly Proximity[];
type Card = Omit<ClassListBookCard, 'match' | 'proximity'>;

/** The small cards of « Ma liste »: the listings with their town, lot size and first thumbnail. */
async function bookCards(db: Db, storage: Storage, ids: number[]) {
  const unique = [...new Set(ids)];
  const cards = new Map<number, Card>();
  if (!unique.length) return cards;
  const [rows, thumbnails] = await Promise.all([queries.cardRows(db, unique), firstThumbnailKeys(db, unique)]);
  for (const r of rows) {
    const id = Number(r.id);
    const thumbnail = thumbnails.get(id);
    cards.set(id, {
      id,
      title: r.title,
      author: r.author,
      publisher: r.publisher,
      price: r.price,
      condition: r.condition as ClassListBookCard['condition'],
      condition_label: conditionLabels[r.condition as ClassListBookCard['condition']] ?? r.condition,
      is_negociable: r.is_negotiable,
      is_exchange_possible: r.is_exchange_possible,
      city: r.city_id ? { id: r.city_id, name: r.city_name ?? '', province: r.province } : null,
      thumbnail: thumbnail ? storage.url(thumbnail) : null,
      lot_size: Number(r.lot_size) || null,
      created_at: new Date(r.created_at).toISOString(),
    });
  }
  return cards;
}

/**
 * « Ma liste »: every book of the list against the available listings (queries.availabilityQuery),
 * the nearest first; what the family owns left out of the sums. A second query reads the cards.
 */
export async function availability(
  db: Db,
  storage: Storage,
  list: ClassList,
  items: ClassListItem[],
  opts: { cityId: number | null; owned: number[]; perItem: number; saved: boolean },
): Promise<Omit<ClassListAvailability, 'version' | 'no_longer_needed'>> {
  const towns = await townNames(db, opts.cityId ? [opts.cityId] : []);
  const town = opts.cityId ? towns.get(opts.cityId) : undefined;
  const city = opts.cityId && town ? { id: opts.cityId, name: town.name, province: town.province } : null;
  const provinceId = opts.cityId && town ? town.provinceId : null;
  const result = await queries.availabilityOf(db, {
    listId: list.id,
    levelId: list.level.id,
    cityId: opts.cityId,
    provinceId,
    perItem: opts.perItem,
  });
  const byItem = new Map(result.map((r) => [Number(r.item_id), r]));
  const cards = await bookCards(
    db,
    storage,
    result.flatMap((r) => r.top.map((t) => t.id)),
  );

  const owned = new Set(opts.owned);
  const lines: ClassListItemAvailability[] = items.map((item) => {
    const row = byItem.get(item.id);
    return {
      item,
      owned: owned.has(item.id),
      match: !row ? 'none' : row.exact ? 'exact' : 'fallback',
      count: row?.count ?? 0,
      city_count: opts.cityId ? (row?.city_count ?? 0) : 0,
      province_count: provinceId ? (row?.province_count ?? 0) : 0,
      cheapest_price: row?.cheapest ?? null,
      lot_count: row?.lots ?? 0,
      gift_count: row?.gifts ?? 0,
      exchange_count: row?.exchanges ?? 0,
      books: (row?.top ?? []).flatMap((t) => {
        const card = cards.get(t.id);
        return card ? [{ ...card, match: t.match, proximity: proximityOf[t.prox] ?? 'elsewhere' }] : [];
      }),
    };
  });
  const missing = lines.filter((l) => !l.owned);
  const cost = (ls: ClassListItemAvailability[]) =>
    ls.reduce((sum, l) => sum + (l.match === 'exact' ? (l.cheapest_price ?? 0) : 0), 0);
  return {
    list,
    city,
    items: lines,
    totals: {
      items: lines.length,
      owned: lines.length - missing.length,
      missing: missing.length,
      found: missing.filter((l) => l.match === 'exact').length,
      fallback_only: missing.filter((l) => l.match === 'fallback').length,
      not_found: missing.filter((l) => l.match === 'none').length,
      cost: cost(missing),
      required_cost: cost(missing.filter((l) => l.item.requirement === 'required')),
    },
    saved: opts.saved,
  };
}
