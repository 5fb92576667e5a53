import { lazy } from 'react';

/**
 * Saved searches with alerts (issue 15 item 5): « Enregistrer cette recherche » on /books (its
 * dialog loads on the first tap), « Mes recherches » (/mes-recherches) and the page of the alert
 * e-mails' unsubscribe link (/mes-recherches/desabonnement?token=…).
 */
export const SavedSearchesPage = lazy(() => import('./SavedSearchesPage'));
export const UnsubscribePage = lazy(() => import('./UnsubscribePage'));
export { SaveSearchButton, type SearchToSave, suggestName } from './SaveSearchButton';
