import { PageSpinner } from '@cartable/ui';
import { Route, Routes } from '@cartable/ui/router';
import { lazy, Suspense } from 'react';
import BookRoute from './features/book/BookRoute';
import type { BookPageParts } from './features/book/parts';
import BooksRoute from './features/catalogue/BooksRoute';
import type { BooksPageParts } from './features/catalogue/parts';
import HomePage from './features/home/HomePage';
import { NotFoundPage } from './shared/components/NotFoundPage';

/*
 * Each screen is its own chunk, loaded when its path is first opened (home, the first screen of
 * the site, is not lazy; /books and a book page ask for their data while their chunk downloads:
 * features/catalogue/BooksRoute.tsx and features/book/BookRoute.tsx).
 */
const BookFormPage = lazy(() => import('./features/listing-form/BookFormPage'));
const BoostBookPage = lazy(() => import('./features/subscriptions/BoostBookPage'));
const PlansPage = lazy(() => import('./features/subscriptions/PlansPage'));
const MySubscriptionsPage = lazy(() => import('./features/subscriptions/MySubscriptionsPage'));
const SubscriptionDetailPage = lazy(() => import('./features/subscriptions/SubscriptionDetailPage'));
const PaymentFollowPage = lazy(() => import('./features/subscriptions/PaymentFollowPage'));
const MyBooksPage = lazy(() => import('./features/my-books/MyBooksPage'));
const CategoryTestPage = lazy(() => import('./features/categories/CategoryTestPage'));
const MessagesPage = lazy(() => import('./features/conversations/MessagesPage'));
const ConversationPage = lazy(() => import('./features/conversations/ConversationPage'));
const ContactSellerPage = lazy(() => import('./features/conversations/ContactSellerPage'));
const FavouritesPage = lazy(() => import('./features/favourites/FavouritesPage'));
const MemberProfilePage = lazy(() => import('./features/members/MemberProfilePage'));
const TransactionsPage = lazy(() => import('./features/transactions/TransactionsPage'));
const TransactionDetailPage = lazy(() => import('./features/transactions/TransactionDetailPage'));
const RateTransactionPage = lazy(() => import('./features/ratings/RateTransactionPage'));
const MyRatingsPage = lazy(() => import('./features/ratings/MyRatingsPage'));
const MyListPage = lazy(() => import('./features/class-lists/MyListPage'));
const ProposeListPage = lazy(() => import('./features/class-lists/ProposeListPage'));
const SellListPage = lazy(() => import('./features/class-lists/SellListPage'));
const SavedListsPage = lazy(() => import('./features/class-lists/SavedListsPage'));
const ExchangesPage = lazy(() => import('./features/exchanges/ExchangesPage'));
const SavedSearchesPage = lazy(() => import('./features/saved-searches/SavedSearchesPage'));
const UnsubscribePage = lazy(() => import('./features/saved-searches/UnsubscribePage'));

/*
 * Where one feature's screen shows another's part, the two meet here. The comments travel in the
 * book page's chunk and « Enregistrer cette recherche » in /books' (same chunk names); the dialog
 * that writes to a seller loads when a member first asks for it.
 */
const CommentsSection = lazy(() =>
  import(/* webpackChunkName: "book-page" */ './features/comments/CommentsSection').then((m) => ({
    default: m.CommentsSection,
  })),
);
const SaveSearchButton = lazy(() =>
  import(/* webpackChunkName: "books-page" */ './features/saved-searches/SaveSearchButton').then((m) => ({
    default: m.SaveSearchButton,
  })),
);
const ContactSellerDialog = lazy(() =>
  import('./features/conversations/ContactSellerDialog').then((m) => ({ default: m.ContactSellerDialog })),
);

const bookPage: BookPageParts = {
  comments: (book) => (
    <Suspense fallback={null}>
      <CommentsSection bookId={book.id} ownerId={book.user_id} />
    </Suspense>
  ),
  contactDialog: (props) => <ContactSellerDialog open {...props} />,
};

const booksPage: BooksPageParts = {
  saveSearch: (filters, interpreted) => (
    <Suspense fallback={null}>
      <SaveSearchButton filters={filters} interpreted={interpreted} />
    </Suspense>
  ),
};

/**
 * Exposed as "cartable_catalog/routes". Paths are absolute: the shell mounts this component under
 * an empty route context on the paths it gives the catalog (/, /books, /books/*, /my-books,
 * /messages*, /contact-seller/*, /category-test, /transactions*, /rate-transaction/*, /my-ratings,
 * /subscription, /my-subscriptions, /subscription/details/*, /ma-liste, /ma-liste/proposer,
 * /ma-liste/vendre, /mes-listes, /echanges, /mes-recherches, /mes-recherches/desabonnement) and
 * applies the access rules (SPEC section 2) before rendering it.
 */
export default function CatalogRoutes() {
  return (
    <Suspense fallback={<PageSpinner />}>
      <Routes>
        <Route path="/" element={<HomePage />} />
        <Route path="/books" element={<BooksRoute {...booksPage} />} />
        <Route path="/books/add" element={<BookFormPage />} />
        <Route path="/books/create" element={<BookFormPage />} />
        <Route path="/books/edit/:id" element={<BookFormPage />} />
        <Route path="/books/:bookId/subscription" element={<BoostBookPage />} />
        <Route path="/subscription" element={<PlansPage />} />
        <Route path="/my-subscriptions" element={<MySubscriptionsPage />} />
        <Route path="/subscription/details/:id" element={<SubscriptionDetailPage />} />
        <Route path="/payment/:id" element={<PaymentFollowPage />} />
        <Route path="/books/:id" element={<BookRoute {...bookPage} />} />
        <Route path="/my-books" element={<MyBooksPage />} />
        <Route path="/category-test" element={<CategoryTestPage />} />
        <Route path="/messages" element={<MessagesPage />} />
        <Route path="/messages/:bookId/:userId" element={<ConversationPage />} />
        <Route path="/contact-seller/:bookId" element={<ContactSellerPage />} />
        <Route path="/favoris" element={<FavouritesPage />} />
        <Route path="/favourites" element={<FavouritesPage />} />
        <Route path="/profile/:userId" element={<MemberProfilePage />} />
        <Route path="/transactions" element={<TransactionsPage />} />
        <Route path="/transactions/:id" element={<TransactionDetailPage />} />
        <Route path="/rate-transaction/:transactionId" element={<RateTransactionPage />} />
        <Route path="/my-ratings" element={<MyRatingsPage />} />
        <Route path="/ma-liste" element={<MyListPage />} />
        <Route path="/ma-liste/proposer" element={<ProposeListPage />} />
        <Route path="/ma-liste/vendre" element={<SellListPage />} />
        <Route path="/mes-listes" element={<SavedListsPage />} />
        <Route path="/echanges" element={<ExchangesPage />} />
        <Route path="/mes-recherches" element={<SavedSearchesPage />} />
        <Route path="/mes-recherches/desabonnement" element={<UnsubscribePage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </Suspense>
  );
}
