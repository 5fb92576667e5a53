import { canEnterBackOffice, sameSitePath, useSession } from '@cartable/ui';
import { Navigate, Outlet, useLocation } from '@cartable/ui/router';
import type { ReactNode } from 'react';

/** Where a guarded page sends people, kept in navigation state so login can bring them back. */
export interface FromState {
  from?: { pathname: string; search?: string; hash?: string };
  /** A message for the next page (login after verification, reset or logout). */
  message?: string;
  /** How the message is shown: "success" (green) or "info" (blue, the default). */
  messageTone?: 'success' | 'info';
  email?: string;
  /** The proof the sign-up or the login gave that this browser holds `email` (register-success asks with it). */
  verificationCheck?: string;
}

/** A same-site path to return to after login, or null. */
export function returnPath(state: unknown, search: string): string | null {
  const fromUrl = sameSitePath(new URLSearchParams(search).get('return_url'));
  if (fromUrl) return fromUrl;
  const from = (state as FromState | null)?.from;
  return from ? sameSitePath(`${from.pathname}${from.search ?? ''}${from.hash ?? ''}`) : null;
}

/** Verified-user routes: others go to /login, carrying the attempted location. */
export function RequireVerified({ children }: { children?: ReactNode }) {
  const { isAuthenticated } = useSession();
  const location = useLocation();
  if (!isAuthenticated) {
    const from = { pathname: location.pathname, search: location.search, hash: location.hash };
    return <Navigate to="/login" replace state={{ from } satisfies FromState} />;
  }
  return children ?? <Outlet />;
}

/** Guest-only routes (/login, /register): a verified user goes on to where they were headed or /dashboard. */
export function GuestOnly({ children }: { children?: ReactNode }) {
  const { isAuthenticated } = useSession();
  const location = useLocation();
  if (isAuthenticated) {
    return <Navigate to={returnPath(location.state, location.search) ?? '/dashboard'} replace />;
  }
  return children ?? <Outlet />;
}

/**
 * Admin area: admins, and members holding a back-office permission (who reach just their screens);
 * everybody else goes to the home page.
 */
export function RequireBackOffice({ children }: { children?: ReactNode }) {
  const { user } = useSession();
  if (!canEnterBackOffice(user)) return <Navigate to="/" replace />;
  return children ?? <Outlet />;
}
