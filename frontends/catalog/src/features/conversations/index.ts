import { lazy } from 'react';

/** Messages between members about a book: the list, a thread, and writing to a seller. */
export { ContactSellerDialog, type ContactSellerDialogProps } from './ContactSellerDialog';
export const MessagesPage = lazy(() => import('./MessagesPage'));
export const ConversationPage = lazy(() => import('./ConversationPage'));
export const ContactSellerPage = lazy(() => import('./ContactSellerPage'));
