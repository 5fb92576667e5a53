import { lazy } from 'react';

/** The Cycles / Niveaux / Matières graph: its query, tree helpers, the selector, the test screen. */
export { categoryHierarchyQuery, useCategoryHierarchy } from './api/categories';
export { CategorySelector, INDENT_PX } from './CategorySelector';
export {
  bookCount,
  branchOf,
  type Category,
  type CategoryEntry,
  compareNames,
  descendantIds,
  entriesById,
  flattenTree,
  levelName,
  MAX_DEPTH,
} from './tree';
export const CategoryTestPage = lazy(() => import('./CategoryTestPage'));
