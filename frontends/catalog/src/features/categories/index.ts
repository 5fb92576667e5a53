import { lazy } from 'react';

/**
 * The Cycles / Niveaux / Matières graph: its query, tree helpers and selector live in
 * @cartable/ui/categories (the admin remote manages the same tree); the test screen is here.
 */
export {
  bookCount,
  branchOf,
  type Category,
  type CategoryEntry,
  CategorySelector,
  categoryHierarchyQuery,
  compareNames,
  descendantIds,
  entriesById,
  flattenTree,
  INDENT_PX,
  levelName,
  MAX_DEPTH,
  useCategoryHierarchy,
} from '@cartable/ui/categories';
export const CategoryTestPage = lazy(() => import('./CategoryTestPage'));
