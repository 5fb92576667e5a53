import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Logger } from 'pino';
import type { BookRow } from '../../listings/index.ts';
import { type ListingEntry, ListingIndex, type ListingSelection } from './listing-index.ts';
import { ListingRows } from './listing-rows.ts';

/** The channel migration 0023's triggers notify with a changed listing's id. */
const CHANNEL = 'cartable_listings';
/** Migration 0024's: counted views, as "id:views,id:views…" (the new counts). */
const VIEWS_CHANNEL = 'cartable_listing_views';
/** Migration 0025's: a change of what a listing's row shows on a page (its id), or '*' (a town renamed). */
const CARDS_CHANNEL = 'cartable_listing_cards';
/**
 * Listings' rows kept for the pages (about 1.1 KB each: 22 MB when full, bench/listing-index):
 * the listings people are shown, not the whole catalogue.
 */
export const CARDS_KEPT = 20_000;
/** A marker a replica sends itself after a write of its own (`catchUp`); every replica hears it. */
const MARKER = 'caught-up:';
const LOAD_BATCH = 20_000;
const RECONNECT_MS = [250, 1000, 5000];

/** The columns the index holds, as listings' published view gives them. */
const ENTRY_COLUMNS = `id, status, hidden_at is null and not seller_away as shown, category_ids, price, city_id,
  condition, condition_flags, is_negotiable, is_exchange_possible,
  (extract(epoch from created_at) * 1000000)::float8 as created_micros, views, user_id`;

interface EntryRow {
  id: number;
  status: ListingEntry['status'];
  shown: boolean;
  category_ids: number[];
  price: number;
  city_id: number | null;
  condition: ListingEntry['condition'];
  condition_flags: ListingEntry['conditionFlags'];
  is_negotiable: boolean;
  is_exchange_possible: boolean;
  created_micros: number;
  views: number;
  user_id: string;
}

const entryOf = (row: EntryRow): ListingEntry => ({
  id: row.id,
  status: row.status,
  shown: row.shown,
  categoryIds: row.category_ids,
  price: row.price,
  cityId: row.city_id,
  condition: row.condition,
  conditionFlags: row.condition_flags,
  negotiable: row.is_negotiable,
  exchange: row.is_exchange_possible,
  createdMicros: row.created_micros,
  views: row.views,
  userId: row.user_id,
});

