import {
  BellIcon,
  BookIcon,
  buttonClasses,
  CloseIcon,
  Container,
  canEnterBackOffice,
  cn,
  MailIcon,
  MenuIcon,
  unreadCountQuery,
  unreadNoticesQuery,
  useDismiss,
  useLiveMessages,
  useSession,
} from '@cartable/ui';
import { Link, NavLink, useLocation } from '@cartable/ui/router';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { AccountButtonFace } from './AccountButtonFace';

/** The account menu and its overlay primitives load after the first paint (smaller first load). */
const UserMenu = lazy(() => import('./UserMenu'));

interface NavEntry {
  to: string;
  label: string;
  authOnly?: boolean;
}

const NAV: NavEntry[] = [
  { to: '/books', label: 'Manuels' },
  { to: '/ma-liste', label: 'Ma liste' },
  { to: '/books/add', label: 'Ajouter', authOnly: true },
  { to: '/subscription', label: 'Abonnement' },
  { to: '/about', label: 'À propos' },
  { to: '/contact', label: 'Contact' },
];

/** "99+" above 99, nothing for 0. */
export function unreadLabel(count: number): string | null {
  if (count <= 0) return null;
  return count > 99 ? '99+' : String(count);
}

export function Brand() {
  return (
    <Link to="/" className="flex items-center gap-2 rounded-lg text-xl font-extrabold tracking-tight text-primary-700">
      <span className="flex h-8 w-8 items-center justify-center rounded-lg bg-primary-600 text-accent-400">
        <BookIcon size={18} />
      </span>
      Cartable
    </Link>
  );
}

function MessagesLink({ userId }: { userId: string }) {
  // The live stream (new messages, this count) while it is open; the 30 s poll otherwise.
  const live = useLiveMessages(userId);
  const { data, isError } = useQuery(unreadCountQuery(userId, live));
  const count = !isError && typeof data?.unreadCount === 'number' ? data.unreadCount : 0;
  const badge = unreadLabel(count);
  return (
    <Link
      to="/messages"
      className="relative flex h-10 w-10 items-center justify-center rounded-full text-slate-600 hover:bg-slate-100 hover:text-primary-700"
      aria-label={badge ? `Messages, ${badge} non lus` : 'Messages'}
    >
      <MailIcon size={22} />
      {badge ? (
        <span
          aria-hidden="true"
          data-testid="unread-badge"
          className="absolute -top-0.5 -right-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-red-600 px-1 text-[11px] leading-none font-bold text-white ring-2 ring-white"
        >
          {badge}
        </span>
      ) : null}
    </Link>
  );
}

/** The bell: the member's unread notices (polled every 30 s), opening the notice centre. */
function NoticesLink({ userId }: { userId: string }) {
  const { data, isError } = useQuery(unreadNoticesQuery(userId));
  const badge = unreadLabel(!isError && typeof data?.count === 'number' ? data.count : 0);
  return (
    <Link
      to="/notifications"
      className="relative flex h-10 w-10 items-center justify-center rounded-full text-slate-600 hover:bg-slate-100 hover:text-primary-700"
      aria-label={badge ? `Notifications, ${badge} non lues` : 'Notifications'}
    >
      <BellIcon size={22} />
      {badge ? (
        <span
          aria-hidden="true"
          data-testid="notices-badge"
          className="absolute -top-0.5 -right-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-red-600 px-1 text-[11px] leading-none font-bold text-white ring-2 ring-white"
        >
          {badge}
        </span>
      ) : null}
    </Link>
  );
}

function linkClass(isActive: boolean, size: string) {
  return cn(
    'rounded-lg px-3 font-medium transition-colors',
    size,
    isActive ? 'bg-primary-50 text-primary-800' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900',
  );
}
const navLinkClass = ({ isActive }: { isActive: boolean }) => linkClass(isActive, 'py-2 text-sm');
const mobileLinkClass = ({ isActive }: { isActive: boolean }) => linkClass(isActive, 'py-3 text-base');

export function Header() {
  const { user, isAuthenticated } = useSession();
  const backOffice = canEnterBackOffice(user);
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const burgerRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const refs = useRef([burgerRef, panelRef]).current;

  const links = NAV.filter((entry) => !entry.authOnly || isAuthenticated);

  const onDismiss = useCallback((reason: 'escape' | 'outside') => {
    setMenuOpen(false);
    if (reason === 'escape') burgerRef.current?.focus();
  }, []);
  useDismiss(menuOpen, refs, onDismiss);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation only
  useEffect(() => {
    setMenuOpen(false);
  }, [location.key]);

  useEffect(() => {
    if (menuOpen) panelRef.current?.querySelector<HTMLElement>('a')?.focus();
  }, [menuOpen]);

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur supports-[backdrop-filter]:bg-white/85">
      <Container className="flex h-16 items-center gap-2">
        <Brand />
        <nav aria-label="Navigation principale" className="ml-6 hidden items-center gap-1 md:flex">
          {links.map((entry) => (
            <NavLink key={entry.to} to={entry.to} end={entry.to === '/books'} className={navLinkClass}>
              {entry.label}
            </NavLink>
          ))}
        </nav>

        <div className="ml-auto flex items-center gap-1 sm:gap-2">
          {isAuthenticated && user ? (
            <>
              <NoticesLink userId={user.id} />
              <MessagesLink userId={user.id} />
              <Suspense
                fallback={
                  <div
                    aria-hidden="true"
                    className="flex items-center gap-2 rounded-full p-0.5 pr-1 text-slate-700 md:pr-2"
                  >
                    <AccountButtonFace user={user} open={false} />
                  </div>
                }
              >
                <UserMenu user={user} backOffice={backOffice} />
              </Suspense>
            </>
          ) : (
            <div className="hidden items-center gap-2 md:flex">
              <Link to="/login" className={buttonClasses('ghost', 'sm')}>
                Connexion
              </Link>
              <Link to="/register" className={buttonClasses('primary', 'sm')}>
                Inscription
              </Link>
            </div>
          )}
          <button
            ref={burgerRef}
            type="button"
            className="flex h-10 w-10 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 md:hidden"
            aria-expanded={menuOpen}
            aria-controls="menu-mobile"
            aria-label={menuOpen ? 'Fermer le menu' : 'Ouvrir le menu'}
            onClick={() => setMenuOpen((value) => !value)}
          >
            {menuOpen ? <CloseIcon size={24} /> : <MenuIcon size={24} />}
          </button>
        </div>
      </Container>

      <div
        ref={panelRef}
        id="menu-mobile"
        hidden={!menuOpen}
        className="border-t border-slate-200 bg-white shadow-md md:hidden"
      >
        <Container className="py-3">
          <nav aria-label="Navigation mobile" className="flex flex-col">
            {links.map((entry) => (
              <NavLink key={entry.to} to={entry.to} end={entry.to === '/books'} className={mobileLinkClass}>
                {entry.label}
              </NavLink>
            ))}
          </nav>
          {!isAuthenticated ? (
            <div className="mt-3 grid grid-cols-2 gap-2 border-t border-slate-100 pt-3">
              <Link to="/login" className={buttonClasses('outline', 'md')}>
                Connexion
              </Link>
              <Link to="/register" className={buttonClasses('primary', 'md')}>
                Inscription
              </Link>
            </div>
          ) : null}
        </Container>
      </div>
    </header>
  );
}
