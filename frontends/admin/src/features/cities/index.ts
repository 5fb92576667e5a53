import { lazy } from 'react';

/** Cities in the back office: list, create, edit, delete, CSV import with a preview. */
export const CitiesPage = lazy(() => import('./CitiesPage'));
