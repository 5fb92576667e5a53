import { lazy } from 'react';

/** Messages between members about a book: the list, a thread, and writing to a seller. */
export type { ContactSellerDialogProps } from './ContactSellerDialog';
/** Loaded when a visitor first asks to write to the seller (the dialog, its form and validation). */
export const ContactSellerDialog = lazy(() =>
  import('./ContactSellerDialog').then((m) => ({ default: m.ContactSellerDialog })),
);
export const MessagesPage = lazy(() => import('./MessagesPage'));
export const ConversationPage = lazy(() => import('./ConversationPage'));
export const ContactSellerPage = lazy(() => import('./ContactSellerPage'));
