import { lazy } from 'react';

/** Class book lists in the back office (lists.manage, issue 15): lists, their books, proposals. */
export const ClassListsPage = lazy(() => import('./ClassListsPage'));
export const ClassListDetailPage = lazy(() => import('./ClassListDetailPage'));
