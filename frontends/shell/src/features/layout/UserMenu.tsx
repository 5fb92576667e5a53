import { Avatar, ChevronDownIcon, cn, LogOutIcon, type User, useDismiss, useLogout } from '@cartable/ui';
import { Link, useLocation } from '@cartable/ui/router';
import { type KeyboardEvent, useCallback, useEffect, useId, useRef, useState } from 'react';

interface MenuEntry {
  to: string;
  label: string;
  adminOnly?: boolean;
}

const ENTRIES: MenuEntry[] = [
  { to: '/admin', label: 'Administration', adminOnly: true },
  { to: '/dashboard', label: 'Tableau de bord' },
  { to: '/profile', label: 'Mon profil' },
  { to: '/my-books', label: 'Mes manuels' },
  { to: '/messages', label: 'Messages' },
  { to: '/transactions', label: 'Transactions' },
];

/** The signed-in user's dropdown: identity, account links and Déconnexion (menu button pattern). */
export function UserMenu({ user, isAdmin }: { user: User; isAdmin: boolean }) {
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const refs = useRef([buttonRef, menuRef]).current;
  const menuId = useId();
  const location = useLocation();
  const logout = useLogout();

  const close = useCallback((restoreFocus: boolean) => {
    setOpen(false);
    if (restoreFocus) buttonRef.current?.focus();
  }, []);

  const onDismiss = useCallback((reason: 'escape' | 'outside') => close(reason === 'escape'), [close]);
  useDismiss(open, refs, onDismiss);

  // Route change closes the menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation only
  useEffect(() => {
    setOpen(false);
  }, [location.key]);

  // Opening moves focus into the menu.
  useEffect(() => {
    if (open) menuRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open]);

  function items(): HTMLElement[] {
    return Array.from(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
  }

  function onMenuKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const list = items();
    const index = list.indexOf(document.activeElement as HTMLElement);
    let next: HTMLElement | undefined;
    if (event.key === 'ArrowDown') next = list[(index + 1) % list.length];
    else if (event.key === 'ArrowUp') next = list[(index - 1 + list.length) % list.length];
    else if (event.key === 'Home') next = list[0];
    else if (event.key === 'End') next = list[list.length - 1];
    else if (event.key === 'Tab') {
      setOpen(false);
      return;
    }
    if (next) {
      event.preventDefault();
      next.focus();
    }
  }

  function onButtonKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
    }
  }

  const itemClass =
    'flex w-full items-center gap-2 px-4 py-2.5 text-left text-sm text-slate-700 hover:bg-slate-50 focus:bg-primary-50 focus:text-primary-800 focus:outline-none';

  return (
    <div className="relative">
      <button
        ref={buttonRef}
        type="button"
        className="flex items-center gap-2 rounded-full p-0.5 pr-1 text-slate-700 hover:bg-slate-100 md:pr-2"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={`Menu du compte de ${user.name}`}
        onClick={() => setOpen((value) => !value)}
        onKeyDown={onButtonKeyDown}
      >
        <Avatar name={user.name} image={user.profile_image} size={null} className="h-9 w-9 text-sm" />
        <span className="hidden max-w-32 truncate text-sm font-medium lg:inline">{user.name}</span>
        <ChevronDownIcon size={16} className={cn('transition-transform', open && 'rotate-180')} />
      </button>
      {open ? (
        <div
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-label="Mon compte"
          tabIndex={-1}
          onKeyDown={onMenuKeyDown}
          className="absolute right-0 z-50 mt-2 w-64 overflow-hidden rounded-xl border border-slate-200 bg-white py-1 shadow-lg"
        >
          <div className="border-b border-slate-100 px-4 py-3">
            <p className="truncate text-sm font-semibold text-slate-900">{user.name}</p>
            <p className="truncate text-xs text-slate-500">{user.email}</p>
          </div>
          <div className="py-1">
            {ENTRIES.filter((entry) => !entry.adminOnly || isAdmin).map((entry) => (
              <Link key={entry.to} to={entry.to} role="menuitem" tabIndex={-1} className={itemClass}>
                {entry.label}
              </Link>
            ))}
          </div>
          <div className="border-t border-slate-100 py-1">
            <button
              type="button"
              role="menuitem"
              tabIndex={-1}
              className={cn(itemClass, 'text-red-700 focus:bg-red-50 focus:text-red-800')}
              onClick={() => {
                setOpen(false);
                void logout();
              }}
            >
              <LogOutIcon size={16} />
              Déconnexion
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
