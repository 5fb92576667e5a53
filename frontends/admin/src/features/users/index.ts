import { lazy } from 'react';

/** Members: list with filters, and a member's page (rights, access, listings, activity, trail). */
export const UsersPage = lazy(() => import('./UsersPage'));
export const UserDetailPage = lazy(() => import('./UserDetailPage'));
