import { Skeleton } from '@cartable/ui';
import { lazy, Suspense } from 'react';
import type { CategoryHierarchyManagerProps } from './CategoryHierarchyManager';

const Manager = lazy(() => import('./CategoryHierarchyManager').then((m) => ({ default: m.CategoryHierarchyManager })));

/**
 * The hierarchy manager, loaded when first shown: it needs the dialogs (Radix UI), which the pages
 * that only read the categories (home, /books) must not download.
 */
export function CategoryHierarchyManager(props: CategoryHierarchyManagerProps) {
  return (
    <Suspense fallback={<Skeleton className="h-96 w-full rounded-xl" />}>
      <Manager {...props} />
    </Suspense>
  );
}
