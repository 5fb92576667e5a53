import { lazy } from 'react';

/** The home carousel's banners: create with an image, edit, activate, reorder, delete. */
export const BannersPage = lazy(() => import('./BannersPage'));
