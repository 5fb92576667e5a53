import { lazy } from 'react';

/** « Signalements »: reports of listings, members, comments and messages, and what was decided. */
export const FlagsPage = lazy(() => import('./FlagsPage'));
