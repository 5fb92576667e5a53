import { lazy } from 'react';

/** Pages of text (about, legal documents), the 404 page. */
export const AboutPage = lazy(() => import('./AboutPage'));
export const TermsPage = lazy(() => import('./TermsPage'));
export const PrivacyPage = lazy(() => import('./PrivacyPage'));
export const CookiesPage = lazy(() => import('./CookiesPage'));
export const LegalNoticePage = lazy(() => import('./LegalNoticePage'));
export const NotFoundPage = lazy(() => import('./NotFoundPage'));
