/**
 * The Cycles / Niveaux / Matières graph on the client (SPEC section 2, "Category hierarchy manager
 * and selector"): its query (cached 12 h, SPEC section 9), tree helpers, the selector and the
 * hierarchy manager. Shared by the catalog remote (filters, listing form, /category-test) and the
 * admin remote (Gestion des Cycles, Niveaux et Matières). Entry `@cartable/ui/categories`.
 */
export * from './api';
export type { CategoryHierarchyManagerProps } from './CategoryHierarchyManager';
export { CategorySelector, INDENT_PX } from './CategorySelector';
export { IconButton as TreeIconButton } from './IconButton';
// Loaded on first use (it brings the dialogs): readers of the tree never download it.
export { CategoryHierarchyManager } from './LazyHierarchyManager';
export { messages as categoryMessages } from './messages';
export * from './tree';
