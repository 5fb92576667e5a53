import { hasPermission, useSession } from '@cartable/ui';
import { Navigate, Route, Routes } from '@cartable/ui/router';
import type { ReactNode } from 'react';
import { lazy } from 'react';
import DashboardPage from './features/insights/DashboardPage';
import { AdminLayout } from './features/layout/AdminLayout';

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

/** Routes that need a permission send others to the admin dashboard. */
function RequirePermission({ permission, children }: { permission: string; children: ReactNode }) {
  const { user } = useSession();
  if (!hasPermission(permission, user)) return <Navigate to="/admin/dashboard" replace />;
  return children;
}

/** Screens whose API only admins may call (SPEC section 6): a member let in by a permission goes to the dashboard. */
function RequireAdmin({ children }: { children: ReactNode }) {
  const { user } = useSession();
  if (!user?.is_admin) return <Navigate to="/admin/dashboard" replace />;
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
            <RequirePermission permission="books.update.any">
              <BooksPage />
            </RequirePermission>
          }
        />
        <Route
          path="users"
          element={
            <RequirePermission permission="users.view.any">
              <UsersPage />
            </RequirePermission>
          }
        />
        <Route
          path="users/:id"
          element={
            <RequirePermission permission="users.view.any">
              <UserDetailPage />
            </RequirePermission>
          }
        />
        <Route
          path="cities"
          element={
            <RequirePermission permission="cities.manage">
              <CitiesPage />
            </RequirePermission>
          }
        />
        <Route
          path="categories"
          element={
            <RequirePermission permission="categories.update">
              <CategoriesPage />
            </RequirePermission>
          }
        />
        <Route
          path="subscriptions"
          element={
            <RequireAdmin>
              <SubscriptionPlansPage />
            </RequireAdmin>
          }
        />
        <Route
          path="book-subscriptions"
          element={
            <RequirePermission permission="user_subscriptions.manage">
              <BookSubscriptionsPage />
            </RequirePermission>
          }
        />
        <Route
          path="user-subscriptions"
          element={
            <RequirePermission permission="user_subscriptions.manage">
              <UserSubscriptionsPage />
            </RequirePermission>
          }
        />
        <Route
          path="roles"
          element={
            <RequirePermission permission="roles.view">
              <RolesPage />
            </RequirePermission>
          }
        />
        <Route
          path="reports"
          element={
            <RequirePermission permission="reports.view">
              <ReportsPage />
            </RequirePermission>
          }
        />
        <Route
          path="banners"
          element={
            <RequirePermission permission="banners.manage">
              <BannersPage />
            </RequirePermission>
          }
        />
        <Route
          path="contacts"
          element={
            <RequireAdmin>
              <ContactsPage />
            </RequireAdmin>
          }
        />
        <Route
          path="contacts/:id"
          element={
            <RequireAdmin>
              <ContactDetailPage />
            </RequireAdmin>
          }
        />
        <Route
          path="comments"
          element={
            <RequireAdmin>
              <CommentModerationPage />
            </RequireAdmin>
          }
        />
        <Route
          path="signalements"
          element={
            <RequireAdmin>
              <FlagsPage />
            </RequireAdmin>
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
          <Route
            key={path}
            path={path}
            element={<RequirePermission permission="payments.manage">{screen}</RequirePermission>}
          />
        ))}
        <Route
          path="class-lists"
          element={
            <RequirePermission permission="lists.manage">
              <ClassListsPage />
            </RequirePermission>
          }
        />
        <Route
          path="class-lists/:id"
          element={
            <RequirePermission permission="lists.manage">
              <ClassListDetailPage />
            </RequirePermission>
          }
        />
        <Route path="*" element={<Navigate to="/admin/dashboard" replace />} />
      </Route>
    </Routes>
  );
}
