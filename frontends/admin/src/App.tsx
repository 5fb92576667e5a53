import { hasPermission, useSession } from '@cartable/ui';
import { Navigate, Route, Routes } from '@cartable/ui/router';
import type { ReactNode } from 'react';
import { BannersPage } from './features/banners';
import { BooksPage } from './features/books';
import { CategoriesPage } from './features/categories';
import { CitiesPage } from './features/cities';
import { ClassListDetailPage, ClassListsPage } from './features/class-lists';
import { CommentModerationPage } from './features/comment-moderation';
import { ContactDetailPage, ContactsPage } from './features/contacts';
import { FlagsPage } from './features/flags';
import { DashboardPage, ReportsPage } from './features/insights';
import { AdminLayout } from './features/layout';
import { PaymentDetailPage, PaymentsPage, SubscriptionPaymentsPage } from './features/payments';
import { RolesPage } from './features/roles';
import { BookSubscriptionsPage, SubscriptionPlansPage, UserSubscriptionsPage } from './features/subscriptions';
import { UserDetailPage, UsersPage } from './features/users';

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
