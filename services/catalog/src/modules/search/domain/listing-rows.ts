import { LRUCache } from 'lru-cache';

/**
 * The rows of the listings last shown on a page (the listing, its town, its photos), kept in
 * memory so that a page the listing index answers costs no trip to PostgreSQL: at 100,000 books
 * that trip was a third of a filtered page's CPU (catalog's and PostgreSQL's). The listing index
 * feed (listing-index-feed.ts) owns it: it drops a row when migration 0025's triggers notify a
 * change of what it shows, empties it when its connection is lost (a notification may be missed),
 * and answers from SQL while it is behind.
 */
export class ListingRows<Row extends { id: number; views: number }> {
  private readonly kept: LRUCache<number, Row>;
  /**
   * One more at every change heard. Rows read from SQL are kept only if it did not move during
   * the read: a row read before a change was committed may arrive after its notification.
   */
  private generation = 0;

  constructor(max: number) {
    this.kept = new LRUCache({ max });
  }

  /**
   * The rows of `ids` in their order (one that no longer exists is left out): those kept, and the
   * others read with `read`, kept if nothing changed during the read and `keep()` still says so.
   */
  async rows(ids: number[], read: (ids: number[]) => Promise<Row[]>, keep: () => boolean): Promise<Row[]> {
    const page = ids.map((id) => this.kept.get(id));
    const missing = ids.filter((_, i) => page[i] === undefined);
    if (missing.length) {
      const generation = this.generation;
      const fresh = new Map((await read(missing)).map((row) => [row.id, row]));
      // Changed meanwhile: this page shows what was read, the next one reads again.
      const kept = generation === this.generation && keep();
      ids.forEach((id, i) => {
        if (page[i] !== undefined) return;
        const row = fresh.get(id);
        page[i] = row;
        if (row && kept) this.kept.set(id, row);
      });
    }
    return page.filter((row) => row !== undefined);
  }

  /** A listing changed (or is gone): its row is read again when next shown. */
  changed(id: number) {
    this.generation++;
    this.kept.delete(id);
  }

  /** Every row may have changed (a town renamed, a lost connection). */
  clear() {
    this.generation++;
    this.kept.clear();
  }

  /**
   * A listing's new count of views (notified apart, and often): applied to its row in place. A
   * row being read meanwhile may hold the count before it, so it is not kept.
   */
  setViews(id: number, views: number) {
    this.generation++;
    const row = this.kept.peek(id);
    if (row) row.views = views;
  }
}
