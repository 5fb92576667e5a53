import {
  type BookConditionFlag,
  type BookListQuery,
  bookConditionFlags,
  bookConditions,
  bookStatuses,
} from '@cartable/contracts';
import type { CategoryGraph } from '../../taxonomy/index.ts';
import { type UnderstoodFilter, understoodCategorySets } from './planner.ts';

/**
 * The catalogue's filter columns in memory, one slot per listing: what a page without search
 * words asks (a level, a subject, a town, a price range, sorted by price or date) is answered
 * here in tens of microseconds, where PostgreSQL planned and scanned an index for about a
 * millisecond of its CPU and as much of catalog's. PostgreSQL stays the source of truth: this is
 * a projection of the books table that the feed (listing-index-feed.ts) keeps equal to it, and pages are
 * read from it by id. Text searches, the sort by title and a seller's own list stay in SQL
 * (`selectionOf`). The views are here too, for the sorts by popularity: the table has no index
 * on them, so that counting a view stays a cheap write (migration 0024).
 *
 * Sets of slots are bitsets (32 slots a word): a category's, a town's, a status's, the listed
 * and the shown ones' (neither hidden by the moderation nor of an away seller). A page is one
 * pass over the words ANDed, with the price and the flags checked slot by slot.
 */

export interface ListingEntry {
  id: number;
  status: (typeof bookStatuses)[number];
  /** Neither hidden by the moderation nor of a deactivated or deleted seller. */
  shown: boolean;
  categoryIds: number[];
  price: number;
  cityId: number | null;
  condition: (typeof bookConditions)[number];
  /** Annotated, exercises filled in, stamped… */
  conditionFlags: BookConditionFlag[];
  negotiable: boolean;
  exchange: boolean;
  /** created_at in microseconds (PostgreSQL's precision: two listings of one millisecond keep their order). */
  createdMicros: number;
  views: number;
  /** The seller's id (the recommendations leave out the member's own listings). */
  userId: string;
}

/** A page without search words, as the index answers it. */
export interface ListingSelection {
  /** Undefined: every status but vendu (the public catalogue). */
  status?: ListingEntry['status'];
  /** Each entry is a condition: the listing has one of these categories (the levels and subjects read in a query). */
  categoryConditions: number[][];
  /** The explicit category filter (CategoryGraph.filterGroups): any group, each of whose sets holds one of the listing's. */
  categoryGroups?: number[][][];
  minPrice?: number;
  maxPrice?: number;
  condition?: ListingEntry['condition'];
  /** Leaves out the listings with any of these flags. */
  withoutFlags?: BookConditionFlag[];
  negotiable?: boolean;
  exchange?: boolean;
  cityId?: number;
  /** Every town but this one (the recommendations' second part, after the member's town). */
  notCityId?: number;
  excludeId?: number;
  /** Leaves out this seller's listings. */
  excludeUserId?: string;
  /** By popularity: (views, id); only within a heap's depth (no sort order is kept for it). */
  order: { by: 'price' | 'created' | 'views'; descending: boolean };
  offset: number;
  limit: number;
}

const FLAG_NEGOTIABLE = 1;
const FLAG_EXCHANGE = 2;
/** The condition flags take the next bits of the same byte, in the order of `bookConditionFlags`. */
const conditionFlagBit = (flag: BookConditionFlag) => 4 << bookConditionFlags.indexOf(flag);
const conditionFlagBits = (flags: readonly BookConditionFlag[]) =>
  flags.reduce((bits, flag) => bits | conditionFlagBit(flag), 0);
const NO_CITY = 0;
/** Unions of category sets, and pages by popularity, kept at most (each memo is emptied past it). */
const MAX_KEPT = 256;

