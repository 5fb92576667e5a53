import { PageSpinner } from '@cartable/ui';
import { Route, Routes } from '@cartable/ui/router';
import { lazy, Suspense } from 'react';
import HomePage from './pages/HomePage';
import { PendingPage } from './pages/PendingPage';

const BooksPage = lazy(() => import('./pages/BooksPage'));
const BookDetailPage = lazy(() => import('./pages/BookDetailPage'));
const BookFormPage = lazy(() => import('./pages/BookFormPage'));
const MyBooksPage = lazy(() => import('./pages/MyBooksPage'));
const CategoryTestPage = lazy(() => import('./pages/CategoryTestPage'));
const MessagesPage = lazy(() => import('./pages/MessagesPage'));
const ConversationPage = lazy(() => import('./pages/ConversationPage'));
const ContactSellerPage = lazy(() => import('./pages/ContactSellerPage'));

/**
 * Exposed as "cartable_catalog/routes". Paths are absolute: the shell mounts this component under
 * an empty route context on the paths it gives the catalog (/, /books, /books/*, /my-books,
 * /messages*, /contact-seller/*, /category-test) and applies the access rules (SPEC section 2) before rendering it.
 */
export default function CatalogRoutes() {
  return (
    <Suspense fallback={<PageSpinner />}>
      <Routes>
        <Route path="/" element={<HomePage />} />
        <Route path="/books" element={<BooksPage />} />
        <Route path="/books/add" element={<BookFormPage />} />
        <Route path="/books/create" element={<BookFormPage />} />
        <Route path="/books/edit/:id" element={<BookFormPage />} />
        <Route path="/books/:bookId/subscription" element={<PendingPage title="Mettre en avant mon annonce" />} />
        <Route path="/books/:id" element={<BookDetailPage />} />
        <Route path="/my-books" element={<MyBooksPage />} />
        <Route path="/category-test" element={<CategoryTestPage />} />
        <Route path="/messages" element={<MessagesPage />} />
        <Route path="/messages/:bookId/:userId" element={<ConversationPage />} />
        <Route path="/contact-seller/:bookId" element={<ContactSellerPage />} />
        <Route path="*" element={<PendingPage title="Page introuvable" />} />
      </Routes>
    </Suspense>
  );
}
