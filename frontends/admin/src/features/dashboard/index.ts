/** The back office's first screen (not lazy: /admin opens on it). */
export { default as DashboardPage } from './DashboardPage';
