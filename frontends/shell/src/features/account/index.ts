import { lazy } from 'react';

/** The member's own space (dashboard, profile, two-factor) and members' public profiles. */
export const DashboardPage = lazy(() => import('./pages/DashboardPage'));
export const ProfilePage = lazy(() => import('./profile/ProfilePage'));
export const PublicProfilePage = lazy(() => import('./pages/PublicProfilePage'));
