import { lazy } from 'react';

/** A book's page: photos and zoom, details, seller, contact, comments, similar books. */
export const BookDetailPage = lazy(() => import('./BookDetailPage'));
