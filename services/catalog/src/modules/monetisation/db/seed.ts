import type { Db } from '@cartable/service-kit';
import { seedPlans as insertPlans } from './queries.ts';

/** The plans a new installation offers; keyed, so a restart (or a second replica) adds none twice. */
export const defaultPlans = [
  {
    seedKey: 'boost-7',
    kind: 'boost' as const,
    name: 'Mise en avant 7 jours',
    description:
      'Votre annonce « À la une » sur l’accueil et en tête des recherches qui lui correspondent, pendant une semaine.',
    price: 1000,
    durationDays: 7,
    boostSlots: 1,
    sellerBadge: false,
    position: 1,
  },
  {
    seedKey: 'boost-30',
    kind: 'boost' as const,
    name: 'Mise en avant 30 jours',
    description: 'Votre annonce « À la une » pendant un mois : idéal pour la rentrée.',
    price: 3000,
    durationDays: 30,
    boostSlots: 1,
    sellerBadge: false,
    position: 2,
  },
  {
    seedKey: 'member-seller',
    kind: 'member' as const,
    name: 'Vendeur',
    description: 'Jusqu’à 3 annonces « À la une » à la fois et le badge Vendeur sur votre profil, pendant 30 jours.',
    price: 5000,
    durationDays: 30,
    boostSlots: 3,
    sellerBadge: true,
    position: 3,
  },
  {
    seedKey: 'member-bookshop',
    kind: 'member' as const,
    name: 'Librairie',
    description:
      'Pour les librairies et les grands vendeurs : jusqu’à 15 annonces « À la une » et le badge, pendant 30 jours.',
    price: 15000,
    durationDays: 30,
    boostSlots: 15,
    sellerBadge: true,
    position: 4,
  },
];

/**
 * On a database without plans only, so an administrator's later edits and deletions stand;
 * two replicas seeding at once write each plan once (unique seed_key).
 */
export const seedPlans = (db: Db) => insertPlans(db, defaultPlans);
