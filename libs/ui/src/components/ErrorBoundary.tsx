import { Component, type ErrorInfo, type ReactNode } from 'react';
import { AlertIcon, RefreshIcon } from '../icons';
import { NEVER_OPENED } from '../offline/names';
import { useOfflineState } from '../offline/offline-state';
import { Button } from './Button';

export interface ErrorBoundaryProps {
  children: ReactNode;
  /** Rendered instead of the children after a crash; gets a reset function. */
  fallback?: (error: Error, reset: () => void) => ReactNode;
  /** When this value changes (e.g. the URL), a crashed boundary tries again. */
  resetKey?: unknown;
}

interface State {
  error: Error | null;
  resetKey: unknown;
}

/** Catches render crashes below it; shows the SPEC section 8 fallback by default. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, State> {
  override state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: Error): Partial<State> {
    return { error };
  }

  static getDerivedStateFromProps(props: ErrorBoundaryProps, state: State): Partial<State> | null {
    if (props.resetKey !== state.resetKey) return { resetKey: props.resetKey, error: null };
    return null;
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Erreur de rendu', error, info.componentStack);
  }

  reset = () => this.setState({ error: null });

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return this.props.fallback ? this.props.fallback(error, this.reset) : <CrashFallback />;
  }
}

/** "Une erreur s'est produite" with a reload button (SPEC section 8, render crash). */
export function CrashFallback() {
  // Offline, a screen whose code this phone never loaded cannot be drawn: said as such.
  const { online } = useOfflineState();
  return (
    <div role="alert" className="mx-auto flex max-w-md flex-col items-center px-4 py-16 text-center">
      <div className="mb-4 flex h-14 w-14 items-center justify-center rounded-full bg-red-50 text-red-600">
        <AlertIcon size={28} />
      </div>
      <h1 className="text-xl font-bold text-slate-900">{online ? "Une erreur s'est produite" : 'Pas de connexion'}</h1>
      <p className="mt-2 text-sm text-slate-600">
        {online
          ? "Un problème inattendu a interrompu l'affichage de la page. Rechargez-la pour continuer."
          : NEVER_OPENED}
      </p>
      <Button className="mt-6" leftIcon={<RefreshIcon size={18} />} onClick={() => window.location.reload()}>
        Recharger la page
      </Button>
    </div>
  );
}
