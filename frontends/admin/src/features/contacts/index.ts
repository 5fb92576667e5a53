import { lazy } from 'react';

/** Messages sent with the contact form: list, stats, answer by e-mail, status, deletion. */
export const ContactsPage = lazy(() => import('./ContactsPage'));
export const ContactDetailPage = lazy(() => import('./ContactDetailPage'));
