import { lazy } from 'react';

/** The contact page: details, map, the form with the server's question, FAQ. */
export const ContactPage = lazy(() => import('./ContactPage'));
