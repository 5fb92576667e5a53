import { lazy } from 'react';

/** The member's own listings: status changes and deletion. */
export const MyBooksPage = lazy(() => import('./MyBooksPage'));
export { myBooksQuery } from './api/my-books';
