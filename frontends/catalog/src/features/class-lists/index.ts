import { lazy } from 'react';

/**
 * Class book lists (issue 15): « Ma liste » (/ma-liste: a class's books and where to find them
 * near a town), the member's saved lists (/mes-listes), a list's proposal (/ma-liste/proposer)
 * and « Vendre ma liste » (/ma-liste/vendre?list=: several books of a list listed at once).
 */
export const MyListPage = lazy(() => import('./MyListPage'));
export const SavedListsPage = lazy(() => import('./SavedListsPage'));
export const ProposeListPage = lazy(() => import('./ProposeListPage'));
export const SellListPage = lazy(() => import('./SellListPage'));
/** The classes by cycle and a class's subjects (from the category tree). */
export { findLevel, type LevelGroup, levelGroups, subjectsOf } from './levels';