export interface ListingIndexFeed {
  /**
   * The page's ids and exact total, or null while the index may be behind the table (loading,
   * disconnected, or a write of this replica not yet read back): the caller then asks SQL.
   */
  select(selection: ListingSelection): { ids: number[]; total: number } | null;
  /**
   * After a write of this replica, committed: until every change committed so far is read back,
   * `select` answers null, so a member sees their own change on the next page they load.
   */
  catchUp(): void;
  /**
   * A page's rows, in the order of `ids`: those kept in memory, the others read with `read` (and
   * kept); all read with `read` while the index may be behind, like `select`.
   */
  rows(ids: number[], read: (ids: number[]) => Promise<BookRow[]>): Promise<BookRow[]>;
  /** Resolves once the index is loaded and up to date (tests, start-up). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Keeps a ListingIndex equal to the listings (listing_facts, over the books table): a full read at start (and after any lost
 * connection), then the ids the triggers of migration 0023 notify on every change, read back in
 * batches. PostgreSQL delivers a session's notifications in commit order, so a marker this
 * replica notifies after its own write arrives after that write's ids: when it is read, so are they.
 * It also keeps the rows pages show (ListingRows), dropped as migration 0025's triggers notify.
 */
export function startListingIndexFeed(connectionString: string, log: Logger): ListingIndexFeed {
  let index: ListingIndex | null = null;
  let client: pg.Client | null = null;
  let closed = false;
  let attempt = 0;
  /** Ids notified and not yet read back. */
  const pending = new Set<number>();
  /** Counts notified while the index is being read (a batch already read may predate them). */
  let countsDuringLoad = new Map<number, number>();
  /** Markers sent and not yet passed. */
  const markers = new Set<number>();
  let nextMarker = 0;
  /** This replica's markers begin with it; another's are only a reason to read what is pending. */
  const ownMarker = `${MARKER}${randomUUID()}:`;
  /** The reads of notified ids, one after the other, in the order of the notifications. */
  let work: Promise<void> = Promise.resolve();
  let flushQueued = false;
  let waiters: Array<() => void> = [];
  const cards = new ListingRows<BookRow>(CARDS_KEPT);

  const upToDate = () => index !== null && pending.size === 0 && markers.size === 0;
  const wake = () => {
    if (!upToDate()) return;
    for (const resolve of waiters) resolve();
    waiters = [];
  };

  async function readBack(connection: pg.Client) {
    if (!pending.size || !index) return;
    const ids = [...pending];
    pending.clear();
    const { rows } = await connection.query<EntryRow>(
      `select ${ENTRY_COLUMNS} from listing_facts where id = any($1::int[])`,
      [ids],
    );
    const found = new Set<number>();
    for (const row of rows) {
      index.upsert(entryOf(row));
      found.add(row.id);
    }
    for (const id of ids) if (!found.has(id)) index.remove(id);
  }

  function enqueue(connection: pg.Client, step: () => void | Promise<void>) {
    work = work
      .then(step)
      .catch((error) => {
        // A failed read: the connection is gone or going; the reconnection reloads everything.
        log.warn({ err: error }, 'listing index: a change could not be read');
        lose(connection);
      })
      .then(wake);
  }

  function onNotification(connection: pg.Client, message: pg.Notification) {
    const payload = message.payload ?? '';
    if (message.channel === VIEWS_CHANNEL) {
      // Applied at once, as they come: a count is a new value, not a reason to read the row
      // again, and popularity never holds a page back (the index stays up to date for the rest).
      // Notifications come in commit order, and a row read back is as new as any count before it.
      for (const pair of payload.split(',')) {
        const [id, views] = pair.split(':').map(Number);
        if (!Number.isInteger(id) || !Number.isFinite(views)) continue;
        cards.setViews(id!, views!);
        if (index) index.setViews(id!, views!);
        // Views only grow: the larger of two counts is the newer.
        else countsDuringLoad.set(id!, Math.max(views!, countsDuringLoad.get(id!) ?? 0));
      }
      return;
    }
    if (message.channel === CARDS_CHANNEL) {
      if (payload === '*') cards.clear();
      else if (Number.isInteger(Number(payload))) cards.changed(Number(payload));
      return;
    }
    if (payload.startsWith(MARKER)) {
      if (!payload.startsWith(ownMarker)) return;
      const marker = Number(payload.slice(ownMarker.length));
      enqueue(connection, async () => {
        await readBack(connection);
        markers.delete(marker);
      });
      return;
    }
    const id = Number(payload);
    if (!Number.isInteger(id)) return;
    pending.add(id);
    if (flushQueued) return;
    flushQueued = true;
    enqueue(connection, () => {
      flushQueued = false;
      return readBack(connection);
    });
  }

  /** The connection is lost: answer from SQL until a new one has read everything again. */
  function lose(connection: pg.Client) {
    if (client !== connection) return;
    client = null;
    index = null;
    pending.clear();
    markers.clear();
    countsDuringLoad = new Map();
    // A change may go unheard until the next connection: no row kept can be trusted.
    cards.clear();
    flushQueued = false;
    connection.removeAllListeners();
    connection.on('error', () => {});
    void connection.end().catch(() => {});
    if (closed) return;
    const delay = RECONNECT_MS[Math.min(attempt++, RECONNECT_MS.length - 1)]!;
    setTimeout(() => void connect(), delay).unref();
  }

  async function connect() {
    if (closed) return;
    const connection = new pg.Client({ connectionString, application_name: 'catalog listing index' });
    client = connection;
    connection.on('error', (error) => {
      log.warn({ err: error }, 'listing index: connection lost, pages are read from SQL meanwhile');
      lose(connection);
    });
    connection.on('end', () => lose(connection));
    connection.on('notification', (message) => onNotification(connection, message));
    try {
      await connection.connect();
      // Listening first: a change made during the full read is notified, and read again after it.
      await connection.query(`listen ${CHANNEL}; listen ${VIEWS_CHANNEL}; listen ${CARDS_CHANNEL}`);
      const loaded = new ListingIndex();
      let after = 0;
      for (;;) {
        const { rows } = await connection.query<EntryRow>(
          `select ${ENTRY_COLUMNS} from listing_facts where id > $1 order by id limit ${LOAD_BATCH}`,
          [after],
        );
        for (const row of rows) loaded.upsert(entryOf(row));
        if (rows.length < LOAD_BATCH) break;
        after = rows[rows.length - 1]!.id;
      }
      if (client !== connection) return;
      enqueue(connection, () => {
        // Lost meanwhile: this read may already miss a change; the next connection reads again.
        if (client !== connection) return;
        index = loaded;
        for (const [id, views] of countsDuringLoad) index.setViews(id, views, { atLeast: true });
        countsDuringLoad = new Map();
        attempt = 0;
        log.info({ listings: loaded.count }, 'listing index loaded');
        return readBack(connection);
      });
    } catch (error) {
      log.warn({ err: error }, 'listing index: not loaded, pages are read from SQL meanwhile');
      lose(connection);
    }
  }

  void connect();

  return {
    select(selection) {
      return upToDate() ? index!.select(selection) : null;
    },
    rows(ids, read) {
      return upToDate() ? cards.rows(ids, read, upToDate) : read(ids);
    },
    catchUp() {
      const connection = client;
      if (!connection || !index) return;
      const marker = nextMarker++;
      markers.add(marker);
      connection.query('select pg_notify($1, $2)', [CHANNEL, `${ownMarker}${marker}`]).catch((error) => {
        log.warn({ err: error }, 'listing index: catching up failed');
        lose(connection);
      });
    },
    ready() {
      return upToDate() ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve));
    },
    async close() {
      closed = true;
      const connection = client;
      if (connection) lose(connection);
      await work;
    },
  };
}
