import { logout, notify, useSession } from '@cartable/ui';
import { useLocation, useNavigate } from '@cartable/ui/router';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import type { FromState } from '../../shared/guards';
import { type AppConfig, loadAppConfig } from './app-config';

const IdleWarningDialog = lazy(() => import('./IdleWarningDialog'));

export const IDLE_LOGOUT_MESSAGE = "Vous avez été déconnecté en raison d'inactivité prolongée.";
export const IDLE_LOGOUT_NOTICE_MS = 8000;

/**
 * Activity is shared between the tabs of the site: someone working in one tab must not be signed
 * out by another, idle one (the logout would end the session everywhere).
 */
export const ACTIVITY_KEY = 'cartable:last-activity';
const SHARE_EVERY_MS = 5000;

function sharedActivity(): number {
  try {
    return Number(window.localStorage.getItem(ACTIVITY_KEY)) || 0;
  } catch {
    return 0;
  }
}

function shareActivity(at: number) {
  try {
    window.localStorage.setItem(ACTIVITY_KEY, String(at));
  } catch {
    // private mode or full storage: each tab then counts on its own
  }
}

/** What counts as activity (SPEC section 4): mouse move, click, key, touch, scroll or wheel. */
const ACTIVITY_EVENTS = ['mousemove', 'mousedown', 'click', 'keydown', 'touchstart', 'scroll', 'wheel'] as const;

/**
 * Signs the user out after `inactivity_limit_ms` without activity; a warning counts down the last
 * `inactivity_warning_ms`. Active only while a session is open.
 */
export function InactivityMonitor() {
  const { isAuthenticated } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const locationRef = useRef(location);
  locationRef.current = location;
  const [config, setConfig] = useState<AppConfig | null>(null);

  useEffect(() => {
    if (!isAuthenticated || config) return;
    let active = true;
    void loadAppConfig().then((loaded) => {
      if (active) setConfig(loaded);
    });
    return () => {
      active = false;
    };
  }, [isAuthenticated, config]);

  // Lives here (always mounted), not in the watcher that unmounts as soon as the session is gone.
  const onExpire = useCallback(async () => {
    const { pathname, search, hash } = locationRef.current;
    await logout();
    notify.warning(IDLE_LOGOUT_MESSAGE, { duration: IDLE_LOGOUT_NOTICE_MS });
    navigate('/login', { replace: true, state: { from: { pathname, search, hash } } satisfies FromState });
  }, [navigate]);

  if (!isAuthenticated || !config) return null;
  return (
    <IdleWatch
      limitMs={config.inactivity_limit_ms}
      warningMs={Math.min(config.inactivity_warning_ms, config.inactivity_limit_ms)}
      onExpire={onExpire}
    />
  );
}

interface IdleWatchProps {
  limitMs: number;
  warningMs: number;
  onExpire: () => Promise<void>;
}

type Phase = { name: 'active' } | { name: 'warning'; deadline: number } | { name: 'expired' };

function IdleWatch({ limitMs, warningMs, onExpire }: IdleWatchProps) {
  const lastActivity = useRef(Date.now());
  const lastShared = useRef(0);
  const [phase, setPhase] = useState<Phase>({ name: 'active' });
  const warnAfter = limitMs - warningMs;

  const expire = useCallback(() => {
    setPhase({ name: 'expired' });
    void onExpire();
  }, [onExpire]);

  // Active phase: record activity cheaply, and check when the warning could be due.
  useEffect(() => {
    if (phase.name !== 'active') return;
    const onActivity = () => {
      const now = Date.now();
      lastActivity.current = now;
      if (now - lastShared.current >= SHARE_EVERY_MS) {
        lastShared.current = now;
        shareActivity(now);
      }
    };
    const options = { capture: true, passive: true } as const;
    for (const type of ACTIVITY_EVENTS) window.addEventListener(type, onActivity, options);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = () => {
      lastActivity.current = Math.max(lastActivity.current, sharedActivity());
      const idle = Date.now() - lastActivity.current;
      if (idle >= limitMs) return expire();
      if (idle >= warnAfter) return setPhase({ name: 'warning', deadline: lastActivity.current + limitMs });
      timer = setTimeout(check, warnAfter - idle);
    };
    check();
    return () => {
      if (timer) clearTimeout(timer);
      for (const type of ACTIVITY_EVENTS) window.removeEventListener(type, onActivity, options);
    };
  }, [phase.name, limitMs, warnAfter, expire]);

  const resume = useCallback(() => {
    const now = Date.now();
    lastActivity.current = now;
    lastShared.current = now;
    shareActivity(now);
    setPhase({ name: 'active' });
  }, []);

  // Warning phase: activity in another tab puts this one back to work too.
  useEffect(() => {
    if (phase.name !== 'warning') return;
    const since = Date.now();
    const onStorage = (event: StorageEvent) => {
      if (event.key !== ACTIVITY_KEY) return;
      const at = Number(event.newValue) || 0;
      if (at > since) {
        lastActivity.current = at;
        setPhase({ name: 'active' });
      }
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [phase.name]);

  if (phase.name !== 'warning') return null;
  return <IdleWarning deadline={phase.deadline} onContinue={resume} onExpire={expire} />;
}

function secondsLeft(deadline: number): number {
  return Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
}

interface IdleWarningProps {
  deadline: number;
  onContinue: () => void;
  onExpire: () => void;
}

function IdleWarning({ deadline, onContinue, onExpire }: IdleWarningProps) {
  const [left, setLeft] = useState(() => secondsLeft(deadline));

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = () => {
      const remaining = deadline - Date.now();
      if (remaining <= 0) return onExpire();
      setLeft(secondsLeft(deadline));
      // Wake up right when the displayed second changes.
      timer = setTimeout(tick, remaining % 1000 || 1000);
    };
    tick();
    return () => clearTimeout(timer);
  }, [deadline, onExpire]);

  // The dialog (and the overlays it needs) loads when the warning starts; the countdown above
  // runs meanwhile, so the sign-out happens on time whatever the network does.
  return (
    <Suspense fallback={null}>
      <IdleWarningDialog left={left} onContinue={onContinue} />
    </Suspense>
  );
}