type Bits = Int32Array;
const wordsFor = (slots: number) => Math.ceil(slots / 32);
const has = (bits: Bits, slot: number) => (bits[slot >>> 5]! & (1 << (slot & 31))) !== 0;
const set = (bits: Bits, slot: number) => {
  bits[slot >>> 5]! |= 1 << (slot & 31);
};
const clear = (bits: Bits, slot: number) => {
  bits[slot >>> 5]! &= ~(1 << (slot & 31));
};
const grown = (bits: Bits, words: number) => {
  const next = new Int32Array(words);
  next.set(bits);
  return next;
};

const popcount = (word: number) => {
  let n = word - ((word >>> 1) & 0x55555555);
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return (Math.imul((n + (n >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
};

/** A combination's matches in each sort order (ListingIndex.ordered). */
interface OrderedMatches {
  byPrice: Int32Array;
  byCreated: Int32Array;
}
/** Slots kept in the orders of combinations, at most (4 MB): `ordered` is emptied past it. */
const ORDERED_SLOTS_KEPT = 1_000_000;

/** Deeper pages walk the sort order instead (a heap of every listing would be a sort). */
const MAX_HEAP_DEPTH = 1000;
/** Matches fewer than one listing in this many are ordered directly rather than found along the sort order. */
const SPARSE = 16;

/**
 * The first `depth` slots offered, in the page's order: a max-heap whose top is the last of
 * them, so a slot that comes after it is refused with one comparison.
 */
class FirstInOrder {
  private readonly heap: number[] = [];
  private readonly keys: Float64Array;
  private readonly ids: Int32Array;
  private readonly descending: boolean;
  /** The key of the heap's top, the last slot kept so far. */
  private lastKey = 0;

  constructor(
    index: { columns(by: ListingSelection['order']['by']): { keys: Float64Array; ids: Int32Array } },
    order: ListingSelection['order'],
    private readonly depth: number,
  ) {
    ({ keys: this.keys, ids: this.ids } = index.columns(order.by));
    this.descending = order.descending;
  }

  /** Whether slot a comes after slot b in the page's order. */
  private after(a: number, b: number) {
    const ka = this.keys[a]!;
    const kb = this.keys[b]!;
    // (key, id) is unique: when a is not after b, b is after a.
    return (ka > kb || (ka === kb && this.ids[a]! > this.ids[b]!)) !== this.descending;
  }

  offer(slot: number) {
    const heap = this.heap;
    if (heap.length < this.depth) {
      heap.push(slot);
      let i = heap.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.after(heap[i]!, heap[parent]!)) break;
        [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
        i = parent;
      }
      this.lastKey = this.keys[heap[0]!]!;
      return;
    }
    // Most slots of a broad page come after the last kept: one key read refuses them.
    const key = this.keys[slot]!;
    if (this.descending ? key < this.lastKey : key > this.lastKey) return;
    if (!this.after(heap[0]!, slot)) return;
    heap[0] = slot;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let top = i;
      if (left < heap.length && this.after(heap[left]!, heap[top]!)) top = left;
      if (right < heap.length && this.after(heap[right]!, heap[top]!)) top = right;
      if (top === i) break;
      [heap[i], heap[top]] = [heap[top]!, heap[i]!];
      i = top;
    }
    this.lastKey = this.keys[heap[0]!]!;
  }

  /** The listings' ids in the page's order, from the `offset`th. */
  idsFrom(offset: number) {
    return [...this.heap]
      .sort((a, b) => (this.after(a, b) ? 1 : -1))
      .slice(offset)
      .map((slot) => this.ids[slot]!);
  }
}

export class ListingIndex {
  private capacity: number;
  private size = 0;
  /** Slots ever used: the next new one. */
  private highWater = 0;
  private readonly slotOf = new Map<number, number>();
  private readonly freeSlots: number[] = [];
  private ids: Int32Array;
  /** Float64 as `created`, so the sort orders' code reads one kind of array. */
  private prices: Float64Array;
  private created: Float64Array;
  private views: Float64Array;
  private cities: Int32Array;
  /** Sellers by a number of this index's own (`sellerNumbers`). */
  private sellers: Int32Array;
  private readonly sellerNumbers = new Map<string, number>();
  private conditions: Uint8Array;
  private flags: Uint8Array;
  /** Every status but vendu: the public catalogue's. */
  private listed: Bits;
  private shown: Bits;
  private readonly statusBits: Bits[];
  private readonly categoryBits = new Map<number, Bits>();
  private readonly cityBits = new Map<number, Bits>();
  /**
   * Unions of categories' sets by their ids, as pages ask them (a level with its classes, a
   * subject in every level): the same few come back on page after page, so each is built once
   * and kept until the listings change.
   */
  private readonly unions = new Map<string, Bits>();
  /**
   * Pages by popularity as asked (« À la une » on every home page, the visitors' recommendations:
   * the same few requests, each a pass over every listing), kept until a listing or a count changes.
   */
  private readonly popular = new Map<string, { ids: number[]; total: number }>();
  /**
   * The matches of a combination of sets (`setsKey`) in both sort orders, built the second time
   * it is asked (one asked once is answered by the pass) and kept until a listing changes: a page
   * whose only other filter is the price is then two binary searches and a walk as deep as the
   * page, where the pass checks every match's price (the catalogue benchmark's (c) and (d)).
   */
  private readonly ordered = new Map<string, OrderedMatches | 'asked once'>();
  /** Slots held by `ordered`, bounded by ORDERED_SLOTS_KEPT. */
  private orderedSlots = 0;
  /** Slots sorted by (price, id) and by (created_at, id): a deep page is a walk along one. */
  private byPrice: Int32Array;
  private byCreated: Int32Array;

  constructor(capacity = 1024) {
    this.capacity = capacity;
    this.ids = new Int32Array(capacity);
    this.prices = new Float64Array(capacity);
    this.created = new Float64Array(capacity);
    this.views = new Float64Array(capacity);
    this.cities = new Int32Array(capacity);
    this.sellers = new Int32Array(capacity);
    this.conditions = new Uint8Array(capacity);
    this.flags = new Uint8Array(capacity);
    this.listed = new Int32Array(wordsFor(capacity));
    this.shown = new Int32Array(wordsFor(capacity));
    this.statusBits = bookStatuses.map(() => new Int32Array(wordsFor(capacity)));
    this.byPrice = new Int32Array(capacity);
    this.byCreated = new Int32Array(capacity);
  }

  get count() {
    return this.size;
  }

  /** The listing as it now is in the table (added, or changed in place). */
  upsert(entry: ListingEntry) {
    this.unions.clear();
    this.popular.clear();
    this.forgetOrdered();
    const existing = this.slotOf.get(entry.id);
    if (existing !== undefined) this.unlink(existing);
    const slot = existing ?? this.takeSlot();
    this.slotOf.set(entry.id, slot);
    this.ids[slot] = entry.id;
    this.prices[slot] = entry.price;
    this.created[slot] = entry.createdMicros;
    this.views[slot] = entry.views;
    this.cities[slot] = entry.cityId ?? NO_CITY;
    this.sellers[slot] = this.sellerNumber(entry.userId);
    this.conditions[slot] = bookConditions.indexOf(entry.condition);
    this.flags[slot] =
      (entry.negotiable ? FLAG_NEGOTIABLE : 0) |
      (entry.exchange ? FLAG_EXCHANGE : 0) |
      conditionFlagBits(entry.conditionFlags);
    if (entry.status !== 'vendu') set(this.listed, slot);
    if (entry.shown) set(this.shown, slot);
    set(this.statusBits[bookStatuses.indexOf(entry.status)]!, slot);
    for (const id of new Set(entry.categoryIds)) set(this.bitsOf(this.categoryBits, id), slot);
    if (entry.cityId !== null) set(this.bitsOf(this.cityBits, entry.cityId), slot);
    this.insertSorted(this.byPrice, slot, this.prices);
    this.insertSorted(this.byCreated, slot, this.created);
    this.size++;
  }

  /**
   * A listing's new view count (counted views are notified apart from the other changes);
   * `atLeast`: only if it is more than the count held (a count that may be older than the row read).
   */
  setViews(id: number, views: number, options: { atLeast?: boolean } = {}) {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    if (options.atLeast && views <= this.views[slot]!) return;
    this.views[slot] = views;
    this.popular.clear();
  }

  /** The listing is gone from the table. */
  remove(id: number) {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.unions.clear();
    this.popular.clear();
    this.forgetOrdered();
    this.unlink(slot);
    this.slotOf.delete(id);
    this.freeSlots.push(slot);
  }

  /** The ids of the page and the exact number of matches. */
  select(selection: ListingSelection): { ids: number[]; total: number } {
    if (selection.order.by !== 'views') return this.selectNow(selection);
    const key = JSON.stringify(selection);
    let answer = this.popular.get(key);
    if (!answer) {
      answer = this.selectNow(selection);
      if (this.popular.size >= MAX_KEPT) this.popular.clear();
      this.popular.set(key, answer);
    }
    return { ids: [...answer.ids], total: answer.total };
  }

  private selectNow(selection: ListingSelection): { ids: number[]; total: number } {
    const words = wordsFor(this.capacity);
    const none = { ids: [], total: 0 };
    const groups = selection.categoryGroups;
    if (groups?.length === 0) return none;
    if (selection.cityId !== undefined && !this.cityBits.has(selection.cityId)) return none;
    // Every set a match is in (its status or listed, shown, its town, its categories), ANDed
    // once and kept with the unions: the same filters come back with other prices and pages.
    const setsKey = `${selection.status ?? ''}|${selection.cityId ?? ''}|${JSON.stringify(selection.categoryConditions)}|${groups ? JSON.stringify(groups) : ''}`;
    let inAll = this.unions.get(setsKey);
    if (!inAll) {
      const required: Bits[] = [
        selection.status ? this.statusBits[bookStatuses.indexOf(selection.status)]! : this.listed,
        this.shown,
      ];
      if (selection.cityId !== undefined) required.push(this.cityBits.get(selection.cityId)!);
      for (const ids of selection.categoryConditions) required.push(this.anyOf(ids, words));
      if (groups?.length === 1) for (const ids of groups[0]!) required.push(this.anyOf(ids, words));
      else if (groups) required.push(this.anyGroup(groups, words));
      inAll = new Int32Array(words);
      for (let w = 0; w < words; w++) {
        let word = required[0]![w]!;
        for (let r = 1; r < required.length && word !== 0; r++) word &= required[r]![w]!;
        inAll[w] = word;
      }
      this.keep(setsKey, inAll);
    }

    const { minPrice, maxPrice, excludeId } = selection;
    const notCity = selection.notCityId ?? NO_CITY;
    // A seller this index does not know has no listing to leave out.
    const excludedSeller =
      selection.excludeUserId === undefined ? -1 : (this.sellerNumbers.get(selection.excludeUserId) ?? -1);
    const low = minPrice ?? Number.NEGATIVE_INFINITY;
    const high = maxPrice ?? Number.POSITIVE_INFINITY;
    const condition = selection.condition === undefined ? -1 : bookConditions.indexOf(selection.condition);
    let flagMask = 0;
    let flagValue = 0;
    if (selection.negotiable !== undefined) {
      flagMask |= FLAG_NEGOTIABLE;
      if (selection.negotiable) flagValue |= FLAG_NEGOTIABLE;
    }
    if (selection.exchange !== undefined) {
      flagMask |= FLAG_EXCHANGE;
      if (selection.exchange) flagValue |= FLAG_EXCHANGE;
    }
    // Each flag left out must be unset: in the mask, not in the value.
    if (selection.withoutFlags) flagMask |= conditionFlagBits(selection.withoutFlags);
    const perSlot =
      low > Number.NEGATIVE_INFINITY ||
      high < Number.POSITIVE_INFINITY ||
      condition >= 0 ||
      flagMask !== 0 ||
      notCity !== NO_CITY ||
      excludedSeller >= 0;
    const depth = selection.offset + selection.limit;
    // No sort order is kept by popularity: its pages always come from the heap.
    const byViews = selection.order.by === 'views';
    if (byViews && depth > MAX_HEAP_DEPTH) throw new Error('listing index: a page by popularity past the heap');
    const onlyPrice =
      !byViews &&
      condition < 0 &&
      flagMask === 0 &&
      notCity === NO_CITY &&
      excludedSeller < 0 &&
      excludeId === undefined;
    const orderedMatches = onlyPrice ? this.orderedMatches(setsKey, inAll) : null;
    if (orderedMatches) return this.pageOfOrdered(orderedMatches, selection, low, high);

    // One pass, word by word: the sets ANDed, then the remaining filters slot by slot. With
    // those, the pass counts the matches and keeps the first of them in order (a heap as deep
    // as the page) rather than walking the sort order past other classes and prices.
    const first =
      (perSlot || byViews) && depth <= MAX_HEAP_DEPTH ? new FirstInOrder(this, selection.order, depth) : null;
    const matches = first ? null : new Int32Array(words);
    const { prices, conditions, flags, cities, sellers } = this;
    // The listing a book page's « similar » list leaves out: one bit of one word.
    const excluded = excludeId === undefined ? -1 : (this.slotOf.get(excludeId) ?? -1);
    const excludedWord = excluded < 0 ? -1 : excluded >>> 5;
    const excludedMask = ~(1 << (excluded & 31));
    let total = 0;
    // Slots are taken in the order the listings were read, which is about their age: for the
    // newest first, the pass goes backwards, so the heap soon holds the newest and refuses the rest.
    const backwards = selection.order.descending;
    for (let step = 0; step < words; step++) {
      const w = backwards ? words - 1 - step : step;
      let word = inAll[w]!;
      if (w === excludedWord) word &= excludedMask;
      if (word === 0) continue;
      if (!perSlot && !first) {
        matches![w] = word;
        total += popcount(word);
        continue;
      }
      let kept = 0;
      while (word !== 0) {
        const topBit = 31 - Math.clz32(word);
        const bit = backwards ? 1 << topBit : word & -word;
        word ^= bit;
        const slot = (w << 5) + (backwards ? topBit : 31 - Math.clz32(bit));
        const price = prices[slot]!;
        if (
          price < low ||
          price > high ||
          (condition >= 0 && conditions[slot] !== condition) ||
          (flags[slot]! & flagMask) !== flagValue ||
          (notCity !== NO_CITY && cities[slot] === notCity) ||
          (excludedSeller >= 0 && sellers[slot] === excludedSeller)
        )
          continue;
        total++;
        if (first) first.offer(slot);
        else kept |= bit;
      }
      if (matches) matches[w] = kept;
    }
    if (first) return { ids: first.idsFrom(selection.offset), total };

    // Few matches among many listings: they are ordered directly; otherwise the page is a walk
    // along the sort order (from the first price in range when sorting by price).
    if (depth <= MAX_HEAP_DEPTH && total * SPARSE < this.size) {
      const few = new FirstInOrder(this, selection.order, depth);
      for (let w = 0; w < words; w++) {
        let word = matches![w]!;
        while (word !== 0) {
          const bit = word & -word;
          word ^= bit;
          few.offer((w << 5) + 31 - Math.clz32(bit));
        }
      }
      return { ids: few.idsFrom(selection.offset), total };
    }
    const ids: number[] = [];
    if (total > selection.offset) {
      const order = selection.order.by === 'price' ? this.byPrice : this.byCreated;
      let skipped = 0;
      const take = (slot: number) => {
        if (!has(matches!, slot)) return false;
        if (skipped < selection.offset) skipped++;
        else ids.push(this.ids[slot]!);
        return skipped + ids.length >= depth || skipped + ids.length >= total;
      };
      if (selection.order.descending) {
        let i = this.size - 1;
        if (selection.order.by === 'price' && maxPrice !== undefined) i = this.firstAbove(maxPrice) - 1;
        for (; i >= 0; i--) if (take(order[i]!)) break;
      } else {
        let i = 0;
        if (selection.order.by === 'price' && minPrice !== undefined) i = this.firstAtLeast(minPrice);
        for (; i < this.size; i++) if (take(order[i]!)) break;
      }
    }
    return { ids, total };
  }

  /** `setsKey`'s matches in both orders, or null the first time it is asked. */
  private orderedMatches(setsKey: string, inAll: Bits): OrderedMatches | null {
    const kept = this.ordered.get(setsKey);
    if (kept === undefined) {
      if (this.ordered.size >= MAX_KEPT) this.forgetOrdered();
      this.ordered.set(setsKey, 'asked once');
      return null;
    }
    if (kept !== 'asked once') return kept;
    let count = 0;
    for (let w = 0; w < inAll.length; w++) count += popcount(inAll[w]!);
    const inOrder = (order: Int32Array) => {
      const matches = new Int32Array(count);
      let n = 0;
      for (let i = 0; i < this.size && n < count; i++) if (has(inAll, order[i]!)) matches[n++] = order[i]!;
      return matches;
    };
    const built = { byPrice: inOrder(this.byPrice), byCreated: inOrder(this.byCreated) };
    if (this.orderedSlots + 2 * count > ORDERED_SLOTS_KEPT) this.forgetOrdered();
    this.ordered.set(setsKey, built);
    this.orderedSlots += 2 * count;
    return built;
  }

  private forgetOrdered() {
    this.ordered.clear();
    this.orderedSlots = 0;
  }

  /** A page by price or date whose matches are `matches` within a price range. */
  private pageOfOrdered(
    matches: OrderedMatches,
    selection: ListingSelection,
    low: number,
    high: number,
  ): { ids: number[]; total: number } {
    const { byPrice, byCreated } = matches;
    const { prices } = this;
    // The matches within the range are a run of byPrice: [start, end).
    const start = this.firstAtLeast(low, byPrice);
    const end = this.firstAbove(high, byPrice);
    const total = Math.max(0, end - start);
    const { offset, limit, order } = selection;
    const ids: number[] = [];
    if (order.by === 'price') {
      for (let k = offset; k < offset + limit && k < total; k++) {
        ids.push(this.ids[order.descending ? byPrice[end - 1 - k]! : byPrice[start + k]!]!);
      }
      return { ids, total };
    }
    // By date: along its order, the prices checked until the page is full.
    let skipped = 0;
    const n = byCreated.length;
    for (let k = 0; k < n && ids.length < limit && skipped + ids.length < total; k++) {
      const slot = byCreated[order.descending ? n - 1 - k : k]!;
      const price = prices[slot]!;
      if (price < low || price > high) continue;
      if (skipped < offset) skipped++;
      else ids.push(this.ids[slot]!);
    }
    return { ids, total };
  }

  /** A sort order's key column and the ids that break its ties (FirstInOrder). */
  columns(by: ListingSelection['order']['by']) {
    return { keys: by === 'price' ? this.prices : by === 'views' ? this.views : this.created, ids: this.ids };
  }

  private sellerNumber(userId: string) {
    let n = this.sellerNumbers.get(userId);
    if (n === undefined) {
      n = this.sellerNumbers.size;
      this.sellerNumbers.set(userId, n);
    }
    return n;
  }

  /** The listings of any of these groups (each: in one of each of its sets' categories); read only, kept as anyOf's. */
  private anyGroup(groups: number[][][], words: number): Bits {
    const key = JSON.stringify(groups);
    const kept = this.unions.get(key);
    if (kept) return kept;
    const union = new Int32Array(words);
    for (const group of groups) {
      const sets = group.map((ids) => this.anyOf(ids, words));
      for (let w = 0; w < words; w++) {
        let word = -1;
        for (const bits of sets) word &= bits[w]!;
        union[w]! |= word;
      }
    }
    this.keep(key, union);
    return union;
  }

  private keep(key: string, union: Bits) {
    if (this.unions.size >= MAX_KEPT) this.unions.clear();
    this.unions.set(key, union);
  }

  /** The listings of any of these categories; read only (it may be kept for the next page). */
  private anyOf(categoryIds: number[], words: number): Bits {
    const key = categoryIds.join(',');
    const kept = this.unions.get(key);
    if (kept) return kept;
    const union = new Int32Array(words);
    for (const id of categoryIds) {
      const bits = this.categoryBits.get(id);
      if (!bits) continue;
      for (let w = 0; w < bits.length; w++) union[w]! |= bits[w]!;
    }
    this.keep(key, union);
    return union;
  }

  private bitsOf(sets: Map<number, Bits>, key: number) {
    // grow() grows every set: one made before it has the capacity's words.
    let bits = sets.get(key);
    if (!bits) {
      bits = new Int32Array(wordsFor(this.capacity));
      sets.set(key, bits);
    }
    return bits;
  }

  private takeSlot() {
    const free = this.freeSlots.pop();
    if (free !== undefined) return free;
    if (this.highWater >= this.capacity) this.grow();
    return this.highWater++;
  }

  private grow() {
    const capacity = this.capacity * 2;
    const words = wordsFor(capacity);
    const copy = <T extends Int32Array | Float64Array | Uint8Array>(from: T, to: T) => {
      to.set(from);
      return to;
    };
    this.ids = copy(this.ids, new Int32Array(capacity));
    this.prices = copy(this.prices, new Float64Array(capacity));
    this.created = copy(this.created, new Float64Array(capacity));
    this.views = copy(this.views, new Float64Array(capacity));
    this.cities = copy(this.cities, new Int32Array(capacity));
    this.sellers = copy(this.sellers, new Int32Array(capacity));
    this.conditions = copy(this.conditions, new Uint8Array(capacity));
    this.flags = copy(this.flags, new Uint8Array(capacity));
    this.byPrice = copy(this.byPrice, new Int32Array(capacity));
    this.byCreated = copy(this.byCreated, new Int32Array(capacity));
    this.listed = grown(this.listed, words);
    this.shown = grown(this.shown, words);
    for (let s = 0; s < this.statusBits.length; s++) this.statusBits[s] = grown(this.statusBits[s]!, words);
    for (const [key, bits] of this.categoryBits) this.categoryBits.set(key, grown(bits, words));
    for (const [key, bits] of this.cityBits) this.cityBits.set(key, grown(bits, words));
    this.capacity = capacity;
  }

  /** Takes a slot out of every set and sort order (its columns are rewritten by the next use). */
  private unlink(slot: number) {
    clear(this.listed, slot);
    clear(this.shown, slot);
    for (const bits of this.statusBits) clear(bits, slot);
    for (const bits of this.categoryBits.values()) clear(bits, slot);
    const city = this.cities[slot]!;
    if (city !== NO_CITY) {
      const bits = this.cityBits.get(city);
      if (bits) clear(bits, slot);
    }
    this.removeSorted(this.byPrice, slot, this.prices);
    this.removeSorted(this.byCreated, slot, this.created);
    this.size--;
  }

  /** Where (key, id) of `slot` belongs in `order` (by the slot's current key). */
  private position(order: Int32Array, slot: number, keys: Float64Array) {
    const key = keys[slot]!;
    const id = this.ids[slot]!;
    let low = 0;
    let high = this.size;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const other = order[mid]!;
      const otherKey = keys[other]!;
      if (otherKey < key || (otherKey === key && this.ids[other]! < id)) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  private insertSorted(order: Int32Array, slot: number, keys: Float64Array) {
    const at = this.position(order, slot, keys);
    order.copyWithin(at + 1, at, this.size);
    order[at] = slot;
  }

  private removeSorted(order: Int32Array, slot: number, keys: Float64Array) {
    const at = this.position(order, slot, keys);
    if (order[at] !== slot) throw new Error(`listing index: slot ${slot} is not where its key says`);
    order.copyWithin(at, at + 1, this.size);
  }

  /** The first position in `order` (byPrice, or a combination's, sorted by price) whose price is at least `price`. */
  private firstAtLeast(price: number, order = this.byPrice) {
    return this.firstPriced(order, (p) => p >= price);
  }

  /** The first position in `order` (sorted by price) whose price is above `price`. */
  private firstAbove(price: number, order = this.byPrice) {
    return this.firstPriced(order, (p) => p > price);
  }

  private firstPriced(order: Int32Array, reached: (price: number) => boolean) {
    let low = 0;
    let high = order === this.byPrice ? this.size : order.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (reached(this.prices[order[mid]!]!)) high = mid;
      else low = mid + 1;
    }
    return low;
  }
}

/**
 * A listing page's request as the index answers it, or null for one it leaves to SQL: search
 * words (PostgreSQL's French full-text), a seller's own listings (their index serves them), the
 * sort by title (PostgreSQL's collation) and pages by popularity past the heap's depth. Mirrors
 * the SQL engine's conditions and order (db/queries.ts); test/listing-index.test.ts compares the two.
 */
export function selectionOf(
  query: BookListQuery,
  graph: CategoryGraph,
  understood: UnderstoodFilter | null,
  perPage: number,
): ListingSelection | null {
  if (query.query || query.user_id) return null;
  const sortBy = query.sort_by ?? 'created_at';
  let order: ListingSelection['order'];
  if (sortBy === 'relevance') order = { by: 'created', descending: true };
  else if (sortBy === 'price') order = { by: 'price', descending: query.sort_direction === 'desc' };
  else if (sortBy === 'created_at') order = { by: 'created', descending: query.sort_direction !== 'asc' };
  else if (sortBy === 'popularity') order = { by: 'views', descending: query.sort_direction !== 'asc' };
  else return null;
  const offset = (query.page - 1) * perPage;
  // Past the heap's depth, a page by popularity is PostgreSQL's (a sort of every match).
  if (order.by === 'views' && offset + perPage > MAX_HEAP_DEPTH) return null;

  const wanted = [...(query.category_ids ?? []), ...(query.category_id ? [query.category_id] : [])];
  const negotiable = query.is_negociable ?? query.is_negotiable;
  return {
    ...(query.status ? { status: query.status } : {}),
    categoryConditions: understoodCategorySets(understood, graph),
    // No group (only unknown categories): nothing matches, as in SQL.
    ...(wanted.length ? { categoryGroups: graph.filterGroups(wanted) } : {}),
    ...(query.min_price !== undefined ? { minPrice: query.min_price } : {}),
    ...(query.max_price !== undefined ? { maxPrice: query.max_price } : {}),
    ...(query.condition ? { condition: query.condition } : {}),
    ...(query.without_flags?.length ? { withoutFlags: query.without_flags } : {}),
    ...(negotiable !== undefined ? { negotiable } : {}),
    ...(query.is_exchange_possible !== undefined ? { exchange: query.is_exchange_possible } : {}),
    ...(query.city_id ? { cityId: query.city_id } : {}),
    ...(query.exclude_id ? { excludeId: query.exclude_id } : {}),
    order,
    offset,
    limit: perPage,
  };
}
