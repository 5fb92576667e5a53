import {
  AlertIcon,
  Button,
  Container,
  CrashFallback,
  EmptyState,
  ErrorBoundary,
  PageSpinner,
  RefreshIcon,
  useOfflineState,
} from '@cartable/ui';
import { NEVER_OPENED } from '@cartable/ui/offline-names';
import { UNSAFE_RouteContext, useLocation } from '@cartable/ui/router';
import { type ComponentType, type ReactNode, startTransition, useEffect, useState } from 'react';
import { loadedRemote, loadRemoteRoutes, type RemoteName } from './federation';

/**
 * Remotes declare their routes with absolute paths ("/books/:id", "/admin/users"). Mounting them
 * under an empty route context makes those paths match whatever shell route renders the remote.
 */
const ROOT_ROUTE_CONTEXT = { outlet: null, matches: [], isDataRoute: false };

type LoadState = { status: 'loading' } | { status: 'ready'; Component: ComponentType } | { status: 'error' };

export interface RemoteRoutesProps {
  remote: RemoteName;
  /** Wraps the loading, failure and crash states (the admin area uses the site frame for them). */
  frame?: (children: ReactNode) => ReactNode;
}

const noFrame = (children: ReactNode) => children;

/** Loads a remote at run time and renders its routes; French fallback with retry on failure. */
export function RemoteRoutes({ remote, frame = noFrame }: RemoteRoutesProps) {
  // Each retry mounts a fresh loader, which asks the federation runtime again.
  const [attempt, setAttempt] = useState(0);
  return <RemoteLoader key={attempt} remote={remote} frame={frame} onRetry={() => setAttempt((n) => n + 1)} />;
}

interface RemoteLoaderProps {
  remote: RemoteName;
  frame: (children: ReactNode) => ReactNode;
  onRetry: () => void;
}

function RemoteLoader({ remote, frame, onRetry }: RemoteLoaderProps) {
  const location = useLocation();
  const [state, setState] = useState<LoadState>(() => {
    const Component = loadedRemote(remote);
    return Component ? { status: 'ready', Component } : { status: 'loading' };
  });

  useEffect(() => {
    // Loaded between the first render and now (the early start in index.ts can be that quick):
    // show it, instead of waiting for a load that already happened.
    const ready = loadedRemote(remote);
    if (ready) {
      startTransition(() =>
        setState((current) => (current.status === 'ready' ? current : { status: 'ready', Component: ready })),
      );
      return;
    }
    let cancelled = false;
    loadRemoteRoutes(remote).then(
      (Component) => {
        // A transition: React renders the remote's page in slices and lets a tap through between
        // them, instead of one long task on a slow phone's main thread.
        if (!cancelled) startTransition(() => setState({ status: 'ready', Component }));
      },
      (error: unknown) => {
        console.error(`Impossible de charger le module « ${remote} »`, error);
        if (!cancelled) setState({ status: 'error' });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [remote]);

  if (state.status === 'loading') return frame(<PageSpinner />);
  if (state.status === 'error') return frame(<RemoteUnavailable onRetry={onRetry} />);
  const { Component } = state;
  return (
    <ErrorBoundary resetKey={location.pathname} fallback={() => frame(<CrashFallback />)}>
      <UNSAFE_RouteContext.Provider value={ROOT_ROUTE_CONTEXT}>
        <Component />
      </UNSAFE_RouteContext.Provider>
    </ErrorBoundary>
  );
}

function RemoteUnavailable({ onRetry }: { onRetry: () => void }) {
  const { online } = useOfflineState();
  return (
    <Container className="py-10 sm:py-16">
      <EmptyState
        icon={<AlertIcon size={26} />}
        tone="warning"
        title={online ? "Cette partie du site n'a pas pu être chargée." : 'Pas de connexion'}
        description={online ? 'Votre connexion est peut-être instable. Vérifiez-la puis réessayez.' : NEVER_OPENED}
        action={
          <Button onClick={onRetry} leftIcon={<RefreshIcon size={18} />}>
            Réessayer
          </Button>
        }
      />
    </Container>
  );
}
