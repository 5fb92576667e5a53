import { Route, Routes } from '@cartable/ui/router';
import { lazy, type ReactNode } from 'react';
import { SiteLayout } from '../features/layout/SiteLayout';
import { GuestOnly, RequireBackOffice, RequireVerified } from '../shared/guards';
import { RemoteRoutes } from './RemoteRoutes';

/* Each screen of the shell is its own chunk, loaded when its path is first opened. */
const DashboardPage = lazy(() => import('../features/account/pages/DashboardPage'));
const ProfilePage = lazy(() => import('../features/account/profile/ProfilePage'));
const LoginPage = lazy(() => import('../features/auth/pages/LoginPage'));
const RegisterPage = lazy(() => import('../features/auth/pages/RegisterPage'));
const RegisterSuccessPage = lazy(() => import('../features/auth/pages/RegisterSuccessPage'));
const VerifyEmailPage = lazy(() => import('../features/auth/pages/VerifyEmailPage'));
const ForgotPasswordPage = lazy(() => import('../features/auth/pages/ForgotPasswordPage'));
const ResetPasswordPage = lazy(() => import('../features/auth/pages/ResetPasswordPage'));
const AlertUnsubscribePage = lazy(() => import('../features/alerts/AlertUnsubscribePage'));
const ContactPage = lazy(() => import('../features/contact/ContactPage'));
const NoticesPage = lazy(() => import('../features/notices/NoticesPage'));
const AboutPage = lazy(() => import('../features/static-pages/AboutPage'));
const TermsPage = lazy(() => import('../features/static-pages/TermsPage'));
const PrivacyPage = lazy(() => import('../features/static-pages/PrivacyPage'));
const CookiesPage = lazy(() => import('../features/static-pages/CookiesPage'));
const LegalNoticePage = lazy(() => import('../features/static-pages/LegalNoticePage'));
const NotFoundPage = lazy(() => import('../features/static-pages/NotFoundPage'));

const catalog = <RemoteRoutes remote="catalog" />;
const siteFrame = (children: ReactNode) => <SiteLayout>{children}</SiteLayout>;

/**
 * The route table (SPEC section 2). The shell owns guards and the mapping to remotes:
 * catalog renders /, /books, /books/*, /my-books, /messages*, /contact-seller/:bookId, /category-test and the
 * subscriptions (/subscription, /my-subscriptions, /subscription/details/:id, /payment/:id) and the class lists
 * (/ma-liste, /ma-liste/proposer, /ma-liste/vendre, /mes-listes) and the exchanges (/echanges) and the
 * saved searches (/mes-recherches, /mes-recherches/desabonnement);
 * admin renders /admin/*.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route
        path="admin/*"
        element={
          <RequireBackOffice>
            <RemoteRoutes remote="admin" frame={siteFrame} />
          </RequireBackOffice>
        }
      />

      <Route element={<SiteLayout />}>
        {/* Public */}
        <Route index element={catalog} />
        <Route path="books" element={catalog} />
        <Route path="books/:id" element={catalog} />
        <Route path="category-test" element={catalog} />
        {/* A member's public profile (from a comment's author link): visitors too; catalog renders it. */}
        <Route path="profile/:userId" element={catalog} />
        <Route path="about" element={<AboutPage />} />
        <Route path="contact" element={<ContactPage />} />
        {/* The alert mails' link (no login: the token is the proof). */}
        <Route path="alertes/desabonnement" element={<AlertUnsubscribePage />} />
        <Route path="terms" element={<TermsPage />} />
        <Route path="privacy" element={<PrivacyPage />} />
        <Route path="cookies" element={<CookiesPage />} />
        <Route path="legal" element={<LegalNoticePage />} />
        <Route path="forgot-password" element={<ForgotPasswordPage />} />
        <Route path="reset-password" element={<ResetPasswordPage />} />
        <Route path="register-success" element={<RegisterSuccessPage />} />
        <Route path="verify-email" element={<VerifyEmailPage />} />
        {/* Plans and boosts: the catalog renders them with the member's subscriptions. */}
        <Route path="subscription" element={catalog} />
        {/* Class book lists: « Ma liste » is for visitors too; saving and proposing need an account. */}
        <Route path="ma-liste" element={catalog} />
        {/* Saved searches: the alert e-mails' unsubscribe link needs no login. */}
        <Route path="mes-recherches/desabonnement" element={catalog} />

        {/* Guest only */}
        <Route element={<GuestOnly />}>
          <Route path="login" element={<LoginPage />} />
          <Route path="register" element={<RegisterPage />} />
        </Route>

        {/* Verified users */}
        <Route element={<RequireVerified />}>
          <Route path="dashboard" element={<DashboardPage />} />
          <Route path="profile" element={<ProfilePage />} />
          <Route path="books/create" element={catalog} />
          <Route path="books/add" element={catalog} />
          <Route path="books/edit/:id" element={catalog} />
          <Route path="books/:bookId/subscription" element={catalog} />
          <Route path="my-books" element={catalog} />
          <Route path="messages" element={catalog} />
          <Route path="messages/:bookId/:userId" element={catalog} />
          <Route path="contact-seller/:bookId" element={catalog} />
          <Route path="favoris" element={catalog} />
          <Route path="favourites" element={catalog} />
          <Route path="notifications" element={<NoticesPage />} />
          <Route path="transactions" element={catalog} />
          <Route path="transactions/:id" element={catalog} />
          <Route path="rate-transaction/:transactionId" element={catalog} />
          <Route path="my-ratings" element={catalog} />
          <Route path="my-subscriptions" element={catalog} />
          <Route path="subscription/details/:id" element={catalog} />
          <Route path="payment/:id" element={catalog} />
          <Route path="ma-liste/proposer" element={catalog} />
          <Route path="ma-liste/vendre" element={catalog} />
          <Route path="mes-listes" element={catalog} />
          {/* Exchange matching: offers, wishes and suggestions. */}
          <Route path="echanges" element={catalog} />
          {/* Saved searches with alerts. */}
          <Route path="mes-recherches" element={catalog} />
        </Route>

        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
