/** A book's page: photos and zoom, details, seller, contact, comments, similar books. */
// The route asks for the book while the page's own chunk (lazy) downloads.
export { default as BookDetailPage } from './BookRoute';
