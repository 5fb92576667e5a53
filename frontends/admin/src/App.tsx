import { hasPermission, useSession } from '@cartable/ui';
import { Navigate, Route, Routes } from '@cartable/ui/router';
import type { ReactNode } from 'react';
import { CommentModerationPage } from './features/comment-moderation';
import { ContactDetailPage, ContactsPage } from './features/contacts';
import { DashboardPage } from './features/dashboard';
import { AdminLayout } from './features/layout';
import { PendingScreen } from './shared/PendingScreen';

/** Routes that need a permission send others to the admin dashboard. */
function RequirePermission({ permission, children }: { permission: string; children: ReactNode }) {
  const { user } = useSession();
  if (!hasPermission(permission, user)) return <Navigate to="/admin/dashboard" replace />;
  return children;
}

const pending = (title: string) => <PendingScreen title={title} />;

/**
 * Exposed as "cartable_admin/App". The shell renders it for /admin/* once the visitor is known to
 * be an admin; paths are absolute (SPEC section 2, "Admin area").
 */
export default function AdminApp() {
  return (
    <Routes>
      <Route path="/admin" element={<AdminLayout />}>
        <Route index element={<Navigate to="/admin/dashboard" replace />} />
        <Route path="dashboard" element={<DashboardPage />} />
        <Route path="books" element={pending('Gestion des livres')} />
        <Route path="users" element={pending('Gestion des utilisateurs')} />
        <Route path="cities" element={pending('Gestion des villes')} />
        <Route path="categories" element={pending('Gestion des Cycles, Niveaux et Matières')} />
        <Route path="subscriptions" element={pending("Plans d'abonnement")} />
        <Route path="book-subscriptions" element={pending('Abonnements des annonces')} />
        <Route path="user-subscriptions" element={pending('Abonnements')} />
        <Route path="roles" element={pending('Gestion des rôles')} />
        <Route path="reports" element={pending('Rapports')} />
        <Route
          path="banners"
          element={<RequirePermission permission="banners.manage">{pending('Bannières')}</RequirePermission>}
        />
        <Route path="contacts" element={<ContactsPage />} />
        <Route path="contacts/:id" element={<ContactDetailPage />} />
        <Route path="comments" element={<CommentModerationPage />} />
        <Route path="subscription-payments" element={pending("Paiements d'abonnements")} />
        <Route path="subscription-payments/:id" element={pending("Paiement d'abonnement")} />
        <Route path="payments" element={pending('Gestion des paiements')} />
        <Route path="payments/:id" element={pending('Paiement')} />
        <Route path="*" element={<Navigate to="/admin/dashboard" replace />} />
      </Route>
    </Routes>
  );
}
