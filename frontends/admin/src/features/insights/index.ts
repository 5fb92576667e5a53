import { lazy } from 'react';

/**
 * Figures for operators: the dashboard (not lazy: /admin opens on it; its charts are) and the
 * Rapports screen.
 */
export { default as DashboardPage } from './DashboardPage';
export const ReportsPage = lazy(() => import('./ReportsPage'));
