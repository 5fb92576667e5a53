import { LogOutIcon, type User, useLogout } from '@cartable/ui';
import { Menu, MenuContent, MenuItem, MenuTrigger } from '@cartable/ui/overlays';
import { Link, useLocation } from '@cartable/ui/router';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { pendingDealsQuery } from '../../shared/deals';
import { AccountButtonFace } from './AccountButtonFace';

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
  { to: '/favoris', label: 'Mes favoris' },
  { to: '/mes-listes', label: 'Mes listes de manuels' },
  { to: '/mes-recherches', label: 'Mes recherches' },
  { to: '/echanges', label: 'Échanges' },
  { to: '/messages', label: 'Messages' },
  { to: '/notifications', label: 'Notifications' },
  { to: '/transactions', label: 'Transactions' },
  { to: '/my-ratings', label: 'Mes évaluations' },
  { to: '/my-subscriptions', label: 'Mes abonnements' },
];

/**
 * The signed-in user's dropdown: identity, account links and Déconnexion (the menu button pattern,
 * on libs/ui's Radix menu). Loaded after the first paint (see Header): AccountButtonPlaceholder
 * holds its place meanwhile.
 */
export default function UserMenu({ user, backOffice }: { user: User; backOffice: boolean }) {
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const logout = useLogout();
  // Deals awaiting the member's answer: a count on the « Transactions » entry.
  const { data: pendingDeals = 0 } = useQuery(pendingDealsQuery(user.id));

  // Route change closes the menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation only
  useEffect(() => {
    setOpen(false);
  }, [location.key]);

  return (
    <Menu open={open} onOpenChange={setOpen}>
      <MenuTrigger className="flex min-h-11 items-center gap-2 rounded-full p-0.5 pr-1 text-slate-700 hover:bg-slate-100 md:pr-2">
        <AccountButtonFace user={user} open={open} />
      </MenuTrigger>
      <MenuContent
        aria-label="Mon compte"
        // Tab leaves the menu (and closes it) instead of being held in it.
        onKeyDown={(event) => {
          if (event.key === 'Tab') setOpen(false);
        }}
      >
        <div className="border-b border-slate-100 px-4 py-3">
          <p className="truncate text-sm font-semibold text-slate-900">{user.name}</p>
          <p className="truncate text-xs text-slate-500">{user.email}</p>
        </div>
        <div className="py-1">
          {ENTRIES.filter((entry) => !entry.adminOnly || backOffice).map((entry) => (
            <MenuItem key={entry.to} asChild>
              <Link to={entry.to}>
                {entry.label}
                {entry.to === '/transactions' && pendingDeals > 0 ? (
                  <span
                    className="ml-auto rounded-full bg-accent-400 px-2 py-0.5 text-xs font-bold text-slate-900"
                    data-testid="pending-deals-count"
                  >
                    {pendingDeals > 99 ? '99+' : pendingDeals}
                    <span className="sr-only"> en attente de votre réponse</span>
                  </span>
                ) : null}
              </Link>
            </MenuItem>
          ))}
        </div>
        <div className="border-t border-slate-100 py-1">
          <MenuItem
            className="text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800"
            onSelect={() => void logout()}
          >
            <LogOutIcon size={16} />
            Déconnexion
          </MenuItem>
        </div>
      </MenuContent>
    </Menu>
  );
}
