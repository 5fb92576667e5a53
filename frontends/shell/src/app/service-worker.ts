import { notify } from '@cartable/ui';
import { SKIP_WAITING } from '@cartable/ui/offline-names';

const HOUR = 3600_000;

/**
 * Registers the service worker (frontends/shell/sw) once the page has loaded, so that it never
 * competes with the page's own downloads. A new version waits until the member taps « Mettre à
 * jour »: the page open keeps running the files it started with until then.
 */
export function registerServiceWorker() {
  if (process.env.NODE_ENV !== 'production' || !('serviceWorker' in navigator)) return;
  const start = async () => {
    const { Workbox } = await import(/* webpackChunkName: "service-worker" */ 'workbox-window');
    const worker = new Workbox('/sw.js');
    worker.addEventListener('waiting', () => {
      void notify.info('Une nouvelle version de Cartable est prête.', {
        id: 'cartable-update',
        duration: Number.POSITIVE_INFINITY,
        action: {
          label: 'Mettre à jour',
          onClick: () => {
            worker.addEventListener('controlling', () => window.location.reload());
            worker.messageSW({ type: SKIP_WAITING }).catch(() => undefined);
          },
        },
      });
    });
    await worker.register();
    // A phone left open for days still hears of a new version.
    window.setInterval(() => void worker.update(), 6 * HOUR);
  };
  const later = () => void start().catch(() => undefined);
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later, { once: true });
}
