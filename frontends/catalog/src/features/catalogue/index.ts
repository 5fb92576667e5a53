/** Browsing books: /books with its filters, and the cards and grid every list of books uses. */
export { BookCard, BookCardSkeleton, BookCover, BookGrid, GRID_CLASSES, Price, SponsoredBadge } from './BookCard';
// The route shows the page's frame and asks for the books while the page's own chunk downloads.
export { default as BooksPage } from './BooksRoute';
