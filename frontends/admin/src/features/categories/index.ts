import { lazy } from 'react';

/** Gestion des Cycles, Niveaux et Matières: the hierarchy manager with create, rename, reorder, move, delete. */
export const CategoriesPage = lazy(() => import('./CategoriesPage'));
