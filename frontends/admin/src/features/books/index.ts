import { lazy } from 'react';

/** Listings in the back office: find, hide with a reason, change the status, delete. */
export const BooksPage = lazy(() => import('./BooksPage'));
