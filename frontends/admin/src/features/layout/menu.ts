import {
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
}

/** The admin menu, in the order and with the labels of SPEC section 2 ("Admin layout"). */
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
  { path: 'subscriptions', label: "Plans d'abonnement", Icon: CardIcon },
  { path: 'payments', label: 'Gestion des paiements', Icon: WalletIcon, permission: 'payments.manage' },
  {
    path: 'subscription-payments',
    label: "Paiements d'abonnements",
    Icon: WalletIcon,
    permission: 'payments.manage',
  },
  { path: 'roles', label: 'Gestion des rôles', Icon: KeyIcon, permission: 'roles.view' },
  { path: 'reports', label: 'Rapports', Icon: ChartIcon, permission: 'reports.view' },
  { path: 'banners', label: 'Bannières', Icon: ImageIcon },
  { path: 'contacts', label: 'Messages de contact', Icon: InboxIcon },
  { path: 'comments', label: 'Modération des commentaires', Icon: MessageIcon },
];

/** Entries the user may see. */
export function visibleMenu(user: User | null): MenuEntry[] {
  return MENU.filter((entry) => !entry.permission || hasPermission(entry.permission, user));
}
