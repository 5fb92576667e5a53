import { MEMBER_HINT_COOKIE } from '@cartable/contracts/book-page';
import { forgetMemberAnswers } from '../offline/offline-state';
import type { User } from './types';

/** localStorage keys (SPEC section 3: browser storage holds `token` and `user`). */
export const TOKEN_KEY = 'token';
export const USER_KEY = 'user';

export interface SessionState {
  token: string | null;
  user: User | null;
  /**
   * "checking" while the stored session is being confirmed with GET /api/user at start-up,
   * "ready" afterwards (or straight away when there was nothing stored).
   */
  status: 'checking' | 'ready';
}

type Listener = () => void;

function isUser(value: unknown): value is User {
  if (!value || typeof value !== 'object') return false;
  const user = value as Record<string, unknown>;
  return typeof user.id === 'string' && typeof user.email === 'string' && typeof user.name === 'string';
}

/** A user counts only when the object is well formed and the e-mail is verified. */
export function isVerifiedUser(value: unknown): value is User {
  return isUser(value) && value.email_verified === true;
}

function normaliseUser(user: User): User {
  return {
    ...user,
    roles: Array.isArray(user.roles) ? user.roles : [],
    permissions: Array.isArray(user.permissions) ? user.permissions : [],
    is_admin: user.is_admin === true,
  };
}

function safeStorage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

/** Reads the stored session; unverified or corrupt data erases both keys. */
function readStorage(): Pick<SessionState, 'token' | 'user'> {
  const storage = safeStorage();
  if (!storage) return { token: null, user: null };
  const token = storage.getItem(TOKEN_KEY);
  const rawUser = storage.getItem(USER_KEY);
  if (token === null && rawUser === null) return { token: null, user: null };
  try {
    const user: unknown = rawUser ? JSON.parse(rawUser) : null;
    if (token && isVerifiedUser(user)) return { token, user: normaliseUser(user) };
  } catch {
    // corrupt JSON: erased below
  }
  storage.removeItem(TOKEN_KEY);
  storage.removeItem(USER_KEY);
  return { token: null, user: null };
}

/** The gateway's hint that this browser holds a session (`MEMBER_HINT_COOKIE`). */
function hintMember(member: boolean) {
  if (typeof document === 'undefined') return;
  document.cookie = member
    ? `${MEMBER_HINT_COOKIE}=1; Path=/; SameSite=Lax; Max-Age=31536000`
    : `${MEMBER_HINT_COOKIE}=; Path=/; SameSite=Lax; Max-Age=0`;
}

function createSessionStore() {
  const initial = readStorage();
  hintMember(initial.token !== null);
  let state: SessionState = { ...initial, status: initial.token ? 'checking' : 'ready' };
  const listeners = new Set<Listener>();

  function set(next: Partial<SessionState>) {
    state = { ...state, ...next };
    for (const listener of listeners) listener();
  }

  return {
    getState: (): SessionState => state,
    subscribe(listener: Listener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Stores a session; refuses (returns false) without a token or a verified user. */
    setSession(token: string | null | undefined, user: unknown): boolean {
      if (!token || !isVerifiedUser(user)) return false;
      const normalised = normaliseUser(user);
      // What the phone kept of a visitor's or another member's reads is not this member's.
      if (state.user?.id !== normalised.id) void forgetMemberAnswers();
      const storage = safeStorage();
      storage?.setItem(TOKEN_KEY, token);
      storage?.setItem(USER_KEY, JSON.stringify(normalised));
      hintMember(true);
      set({ token, user: normalised, status: 'ready' });
      return true;
    },
    /** Replaces the stored user (e.g. after GET /api/user or a profile update). */
    setUser(user: User): void {
      if (!state.token) return;
      const normalised = normaliseUser(user);
      safeStorage()?.setItem(USER_KEY, JSON.stringify(normalised));
      set({ user: normalised });
    },
    setStatus(status: SessionState['status']): void {
      if (state.status !== status) set({ status });
    },
    /** Erases token and user, in memory and in localStorage. */
    clear(): void {
      void forgetMemberAnswers();
      const storage = safeStorage();
      storage?.removeItem(TOKEN_KEY);
      storage?.removeItem(USER_KEY);
      hintMember(false);
      set({ token: null, user: null, status: 'ready' });
    },
    /** Re-reads localStorage (another tab logged in or out). */
    reload(): void {
      const next = readStorage();
      hintMember(next.token !== null);
      if (next.token !== state.token || JSON.stringify(next.user) !== JSON.stringify(state.user)) {
        set({ ...next });
      }
    },
  };
}

/**
 * The one session store. @cartable/ui is a federated singleton, so the shell and every remote
 * read and write this same instance.
 */
export const sessionStore = createSessionStore();

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === null || event.key === TOKEN_KEY || event.key === USER_KEY) {
      sessionStore.reload();
    }
  });
}
