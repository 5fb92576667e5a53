import { lazy } from 'react';

/** Browsing books: /books with its filters, and the cards and grid every list of books uses. */
export { BookCard, BookCardSkeleton, BookCover, BookGrid, GRID_CLASSES, Price } from './BookCard';
export const BooksPage = lazy(() => import('./BooksPage'));
