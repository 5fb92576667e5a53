import { lazy } from 'react';

/** The member's notice centre (/notifications); the bell lives in the layout's header. */
export const NoticesPage = lazy(() => import('./NoticesPage'));
