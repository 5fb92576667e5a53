/** French names of the permission slugs (SPEC section 6); an unknown slug shows as itself. */
export const PERMISSION_LABELS: Record<string, string> = {
  'books.update.any': 'Gérer tous les livres',
  'users.view.any': 'Voir les utilisateurs',
  'categories.update': 'Gérer les catégories',
  'user_subscriptions.manage': 'Gérer les abonnements',
  'roles.view': 'Voir les rôles',
  'reports.view': 'Voir les rapports',
  'cities.manage': 'Gérer les villes',
  'banners.manage': 'Gérer les bannières',
  'payments.manage': 'Gérer les paiements',
  'lists.manage': 'Gérer les listes de manuels',
  '*': 'Toutes les permissions',
};

export const permissionLabel = (slug: string) => PERMISSION_LABELS[slug] ?? slug;
