import { useEffect, useState } from 'react';
import { sessionStore } from '../session/store';
import {
  CANCEL_WRITE,
  PENDING_WRITES,
  type PendingWrite,
  REPLAY_WRITES,
  WRITE_REFUSED,
  WRITE_SENT,
  WRITES_CHANGED,
} from './names';

/**
 * The page's side of the writes kept on the phone (frontends/shell/sw/write-queue.ts): what waits,
 * a way to cancel one, and the news of each sent or refused when the network returns.
 */
export type { PendingWrite };

function worker(): ServiceWorker | null {
  return typeof navigator === 'undefined' ? null : (navigator.serviceWorker?.controller ?? null);
}

/** The writes waiting, as the service worker lists them (none without one). */
export function pendingWrites(): Promise<PendingWrite[]> {
  const controller = worker();
  if (!controller) return Promise.resolve([]);
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => resolve([]), 3000);
    channel.port1.onmessage = (event) => {
      clearTimeout(timer);
      resolve(Array.isArray(event.data) ? (event.data as PendingWrite[]) : []);
    };
    controller.postMessage({ type: PENDING_WRITES }, [channel.port2]);
  });
}

export function cancelWrite(id: string) {
  worker()?.postMessage({ type: CANCEL_WRITE, id });
}

/**
 * While writes wait and the browser says it is online, the page asks the worker to send them again
 * this often: a send that failed at the moment the network came back (a connection not yet up, a
 * busy server's 503 or 429) would otherwise wait for the browser's own background sync, which
 * retries after minutes, or for the next page opened.
 */
export const RETRY_WRITES_MS = 10_000;

export interface WriteNews {
  onSent: (label: string) => void;
  onRefused: (label: string, message: string) => void;
}

/** The writes waiting, kept up to date; sends them when the browser says the network is back. */
export function usePendingWrites(news: WriteNews): PendingWrite[] {
  const [writes, setWrites] = useState<PendingWrite[]>([]);
  const { onSent, onRefused } = news;
  useEffect(() => {
    const container = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
    if (!container) return;
    let active = true;
    let waiting = 0;
    const refresh = () =>
      void pendingWrites().then((list) => {
        if (!active) return;
        waiting = list.length;
        setWrites(list);
      });
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { type?: string; label?: string; message?: string } | null;
      if (data?.type === WRITES_CHANGED) refresh();
      else if (data?.type === WRITE_SENT) onSent(data.label ?? '');
      else if (data?.type === WRITE_REFUSED) onRefused(data.label ?? '', data.message ?? '');
    };
    // With the session's token: a write kept longer than the one it was made with still goes.
    const onOnline = () => worker()?.postMessage({ type: REPLAY_WRITES, token: sessionStore.getState().token });
    container.addEventListener('message', onMessage);
    container.addEventListener('controllerchange', refresh);
    window.addEventListener('online', onOnline);
    const retry = setInterval(() => {
      if (waiting > 0 && navigator.onLine) onOnline();
    }, RETRY_WRITES_MS);
    refresh();
    if (navigator.onLine) onOnline();
    return () => {
      active = false;
      clearInterval(retry);
      container.removeEventListener('message', onMessage);
      container.removeEventListener('controllerchange', refresh);
      window.removeEventListener('online', onOnline);
    };
  }, [onSent, onRefused]);
  return writes;
}
