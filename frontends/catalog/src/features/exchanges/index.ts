import { lazy } from 'react';

/** Exchange matching (issue 15 item 6): « Échanges » (/echanges): offers, wishes, suggestions. */
export const ExchangesPage = lazy(() => import('./ExchangesPage'));
