import { lazy } from 'react';

/** Members' public profiles (/profile/{userId}): identity, trust signals and listings. */
export const MemberProfilePage = lazy(() => import('./MemberProfilePage'));
