import { lazy } from 'react';

/** Publishing and editing a listing (photos, categories, the contract's rules). */
export const BookFormPage = lazy(() => import('./BookFormPage'));
