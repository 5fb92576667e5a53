import type { CurrentUserResponse } from '@cartable/contracts';
import { useCallback, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, api } from '../api/client';
import { notify } from '../toast';
import { isVerifiedUser, type SessionState, sessionStore } from './store';
import type { LoginResponse, User } from './types';

export interface Session extends SessionState {
  /** Token present and verified user stored. */
  isAuthenticated: boolean;
  isAdmin: boolean;
}

function derive(state: SessionState): Session {
  const isAuthenticated = Boolean(state.token && state.user?.email_verified);
  return {
    ...state,
    isAuthenticated,
    isAdmin: isAuthenticated && isAdminUser(state.user),
  };
}

/** Admin = the is_admin flag or the "admin" role. */
export function isAdminUser(user: User | null | undefined): boolean {
  if (!user) return false;
  return user.is_admin === true || user.roles.some((role) => role.slug === 'admin');
}

/** Current session, re-rendering on login, logout and user refresh (host and remotes alike). */
export function useSession(): Session {
  const state = useSyncExternalStore(sessionStore.subscribe, sessionStore.getState, sessionStore.getState);
  return derive(state);
}

/** Current session outside React. */
export function getSession(): Session {
  return derive(sessionStore.getState());
}

let started: Promise<void> | null = null;

/**
 * Start-up check (SPEC section 4): the stored session was already read (unverified or corrupt data
 * erased); now GET /api/user confirms it. 401/403 clears the session; a network failure keeps it.
 * Safe to call several times: the check runs once.
 */
export function initSession(): Promise<void> {
  if (started) return started;
  started = (async () => {
    if (!sessionStore.getState().token) {
      sessionStore.setStatus('ready');
      return;
    }
    try {
      // What a stored session's server says is checked, not trusted: a user without a verified
      // e-mail (or no user) ends the session.
      const data = await api.get<Partial<CurrentUserResponse>>('/user');
      if (isVerifiedUser(data?.user)) sessionStore.setUser(data.user);
      else sessionStore.clear();
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
        sessionStore.clear();
      }
    } finally {
      sessionStore.setStatus('ready');
    }
  })();
  return started;
}

/**
 * Stores the session from a login answer. Only an answer with an access token and a user whose
 * e-mail is verified is stored; returns whether it was.
 */
export function storeLogin(response: Pick<LoginResponse, 'access_token' | 'user'>): boolean {
  return sessionStore.setSession(response.access_token, response.user);
}

/** POST /api/logout, then always clears token and user (even when the call fails). */
export async function logout(): Promise<void> {
  try {
    if (sessionStore.getState().token) await api.post('/logout');
  } catch {
    // the session is cleared anyway
  } finally {
    sessionStore.clear();
  }
}

/** Logout for buttons: clears the session, confirms with a toast and goes to /login. */
export function useLogout(): () => Promise<void> {
  const navigate = useNavigate();
  return useCallback(async () => {
    await logout();
    notify.success('Vous avez été déconnecté avec succès.');
    navigate('/login', { replace: true });
  }, [navigate]);
}
