import { useSession } from '@cartable/ui';
import { Navigate, Route, Routes } from '@cartable/ui/router';
import type { ReactNode } from 'react';
import { lazy } from 'react';
import { permissionLabel } from './entities/role/labels';
import DashboardPage from './features/insights/DashboardPage';
import { AdminLayout } from './features/layout/AdminLayout';
import { AccessDenied } from './shared/AccessDenied';
import { mayUse, menuEntry } from './shared/menu';

/* Each screen is its own chunk, loaded when first opened; /admin opens on the dashboard (its charts are lazy). */
const BannersPage = lazy(() => import('./features/banners/BannersPage'));
const BooksPage = lazy(() => import('./features/books/BooksPage'));
const CategoriesPage = lazy(() => import('./features/categories/CategoriesPage'));
const CitiesPage = lazy(() => import('./features/cities/CitiesPage'));
const ClassListsPage = lazy(() => import('./features/class-lists/ClassListsPage'));
const ClassListDetailPage = lazy(() => import('./features/class-lists/ClassListDetailPage'));
const CommentModerationPage = lazy(() => import('./features/comment-moderation/CommentModerationPage'));
const ContactsPage = lazy(() => import('./features/contacts/ContactsPage'));
const ContactDetailPage = lazy(() => import('./features/contacts/ContactDetailPage'));
const FlagsPage = lazy(() => import('./features/flags/FlagsPage'));
const ReportsPage = lazy(() => import('./features/insights/ReportsPage'));
const SubscriptionPaymentsPage = lazy(() =>
  import('./features/payments/PaymentsListPage').then((m) => ({ default: m.SubscriptionPaymentsPage })),
);
const PaymentsPage = lazy(() =>
  import('./features/payments/PaymentsListPage').then((m) => ({ default: m.AllPaymentsPage })),
);
const PaymentDetailPage = lazy(() => import('./features/payments/PaymentDetailPage'));
const RolesPage = lazy(() => import('./features/roles/RolesPage'));
const SubscriptionPlansPage = lazy(() => import('./features/subscriptions/PlansPage'));
const UserSubscriptionsPage = lazy(() => import('./features/subscriptions/UserSubscriptionsPage'));
const BookSubscriptionsPage = lazy(() => import('./features/subscriptions/BookSubscriptionsPage'));
const UsersPage = lazy(() => import('./features/users/UsersPage'));
const UserDetailPage = lazy(() => import('./features/users/UserDetailPage'));

/**
 * A screen of the menu, shown to whoever may use it (see `mayUse`); anyone else reads, in French,
 * which permission it needs, rather than landing on the dashboard without a word.
 */
function Guarded({ screen, children }: { screen: string; children: ReactNode }) {
  const { user } = useSession();
  const entry = menuEntry(screen);
  if (!mayUse(entry, user))
    return (
      <AccessDenied title={entry.label} permission={entry.permission ? permissionLabel(entry.permission) : undefined} />
    );
  return children;
}

/**
 * Exposed as "cartable_admin/App". The shell renders it for /admin/* once the visitor is known to
 * be an admin or to hold a back-office permission (who then reaches just their screens); paths are
 * absolute (SPEC section 2, "Admin area").
 */
export default function AdminApp() {
  return (
    <Routes>
      <Route path="/admin" element={<AdminLayout />}>
        <Route index element={<Navigate to="/admin/dashboard" replace />} />
        <Route path="dashboard" element={<DashboardPage />} />
        <Route
          path="books"
          element={
            <Guarded screen="books">
              <BooksPage />
            </Guarded>
          }
        />
        <Route
          path="users"
          element={
            <Guarded screen="users">
              <UsersPage />
            </Guarded>
          }
        />
        <Route
          path="users/:id"
          element={
            <Guarded screen="users">
              <UserDetailPage />
            </Guarded>
          }
        />
        <Route
          path="cities"
          element={
            <Guarded screen="cities">
              <CitiesPage />
            </Guarded>
          }
        />
        <Route
          path="categories"
          element={
            <Guarded screen="categories">
              <CategoriesPage />
            </Guarded>
          }
        />
        <Route
          path="subscriptions"
          element={
            <Guarded screen="subscriptions">
              <SubscriptionPlansPage />
            </Guarded>
          }
        />
        <Route
          path="book-subscriptions"
          element={
            <Guarded screen="book-subscriptions">
              <BookSubscriptionsPage />
            </Guarded>
          }
        />
        <Route
          path="user-subscriptions"
          element={
            <Guarded screen="user-subscriptions">
              <UserSubscriptionsPage />
            </Guarded>
          }
        />
        <Route
          path="roles"
          element={
            <Guarded screen="roles">
              <RolesPage />
            </Guarded>
          }
        />
        <Route
          path="reports"
          element={
            <Guarded screen="reports">
              <ReportsPage />
            </Guarded>
          }
        />
        <Route
          path="banners"
          element={
            <Guarded screen="banners">
              <BannersPage />
            </Guarded>
          }
        />
        <Route
          path="contacts"
          element={
            <Guarded screen="contacts">
              <ContactsPage />
            </Guarded>
          }
        />
        <Route
          path="contacts/:id"
          element={
            <Guarded screen="contacts">
              <ContactDetailPage />
            </Guarded>
          }
        />
        <Route
          path="comments"
          element={
            <Guarded screen="comments">
              <CommentModerationPage />
            </Guarded>
          }
        />
        <Route
          path="signalements"
          element={
            <Guarded screen="signalements">
              <FlagsPage />
            </Guarded>
          }
        />
        {(
          [
            ['subscription-payments', <SubscriptionPaymentsPage key="queue" />],
            ['subscription-payments/:id', <PaymentDetailPage key="queue-detail" />],
            ['payments', <PaymentsPage key="all" />],
            ['payments/:id', <PaymentDetailPage key="detail" />],
          ] as const
        ).map(([path, screen]) => (
          <Route key={path} path={path} element={<Guarded screen={path.split('/')[0] ?? path}>{screen}</Guarded>} />
        ))}
        <Route
          path="class-lists"
          element={
            <Guarded screen="class-lists">
              <ClassListsPage />
            </Guarded>
          }
        />
        <Route
          path="class-lists/:id"
          element={
            <Guarded screen="class-lists">
              <ClassListDetailPage />
            </Guarded>
          }
        />
        <Route path="*" element={<Navigate to="/admin/dashboard" replace />} />
      </Route>
    </Routes>
  );
}
