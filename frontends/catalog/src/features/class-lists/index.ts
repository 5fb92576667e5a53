import { lazy } from 'react';

/**
 * Class book lists (issue 15): « Ma liste » (/ma-liste: a class's books and where to find them
 * near a town), the member's saved lists (/mes-listes) and a list's proposal (/ma-liste/proposer).
 */
export const MyListPage = lazy(() => import('./MyListPage'));
export const SavedListsPage = lazy(() => import('./SavedListsPage'));
export const ProposeListPage = lazy(() => import('./ProposeListPage'));
