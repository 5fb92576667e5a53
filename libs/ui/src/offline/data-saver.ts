import { DATA_SAVER_COOKIE } from '@cartable/contracts/book-page';
import { useSyncExternalStore } from 'react';

/**
 * Mobile data is dear in Gabon (about 2 607 FCFA a gigabyte in 2021): a data-saver mode for this
 * phone, and what the pages cost. The mode is on by default when the browser says so (Save-Data,
 * or a 2G connection) and the member may choose otherwise (profile); its choice is kept on the
 * phone, with a cookie that tells the gateway not to preload a book's large photo.
 */

/** FCFA per gigabyte when the member set no price of their own. */
export const DEFAULT_PRICE_PER_GB = 2607;
const CHOICE_KEY = 'cartable.data-saver';
const PRICE_KEY = 'cartable.data-price';
const USAGE_KEY = 'cartable.data-used';

interface NetworkInformation {
  saveData?: boolean;
  effectiveType?: string;
}

export interface DataSaver {
  /** Whether photos wait for a tap and only thumbnails load. */
  enabled: boolean;
  /** 'auto': the browser's signal decides; else the member's own choice. */
  choice: 'auto' | 'on' | 'off';
  /** Whether the browser asks to save data (Save-Data, slow connection). */
  browserAsks: boolean;
  pricePerGb: number;
}

type Listener = () => void;
const listeners = new Set<Listener>();

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

function connection(): NetworkInformation | undefined {
  return typeof navigator === 'undefined'
    ? undefined
    : (navigator as Navigator & { connection?: NetworkInformation }).connection;
}

function read(): DataSaver {
  const stored = storage()?.getItem(CHOICE_KEY);
  const choice = stored === 'on' || stored === 'off' ? stored : 'auto';
  const network = connection();
  const browserAsks = network?.saveData === true || /(?:^|-)2g$/.test(network?.effectiveType ?? '');
  const price = Number(storage()?.getItem(PRICE_KEY));
  return {
    enabled: choice === 'on' || (choice === 'auto' && browserAsks),
    choice,
    browserAsks,
    pricePerGb: Number.isFinite(price) && price > 0 ? price : DEFAULT_PRICE_PER_GB,
  };
}

function tellGateway(enabled: boolean) {
  if (typeof document === 'undefined') return;
  document.cookie = enabled
    ? `${DATA_SAVER_COOKIE}=1; Path=/; SameSite=Lax; Max-Age=31536000`
    : `${DATA_SAVER_COOKIE}=; Path=/; SameSite=Lax; Max-Age=0`;
}

let snapshot = read();
tellGateway(snapshot.enabled);
function publish() {
  const next = read();
  if (JSON.stringify(next) === JSON.stringify(snapshot)) return;
  snapshot = next;
  tellGateway(next.enabled);
  for (const listener of listeners) listener();
}
// The connection changes under the phone (2G in the interior, Wi-Fi at home).
(connection() as (NetworkInformation & EventTarget) | undefined)?.addEventListener?.('change', publish);

export function setDataSaver(choice: DataSaver['choice']) {
  if (choice === 'auto') storage()?.removeItem(CHOICE_KEY);
  else storage()?.setItem(CHOICE_KEY, choice);
  publish();
}

/** The price of a gigabyte the costs are counted at (a whole positive number of FCFA). */
export function setDataPrice(pricePerGb: number | null) {
  if (pricePerGb === null || !Number.isInteger(pricePerGb) || pricePerGb <= 0) storage()?.removeItem(PRICE_KEY);
  else storage()?.setItem(PRICE_KEY, String(pricePerGb));
  publish();
}

function subscribe(listener: Listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useDataSaver(): DataSaver {
  return useSyncExternalStore(
    subscribe,
    () => snapshot,
    () => snapshot,
  );
}

// ── what the pages cost ─────────────────────────────────────────────────────────────────────

/** The bytes a page moved over the network, as the browser's resource timing counts them. */
const transferred = (entry: PerformanceEntry) =>
  'transferSize' in entry ? Number((entry as PerformanceResourceTiming).transferSize) || 0 : 0;

let pageStart = 0;
let pageBytes = 0;
const usageListeners = new Set<Listener>();

function monthKey(at = new Date()) {
  return `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}`;
}

/** The bytes counted this month on this phone (all pages). */
export function monthBytes(): number {
  try {
    const usage = JSON.parse(storage()?.getItem(USAGE_KEY) ?? 'null') as { month?: string; bytes?: number } | null;
    return usage?.month === monthKey() && typeof usage.bytes === 'number' ? usage.bytes : 0;
  } catch {
    return 0;
  }
}

function addToMonth(bytes: number) {
  if (bytes <= 0) return;
  storage()?.setItem(USAGE_KEY, JSON.stringify({ month: monthKey(), bytes: monthBytes() + bytes }));
}

let observing = false;
/** Starts counting: each resource the page loads, and the page's own document. */
export function countDataUsage() {
  if (observing || typeof PerformanceObserver === 'undefined') return;
  observing = true;
  const count = (entries: PerformanceEntry[]) => {
    let bytes = 0;
    for (const entry of entries) {
      const size = transferred(entry);
      bytes += size;
      if (entry.startTime >= pageStart) pageBytes += size;
    }
    addToMonth(bytes);
    for (const listener of usageListeners) listener();
  };
  try {
    new PerformanceObserver((list) => count(list.getEntries())).observe({ type: 'resource', buffered: true });
    new PerformanceObserver((list) => count(list.getEntries())).observe({ type: 'navigation', buffered: true });
  } catch {
    observing = false;
  }
}

/** A new page (client-side navigation): its count starts from zero. */
export function startPageCount() {
  pageStart = typeof performance === 'undefined' ? 0 : performance.now();
  pageBytes = 0;
  for (const listener of usageListeners) listener();
}

let usageSnapshot = { page: 0, month: 0 };
function usage() {
  const month = monthBytes();
  if (usageSnapshot.page !== pageBytes || usageSnapshot.month !== month) usageSnapshot = { page: pageBytes, month };
  return usageSnapshot;
}

/** The bytes of the current page and of the month, updated as resources arrive. */
export function useDataUsage(): { page: number; month: number } {
  return useSyncExternalStore(
    (listener) => {
      usageListeners.add(listener);
      return () => usageListeners.delete(listener);
    },
    usage,
    usage,
  );
}

const kilobytes = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 0 });
const megabytes = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 1 });
const francs = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 2 });

/** « 48 Ko », « 12,4 Mo ». */
export function formatBytes(bytes: number): string {
  return bytes < 1024 * 1024 ? `${kilobytes.format(bytes / 1024)} Ko` : `${megabytes.format(bytes / 1024 / 1024)} Mo`;
}

/** What these bytes cost at that price of a gigabyte: « 0,13 FCFA ». */
export function formatDataCost(bytes: number, pricePerGb: number): string {
  const cost = (bytes / 1024 ** 3) * pricePerGb;
  return `${francs.format(cost < 0.01 && cost > 0 ? 0.01 : cost)} FCFA`;
}
