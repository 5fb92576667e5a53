import { useSyncExternalStore } from 'react';
import { API_CACHE, FORGET_MEMBER, OFFLINE_HEADER, RECEIVED_AT_HEADER } from './names';

/**
 * What the page shows was read from the phone rather than the network: the service worker marks
 * such answers (frontends/shell/sw). The API client notes each answer here; the shell's banner
 * says « Hors ligne, vu il y a … » with the oldest of the page's answers, and forgets them when
 * the page changes or a fresh answer replaces one.
 */
type Listener = () => void;

/** The API reads of the current page answered from the phone: their URL → when they were received. */
const fromPhone = new Map<string, number>();
const listeners = new Set<Listener>();
let snapshot: OfflineState = { online: true, seenAt: null };

export interface OfflineState {
  /** The browser's own view of the network (false: no network at all). */
  online: boolean;
  /** When the oldest answer shown was received, or null when the page's answers are fresh. */
  seenAt: number | null;
}

function publish() {
  const online = typeof navigator === 'undefined' ? true : navigator.onLine;
  const seenAt = fromPhone.size ? Math.min(...fromPhone.values()) : null;
  if (snapshot.online === online && snapshot.seenAt === seenAt) return;
  snapshot = { online, seenAt };
  for (const listener of listeners) listener();
}

/** Called by the API client with each answer of a GET. */
export function noteApiAnswer(url: string, response: Response) {
  if (response.headers.get(OFFLINE_HEADER)) {
    const received = Date.parse(response.headers.get(RECEIVED_AT_HEADER) ?? '');
    // An answer the phone never had (a 503 of the worker) is the page's own error, not a date.
    if (Number.isNaN(received)) return;
    fromPhone.set(url, received);
  } else if (!fromPhone.delete(url)) {
    return;
  }
  publish();
}

/** A new page: what the previous one read no longer counts. */
export function forgetOfflineAnswers() {
  if (!fromPhone.size) return;
  fromPhone.clear();
  publish();
}

function subscribe(listener: Listener) {
  listeners.add(listener);
  if (listeners.size === 1 && typeof window !== 'undefined') {
    window.addEventListener('online', publish);
    window.addEventListener('offline', publish);
  }
  publish();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && typeof window !== 'undefined') {
      window.removeEventListener('online', publish);
      window.removeEventListener('offline', publish);
    }
  };
}

export function useOfflineState(): OfflineState {
  return useSyncExternalStore(
    subscribe,
    () => snapshot,
    () => snapshot,
  );
}

/**
 * Erases the member's answers kept on the phone: at logout, and when another member (or the
 * same after a visitor) signs in, so that no one reads another's conversations or deals offline.
 */
export async function forgetMemberAnswers(): Promise<void> {
  if (typeof navigator !== 'undefined') navigator.serviceWorker?.controller?.postMessage({ type: FORGET_MEMBER });
  if (typeof caches === 'undefined') return;
  await caches.delete(API_CACHE).catch(() => false);
}

const relative = new Intl.RelativeTimeFormat('fr', { numeric: 'auto' });

/** « à l’instant », « il y a 12 minutes », « il y a 3 heures », « il y a 2 jours ». */
export function seenAgo(at: number, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 60) return 'à l’instant';
  if (seconds < 3600) return relative.format(-Math.round(seconds / 60), 'minute');
  if (seconds < 86_400) return relative.format(-Math.round(seconds / 3600), 'hour');
  return relative.format(-Math.round(seconds / 86_400), 'day');
}
