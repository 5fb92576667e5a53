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
  StarIcon,
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
  /** Permission the screen needs (SPEC section 6, "Menu visibility"). */
  permission?: string;
  /** Screens whose API is for administrators only (contacts, comment moderation, plans, reports of content). */
  adminOnly?: true;
  /**
   * SPEC section 6 shows the dashboard, subscription plans, banners, contacts and comments to
   * everyone who enters the back office; their screens say in French when the member may not use them.
   */
  alwaysShown?: true;
}

/** The admin menu, in the order and with the labels of SPEC section 2 ("Admin layout"), then what came after it. */
export const MENU: MenuEntry[] = [
  { path: 'dashboard', label: 'Tableau de bord', Icon: DashboardIcon, alwaysShown: true },
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
  {
    path: 'book-subscriptions',
    label: 'Annonces à la une',
    Icon: StarIcon,
    permission: 'user_subscriptions.manage',
  },
  { path: 'subscriptions', label: "Plans d'abonnement", Icon: CardIcon, adminOnly: true, alwaysShown: true },
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
  { path: 'banners', label: 'Bannières', Icon: ImageIcon, permission: 'banners.manage', alwaysShown: true },
  { path: 'contacts', label: 'Messages de contact', Icon: InboxIcon, adminOnly: true, alwaysShown: true },
  { path: 'comments', label: 'Modération des commentaires', Icon: MessageIcon, adminOnly: true, alwaysShown: true },
  // Reports of listings, members, comments and messages.
  { path: 'signalements', label: 'Signalements', Icon: AlertIcon, adminOnly: true },
];

/** True when the user may use the entry's screen. */
export function mayUse(entry: Pick<MenuEntry, 'permission' | 'adminOnly'>, user: User | null): boolean {
  if (entry.adminOnly) return Boolean(user?.is_admin);
  return !entry.permission || hasPermission(entry.permission, user);
}

/** Entries the user sees: those he may use, and those the spec always shows. */
export function visibleMenu(user: User | null): MenuEntry[] {
  return MENU.filter((entry) => entry.alwaysShown || mayUse(entry, user));
}

/** The entry of a path under /admin (its first segment). */
export function menuEntry(path: string): MenuEntry {
  const entry = MENU.find((candidate) => candidate.path === path);
  if (!entry) throw new Error(`Écran inconnu du menu : ${path}`);
  return entry;
}
