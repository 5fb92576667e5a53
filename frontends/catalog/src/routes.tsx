import { PageSpinner } from '@cartable/ui';
import { Route, Routes } from '@cartable/ui/router';
import { Suspense } from 'react';
import { BookDetailPage } from './features/book';
import { BooksPage } from './features/catalogue';
import { CategoryTestPage } from './features/categories';
import { MyListPage, ProposeListPage, SavedListsPage, SellListPage } from './features/class-lists';
import { ContactSellerPage, ConversationPage, MessagesPage } from './features/conversations';
import { ExchangesPage } from './features/exchanges';
import { FavouritesPage } from './features/favourites';
import { HomePage } from './features/home';
import { BookFormPage } from './features/listing-form';
import { MemberProfilePage } from './features/members';
import { MyBooksPage } from './features/my-books';
import { MyRatingsPage, RateTransactionPage } from './features/ratings';
import { SavedSearchesPage, UnsubscribePage } from './features/saved-searches';
import { BoostBookPage, MySubscriptionsPage, PlansPage, SubscriptionDetailPage } from './features/subscriptions';
import { TransactionDetailPage, TransactionsPage } from './features/transactions';
import { NotFoundPage } from './shared/components/NotFoundPage';

/**
 * Exposed as "cartable_catalog/routes". Paths are absolute: the shell mounts this component under
 * an empty route context on the paths it gives the catalog (/, /books, /books/*, /my-books,
 * /messages*, /contact-seller/*, /category-test, /transactions*, /rate-transaction/*, /my-ratings,
 * /subscription, /my-subscriptions, /subscription/details/*, /ma-liste, /ma-liste/proposer, /ma-liste/vendre, /mes-listes, /echanges, /mes-recherches, /mes-recherches/desabonnement) and applies the access rules (SPEC section 2) before
 * rendering it. Each screen comes from its feature's index (features/<name>/index.ts), lazily
 * loaded except the home page.
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
        <Route path="/books/:bookId/subscription" element={<BoostBookPage />} />
        <Route path="/subscription" element={<PlansPage />} />
        <Route path="/my-subscriptions" element={<MySubscriptionsPage />} />
        <Route path="/subscription/details/:id" element={<SubscriptionDetailPage />} />
        <Route path="/books/:id" element={<BookDetailPage />} />
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
