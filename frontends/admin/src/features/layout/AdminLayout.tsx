import {
  BookIcon,
  ChevronLeftIcon,
  ChevronRightIcon,
  CloseIcon,
  cn,
  ErrorBoundary,
  HomeIcon,
  initials,
  MenuIcon,
  PageSpinner,
  useSession,
} from '@cartable/ui';
import { Link, NavLink, Outlet, useLocation } from '@cartable/ui/router';
import { Suspense, useEffect, useRef, useState } from 'react';
import { visibleMenu } from '../../shared/menu';

const COLLAPSED_KEY = 'adminSidebarCollapsed';
/** SPEC section 9: the mobile layout applies at 768 px or less. */
const MOBILE_QUERY = '(max-width: 768px)';

function readCollapsed(): boolean {
  try {
    return window.localStorage.getItem(COLLAPSED_KEY) === '1';
  } catch {
    return false;
  }
}

function useIsMobile(): boolean {
  const [mobile, setMobile] = useState(() => window.matchMedia(MOBILE_QUERY).matches);
  useEffect(() => {
    const query = window.matchMedia(MOBILE_QUERY);
    const onChange = () => setMobile(query.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);
  return mobile;
}

/**
 * Back-office frame (SPEC section 2, "Admin layout"): a collapsible left menu; at 768 px or less,
 * a header with a burger button opening the menu over an overlay.
 */
export function AdminLayout() {
  const { user } = useSession();
  const location = useLocation();
  const isMobile = useIsMobile();
  const [collapsed, setCollapsed] = useState(readCollapsed);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const burgerRef = useRef<HTMLButtonElement>(null);
  const drawerRef = useRef<HTMLElement>(null);
  const navRef = useRef<HTMLElement>(null);

  const entries = visibleMenu(user);
  const name = user?.name?.trim() || 'Administrateur';
  const badge = initials(user?.name, 'AD');
  const compact = collapsed && !isMobile;

  // Navigation closes the drawer.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation only
  useEffect(() => {
    setDrawerOpen(false);
  }, [location.key]);

  // The current screen's entry stays in sight when the menu is taller than the window (« Signalements », last).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the entry or the menu changes
  useEffect(() => {
    const nav = navRef.current;
    const link = nav?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!nav || !link) return;
    const box = nav.getBoundingClientRect();
    const entry = link.getBoundingClientRect();
    if (entry.bottom > box.bottom) nav.scrollTop += entry.bottom - box.bottom + 8;
    else if (entry.top < box.top) nav.scrollTop -= box.top - entry.top + 8;
  }, [location.pathname, drawerOpen, compact]);

  // Leaving the mobile layout closes the drawer.
  useEffect(() => {
    if (!isMobile) setDrawerOpen(false);
  }, [isMobile]);

  // Escape closes the drawer and gives focus back to the burger; opening focuses the first link.
  useEffect(() => {
    if (!drawerOpen) return;
    drawerRef.current?.querySelector<HTMLElement>('a')?.focus();
    function onKeyDown(event: KeyboardEvent) {
      if (event.key === 'Escape') {
        setDrawerOpen(false);
        burgerRef.current?.focus();
      }
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [drawerOpen]);

  function toggleCollapsed() {
    setCollapsed((value) => {
      try {
        window.localStorage.setItem(COLLAPSED_KEY, value ? '0' : '1');
      } catch {
        // preference not kept
      }
      return !value;
    });
  }

  const sidebarHidden = isMobile && !drawerOpen;

  return (
    <div className="min-h-dvh bg-slate-100 desk:flex">
      {/* Mobile header (768 px or less) */}
      <header className="sticky top-0 z-30 flex h-14 items-center gap-3 border-b border-slate-200 bg-white px-3 desk:hidden">
        <button
          ref={burgerRef}
          type="button"
          className="flex h-10 w-10 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100"
          aria-label={drawerOpen ? 'Fermer le menu d’administration' : 'Ouvrir le menu d’administration'}
          aria-expanded={drawerOpen}
          aria-controls="admin-menu"
          onClick={() => setDrawerOpen((value) => !value)}
        >
          {drawerOpen ? <CloseIcon size={22} /> : <MenuIcon size={22} />}
        </button>
        <span className="font-bold text-slate-900">Administration</span>
        <Link to="/" className="ml-auto text-sm font-medium text-primary-700 hover:underline">
          Voir le site
        </Link>
      </header>

      {/* Overlay behind the mobile drawer */}
      {isMobile && drawerOpen ? (
        <div
          aria-hidden="true"
          data-testid="admin-overlay"
          className="fixed inset-0 z-40 bg-slate-900/50"
          onClick={() => setDrawerOpen(false)}
        />
      ) : null}

      <aside
        ref={drawerRef}
        id="admin-menu"
        aria-label="Menu d’administration"
        hidden={sidebarHidden}
        className={cn(
          'flex flex-col bg-slate-900 text-slate-200',
          isMobile
            ? 'fixed inset-y-0 left-0 z-50 w-72 max-w-[85vw] shadow-xl'
            : cn('sticky top-0 h-dvh shrink-0 transition-[width] duration-200', compact ? 'w-16' : 'w-64'),
        )}
      >
        <div
          className={cn('flex h-16 items-center border-b border-slate-800', compact ? 'justify-center' : 'gap-2 px-4')}
        >
          <Link
            to="/admin/dashboard"
            className="flex items-center gap-2 font-extrabold text-white"
            aria-label="Cartable administration, tableau de bord"
          >
            <span className="flex h-8 w-8 shrink-0 items-center justify-center rounded-lg bg-primary-600 text-accent-400">
              <BookIcon size={18} />
            </span>
            {compact ? null : <span>Cartable Admin</span>}
          </Link>
          {isMobile ? (
            <button
              type="button"
              className="ml-auto flex h-9 w-9 items-center justify-center rounded-lg text-slate-300 hover:bg-slate-800"
              aria-label="Fermer le menu d’administration"
              onClick={() => {
                setDrawerOpen(false);
                burgerRef.current?.focus();
              }}
            >
              <CloseIcon size={20} />
            </button>
          ) : null}
        </div>

        <nav ref={navRef} aria-label="Administration" className="flex-1 overflow-y-auto py-3">
          <ul className="space-y-0.5 px-2">
            {entries.map(({ path, label, Icon }) => (
              <li key={path}>
                <NavLink
                  to={`/admin/${path}`}
                  title={compact ? label : undefined}
                  aria-label={compact ? label : undefined}
                  className={({ isActive }) =>
                    cn(
                      'flex items-center gap-3 rounded-lg px-3 py-2.5 text-sm transition-colors',
                      compact && 'justify-center px-0',
                      isActive
                        ? 'bg-primary-700 font-semibold text-white'
                        : 'text-slate-300 hover:bg-slate-800 hover:text-white',
                    )
                  }
                >
                  <Icon size={18} className="shrink-0" />
                  {compact ? null : <span className="leading-snug">{label}</span>}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>

        <div className="border-t border-slate-800 p-3">
          {isMobile ? null : (
            <button
              type="button"
              onClick={toggleCollapsed}
              aria-expanded={!collapsed}
              aria-controls="admin-menu"
              className={cn(
                'mb-3 flex w-full items-center gap-2 rounded-lg px-3 py-2 text-xs text-slate-400 hover:bg-slate-800 hover:text-white',
                compact && 'justify-center px-0',
              )}
            >
              {compact ? <ChevronRightIcon size={16} /> : <ChevronLeftIcon size={16} />}
              <span className={compact ? 'sr-only' : undefined}>{compact ? 'Déplier le menu' : 'Réduire le menu'}</span>
            </button>
          )}
          <div className={cn('flex items-center gap-3', compact && 'justify-center')} data-testid="admin-identity">
            <span
              className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-accent-400 text-sm font-bold text-slate-900"
              title={compact ? name : undefined}
            >
              {badge}
            </span>
            {compact ? null : (
              <div className="min-w-0">
                <p className="truncate text-sm font-semibold text-white">{name}</p>
                <Link to="/" className="flex items-center gap-1 text-xs text-slate-400 hover:text-white">
                  <HomeIcon size={12} />
                  Retour au site
                </Link>
              </div>
            )}
          </div>
        </div>
      </aside>

      <main className="min-w-0 flex-1 p-4 sm:p-6 lg:p-8">
        <ErrorBoundary resetKey={location.pathname}>
          <Suspense fallback={<PageSpinner />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </main>
    </div>
  );
}
