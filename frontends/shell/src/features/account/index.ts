import { lazy } from 'react';

/** The member's own space (dashboard, profile, two-factor); public profiles are the catalog's (/profile/{userId}). */
export const DashboardPage = lazy(() => import('./pages/DashboardPage'));
export const ProfilePage = lazy(() => import('./profile/ProfilePage'));
