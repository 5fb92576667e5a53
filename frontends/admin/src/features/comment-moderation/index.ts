import { lazy } from 'react';

/** The queue of comments waiting for a decision. */
export const CommentModerationPage = lazy(() => import('./CommentModerationPage'));
