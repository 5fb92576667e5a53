/**
 * Demo members for `npm start` (SEED_DEMO=1): auth creates their accounts, catalog lists their
 * books. Shared here so both use the same ids. Never seeded in production.
 */
export const DEMO_PASSWORD = 'Demo2026!';

export const demoMembers = [
  {
    id: '6a1f3c52-2d0e-4b8a-9f11-0d5c1a7e0001',
    name: 'Aïcha Mboumba',
    username: 'aicha_m',
    city: 'Libreville',
    phone: '+241 77 10 20 30',
  },
  {
    id: '6a1f3c52-2d0e-4b8a-9f11-0d5c1a7e0002',
    name: 'Jean-Pierre Ndong',
    username: 'jp_ndong',
    city: 'Port-Gentil',
    phone: null,
  },
  {
    id: '6a1f3c52-2d0e-4b8a-9f11-0d5c1a7e0003',
    name: 'Mireille Nzé',
    username: 'mireille_nze',
    city: 'Franceville',
    phone: '+241 66 44 55 66',
  },
  {
    id: '6a1f3c52-2d0e-4b8a-9f11-0d5c1a7e0004',
    name: 'Ulrich Moussavou',
    username: 'ulrich_mou',
    city: 'Oyem',
    phone: null,
  },
  {
    id: '6a1f3c52-2d0e-4b8a-9f11-0d5c1a7e0005',
    name: 'Grâce Obame',
    username: 'grace_obame',
    city: 'Libreville',
    phone: '+241 74 12 34 56',
  },
] as const;

export const demoEmail = (username: string) => `${username}@demo.cartable.ga`;
