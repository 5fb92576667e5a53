import './styles.css';
import { startLoadingRemoteFor } from './app/federation';
import { registerServiceWorker } from './app/service-worker';

// Home, /books, a book page: their remote downloads while the shell renders its frame.
startLoadingRemoteFor(window.location.pathname);

/**
 * Lets the browser run what waits (a tap, a paint, a script that arrived) before the next step.
 * Evaluating the shell's modules in one go was a single task of 700–940 ms with the CPU slowed ×4
 * (a phone's pace): a tap waited that long. In steps the longest is 195–250 ms, and the content
 * shows no later (`npm run bench -- web`, its observed loads; figures in the README).
 */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

async function start() {
  // React with react-dom (the largest module to compile), then the UI library and the application.
  await nextTask();
  const [{ createElement, startTransition }, { createRoot }] = await Promise.all([
    import('react'),
    import('react-dom/client'),
  ]);
  await nextTask();
  const [{ initSession }, { App }] = await Promise.all([
    import('@cartable/ui'),
    import(/* webpackMode: "eager" */ './app/App'),
  ]);
  // Reads the stored session now (synchronously) and confirms it with GET /api/user in the background.
  void initSession();
  const container = document.getElementById('root');
  if (!container) throw new Error('Élément #root introuvable');
  const root = createRoot(container);
  // The first render as a transition: React renders it in slices of a few milliseconds and lets
  // the browser breathe between them, where a plain render is one long task (on a slow phone,
  // hundreds of milliseconds during which a tap waits). The boot screen stays until the page is ready.
  startTransition(() => root.render(createElement(App)));
}

registerServiceWorker();

start().catch((error: unknown) => {
  console.error(error);
  const boot = document.getElementById('boot');
  if (boot) boot.textContent = "Cartable n'a pas pu démarrer. Rechargez la page.";
});
