import {
  AlertIcon,
  BookIcon,
  CardIcon,
  ChartIcon,
  CityIcon,
  DashboardIcon,
  hasPermission,
  ImageIcon,
  InboxIcon,
  KeyIcon,
  LayersIcon,
  MessageIcon,
  ReceiptIcon,
  type User,
  UsersIcon,
  WalletIcon,
} from '@cartable/ui';
import type { ComponentType } from 'react';

export interface MenuEntry {
  /** Path under /admin. */
  path: string;
  label: string;
  Icon: ComponentType<{ size?: number; className?: string }>;
  /** Permission needed to see the entry (SPEC section 6, "Menu visibility"); none = always shown. */
  permission?: string;
  /**
   * Screens whose API is for admins only (SPEC section 6: contacts, comment moderation; plans).
   * Admins always see them, as the spec says; a member let in by one permission does not.
   */
  adminOnly?: true;
}

/** The admin menu, in the order and with the labels of SPEC section 2 ("Admin layout"), then Signalements. */
export const MENU: MenuEntry[] = [
  { path: 'dashboard', label: 'Tableau de bord', Icon: DashboardIcon },
  { path: 'books', label: 'Gestion des livres', Icon: BookIcon, permission: 'books.update.any' },
  { path: 'users', label: 'Gestion des utilisateurs', Icon: UsersIcon, permission: 'users.view.any' },
  { path: 'cities', label: 'Gestion des villes', Icon: CityIcon, permission: 'cities.manage' },
  {
    path: 'categories',
    label: 'Gestion des Cycles, Niveaux et Matières',
    Icon: LayersIcon,
    permission: 'categories.update',
  },
  {
    path: 'user-subscriptions',
    label: 'Abonnements',
    Icon: ReceiptIcon,
    permission: 'user_subscriptions.manage',
  },
  { path: 'subscriptions', label: "Plans d'abonnement", Icon: CardIcon, adminOnly: true },
  { path: 'payments', label: 'Gestion des paiements', Icon: WalletIcon, permission: 'payments.manage' },
  {
    path: 'subscription-payments',
    label: "Paiements d'abonnements",
    Icon: WalletIcon,
    permission: 'payments.manage',
  },
  { path: 'class-lists', label: 'Listes de manuels', Icon: BookIcon, permission: 'lists.manage' },
  { path: 'roles', label: 'Gestion des rôles', Icon: KeyIcon, permission: 'roles.view' },
  { path: 'reports', label: 'Rapports', Icon: ChartIcon, permission: 'reports.view' },
  // Always shown to admins (who hold every permission); its route needs banners.manage.
  { path: 'banners', label: 'Bannières', Icon: ImageIcon, permission: 'banners.manage' },
  { path: 'contacts', label: 'Messages de contact', Icon: InboxIcon, adminOnly: true },
  { path: 'comments', label: 'Modération des commentaires', Icon: MessageIcon, adminOnly: true },
  // Beyond SPEC section 2's fourteen: reports of listings, members, comments and messages.
  { path: 'signalements', label: 'Signalements', Icon: AlertIcon, adminOnly: true },
];

/** Entries the user may see. */
export function visibleMenu(user: User | null): MenuEntry[] {
  return MENU.filter((entry) => {
    if (entry.adminOnly) return Boolean(user?.is_admin);
    return !entry.permission || hasPermission(entry.permission, user);
  });
}
