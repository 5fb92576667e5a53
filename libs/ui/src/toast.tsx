import { type RefObject, useEffect, useState, useSyncExternalStore } from 'react';
import { ApiError, errorMessage } from './api/client';

/*
 * Toasts use sonner, loaded with the first toast (or once the browser is idle well after the
 * page's load): it is not needed to show the page, and keeping it out of the first load saves about
 * 10 kB (compressed) on slow mobile connections.
 * sonner is a federated singleton, so every frontend's `notify` reaches the shell's one outlet.
 */

type Sonner = typeof import('sonner');

let sonner: Promise<Sonner> | null = null;
function loadSonner(): Promise<Sonner> {
  sonner ??= import('sonner');
  return sonner;
}

let wantOutlet: () => void = () => {};
/** Resolves at the first toast, or when the page has long finished loading (see AppToaster). */
const outletWanted = new Promise<void>((resolve) => {
  wantOutlet = resolve;
});

/** A late, idle moment after the page's load: sonner is then ready before most toasts. */
function afterLoadIdle(callback: () => void): () => void {
  let timer = 0;
  const start = () => {
    timer = window.setTimeout(() => {
      if ('requestIdleCallback' in window) window.requestIdleCallback(callback, { timeout: 5000 });
      else callback();
    }, 10_000);
  };
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
  return () => {
    window.removeEventListener('load', start);
    window.clearTimeout(timer);
  };
}

let markReady: () => void = () => {};
/** Resolves once the outlet is mounted and listening (toasts sent before would be lost). */
const outletReady = new Promise<void>((resolve) => {
  markReady = resolve;
});

/** Rendered right after sonner's Toaster: its effect runs once the Toaster is subscribed. */
function OutletReady() {
  useEffect(() => markReady(), []);
  return null;
}

/** SPEC section 9's mobile layout: 768 px or less. */
const PHONE_QUERY = '(max-width: 768px)';

function subscribePhone(onChange: () => void) {
  const query = window.matchMedia(PHONE_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}
const isPhone = () => window.matchMedia(PHONE_QUERY).matches;

/**
 * The toast outlet (SPEC section 9: top-right, 5 s, alt+T). On a phone the top of the screen is
 * where the page's title, the account menu opened after a login and a form's first field are, so
 * toasts rise from the bottom there, above the browser's bar, as phones' own notices do. Mount it once, in the shell (and in a
 * remote's standalone development entry); the rest of the code only calls `notify`.
 */
export function AppToaster() {
  const [module, setModule] = useState<Sonner | null>(null);
  const phone = useSyncExternalStore(subscribePhone, isPhone, () => false);
  useEffect(() => {
    let active = true;
    const stopIdle = afterLoadIdle(wantOutlet);
    void outletWanted.then(loadSonner).then((loaded) => {
      if (active) setModule(loaded);
    });
    return () => {
      active = false;
      stopIdle();
    };
  }, []);
  if (!module) return null;
  const { Toaster } = module;
  return (
    <>
      <Toaster
        position={phone ? 'bottom-center' : 'top-right'}
        duration={5000}
        hotkey={['altKey', 'KeyT']}
        // Below the 64 px header, so a toast never hides the account menu or the messages badge.
        offset={{ top: 76, right: 16 }}
        // Above a page's fixed action bar (the book page's « Contacter »), which says its height in
        // --cartable-bottom-bar: a toast neither hides that bar nor is hidden by it.
        mobileOffset={{ bottom: 'calc(12px + var(--cartable-bottom-bar, 0px))', right: 8, left: 8 }}
        richColors
        closeButton
        containerAriaLabel="Notifications"
        toastOptions={{ closeButtonAriaLabel: 'Fermer la notification' }}
      />
      <OutletReady />
    </>
  );
}

export interface NotifyOptions {
  /** Display time in ms (5000 by default; the idle-logout notice uses 8000). */
  duration?: number;
  description?: string;
  id?: string | number;
  /** A button in the toast (« Mettre à jour »). */
  action?: { label: string; onClick: () => void };
}

type Kind = 'success' | 'error' | 'warning' | 'info';

function show(kind: Kind, message: string, options?: NotifyOptions): Promise<string | number> {
  wantOutlet();
  return outletReady.then(loadSonner).then(({ toast }) => toast[kind](message, options));
}

/** French notifications: `notify.success('Connexion réussie !')`. Resolves to the toast id. */
export const notify = {
  success: (message: string, options?: NotifyOptions) => show('success', message, options),
  error: (message: string, options?: NotifyOptions) => show('error', message, options),
  warning: (message: string, options?: NotifyOptions) => show('warning', message, options),
  info: (message: string, options?: NotifyOptions) => show('info', message, options),
  dismiss: (id?: string | number) => {
    void loadSonner().then(({ toast }) => toast.dismiss(id));
  },
};

/**
 * For a bar fixed at the bottom of a phone's screen: while it is shown, toasts rise above it
 * (its height, kept up to date, in --cartable-bottom-bar), so that neither hides the other.
 */
export function useToastsAboveBar(bar: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const element = bar.current;
    if (!element) return;
    const root = document.documentElement.style;
    const measure = () => root.setProperty('--cartable-bottom-bar', `${element.offsetHeight}px`);
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(measure);
    observer?.observe(element);
    return () => {
      observer?.disconnect();
      root.removeProperty('--cartable-bottom-bar');
    };
  }, [bar]);
}

/**
 * A write that did not go through: an error toast, unless the service worker kept it to send
 * when the network returns (then an information: it is not lost).
 */
export function notifyFailure(error: unknown, fallback: string) {
  if (error instanceof ApiError && error.isQueued) return notify.info(error.message);
  return notify.error(errorMessage(error, fallback));
}
