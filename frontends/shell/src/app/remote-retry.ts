import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';

/**
 * A federation runtime plugin: what the shell does when a remote's manifest or entry does not
 * arrive. A phone on mobile data loses a request now and then, and a remote being redeployed
 * answers 503 for a moment: both are asked again twice, 0.5 s then 1.5 s later, before the page
 * shows its French fallback (RemoteRoutes), whose « Réessayer » starts the same three attempts.
 *
 * The runtime's own manifest fetch takes any answer it can parse: the gateway's JSON 404 of a
 * remote that is not deployed would then stay in its cache as a broken manifest, and no retry
 * would ever ask again. A failed answer is therefore an error here, which the runtime forgets.
 */
const DELAYS_MS = [500, 1500];

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function fetchWithRetries(url: string, init: RequestInit): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await fetch(url, init);
      if (response.ok) return response;
      if (attempt >= DELAYS_MS.length) throw new Error(`${url} : HTTP ${response.status}`);
    } catch (error) {
      if (attempt >= DELAYS_MS.length) throw error;
    }
    await pause(DELAYS_MS[attempt] ?? 0);
  }
}

type Hooks = Required<ModuleFederationRuntimePlugin>;
type EntryFailure = Parameters<Hooks['loadEntryError']>[0];
type RemoteEntry = Awaited<ReturnType<EntryFailure['getRemoteEntry']>>;

/** The remote entry's script failed to load (not to run): it is asked for again. */
async function reloadEntry({ getRemoteEntry, origin, remoteInfo, globalLoading, uniqueKey }: EntryFailure) {
  for (const delay of DELAYS_MS) {
    await pause(delay);
    delete globalLoading[uniqueKey];
    try {
      const entry: RemoteEntry = await getRemoteEntry({ origin, remoteInfo });
      if (entry) return entry;
    } catch {
      // the next attempt, or the fallback after the last one
    }
  }
  return undefined;
}

export default function remoteRetry(): ModuleFederationRuntimePlugin {
  return {
    name: 'cartable-remote-retry',
    fetch: (url, init) => fetchWithRetries(url, init),
    // The hook's type nests its answer in two promises; the runtime awaits it, which unwraps both.
    loadEntryError: (failure) => reloadEntry(failure) as unknown as ReturnType<Hooks['loadEntryError']>,
  };
}
