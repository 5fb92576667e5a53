import { Route, Routes } from '@cartable/ui/router';
import { lazy, type ReactNode } from 'react';
import { GuestOnly, RequireAdmin, RequireVerified } from './guards';
import { SiteLayout } from './layout/Layout';
import { PlaceholderPage } from './pages/PlaceholderPage';
import { RemoteRoutes } from './RemoteRoutes';

const LoginPage = lazy(() => import('./pages/LoginPage'));
const DashboardPage = lazy(() => import('./pages/DashboardPage'));
const NotFoundPage = lazy(() => import('./pages/NotFoundPage'));

const catalog = <RemoteRoutes remote="catalog" />;
const siteFrame = (children: ReactNode) => <SiteLayout>{children}</SiteLayout>;

/** Shell pages of later iterations: [path, title, description]. */
const PUBLIC_PLACEHOLDERS: Array<[string, string, string?]> = [
  ['about', 'À propos', 'Notre mission : donner une seconde vie aux manuels scolaires au Gabon.'],
  ['contact', 'Contact', 'Une question ? Notre équipe vous répond sous 24 heures.'],
  ['subscription', 'Abonnement', 'Les formules pour donner plus de visibilité à vos annonces.'],
  ['terms', "Conditions d'utilisation"],
  ['privacy', 'Politique de confidentialité'],
  ['cookies', 'Politique de cookies'],
  ['legal', 'Mentions légales'],
  ['forgot-password', 'Mot de passe oublié'],
  ['reset-password', 'Réinitialisation du mot de passe'],
  ['register-success', 'Vérifiez votre adresse email'],
  ['verify-email', "Vérification de l'email"],
  ['category-test', 'Test des catégories'],
];

const PRIVATE_PLACEHOLDERS: Array<[string, string]> = [
  ['my-subscriptions', 'Mes abonnements'],
  ['subscription/details/:id', "Détails de l'abonnement"],
  ['profile', 'Mon profil'],
  ['profile/:userId', 'Profil'],
  ['transactions', 'Transactions'],
  ['transactions/:id', 'Détails de la transaction'],
  ['contact-seller/:bookId', 'Contacter le vendeur'],
  ['rate-transaction/:transactionId', 'Évaluer la transaction'],
  ['my-ratings', 'Mes évaluations'],
];

/**
 * The route table (SPEC section 2). The shell owns guards and the mapping to remotes:
 * catalog renders /, /books, /books/*, /my-books and /messages*; admin renders /admin/*.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route
        path="admin/*"
        element={
          <RequireAdmin>
            <RemoteRoutes remote="admin" frame={siteFrame} />
          </RequireAdmin>
        }
      />

      <Route element={<SiteLayout />}>
        {/* Public */}
        <Route index element={catalog} />
        <Route path="books" element={catalog} />
        <Route path="books/:id" element={catalog} />
        {PUBLIC_PLACEHOLDERS.map(([path, title, description]) => (
          <Route key={path} path={path} element={<PlaceholderPage title={title} description={description} />} />
        ))}

        {/* Guest only */}
        <Route element={<GuestOnly />}>
          <Route path="login" element={<LoginPage />} />
          <Route
            path="register"
            element={<PlaceholderPage title="Inscription" description="Créez votre compte en quelques minutes." />}
          />
        </Route>

        {/* Verified users */}
        <Route element={<RequireVerified />}>
          <Route path="dashboard" element={<DashboardPage />} />
          <Route path="books/create" element={catalog} />
          <Route path="books/add" element={catalog} />
          <Route path="books/edit/:id" element={catalog} />
          <Route path="books/:bookId/subscription" element={catalog} />
          <Route path="my-books" element={catalog} />
          <Route path="messages" element={catalog} />
          <Route path="messages/:bookId/:userId" element={catalog} />
          {PRIVATE_PLACEHOLDERS.map(([path, title]) => (
            <Route key={path} path={path} element={<PlaceholderPage title={title} />} />
          ))}
        </Route>

        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
