/** The category graph as the screens read it, and the helpers that walk it (no calls here). */

import type { Category } from '@cartable/contracts';
import { once } from '../once';

/** A category may have several parents; the hierarchy lists it under each of them. */
export type {
  Category,
  CategoryDetailsResponse as CategoryDetails,
  CategoryRef as CategoryNodeRef,
} from '@cartable/contracts';

/** SPEC section 9: cascades stop at 10 levels. */
export const MAX_DEPTH = 10;

/* ------------------------------------------------------------------------------------------ */
/* Tree helpers                                                                                */
/* ------------------------------------------------------------------------------------------ */

/** One place of a category in the tree (a category with two parents has two entries). */
export interface CategoryEntry {
  /** Unique per place: the ids from the root, joined by "/". */
  key: string;
  category: Category;
  level: number;
  /** Names from the root to this category. */
  path: string[];
  /** Ids from the root to this category. */
  pathIds: number[];
  parentId: number | null;
}

/** Depth-first list of every place in the tree, at most MAX_DEPTH levels, cycles skipped. */
export function flattenTree(roots: Category[]): CategoryEntry[] {
  const out: CategoryEntry[] = [];
  const walk = (nodes: Category[], level: number, path: string[], pathIds: number[]) => {
    if (level >= MAX_DEPTH) return;
    for (const category of nodes) {
      if (pathIds.includes(category.id)) continue;
      const ids = [...pathIds, category.id];
      const names = [...path, category.name];
      out.push({
        key: ids.join('/'),
        category,
        level,
        path: names,
        pathIds: ids,
        parentId: pathIds[pathIds.length - 1] ?? null,
      });
      if (category.children?.length) walk(category.children, level + 1, names, ids);
    }
  };
  walk(roots, 0, [], []);
  return out;
}

/** Number of distinct parents of each category, from its `parents` or from the tree itself. */
export function parentCounts(entries: CategoryEntry[]): Map<number, number> {
  const parents = new Map<number, Set<number>>();
  const declared = new Map<number, number>();
  for (const entry of entries) {
    const set = parents.get(entry.category.id) ?? new Set<number>();
    if (entry.parentId !== null) set.add(entry.parentId);
    parents.set(entry.category.id, set);
    if (entry.category.parents) declared.set(entry.category.id, entry.category.parents.length);
  }
  const counts = new Map<number, number>();
  for (const [id, set] of parents) counts.set(id, Math.max(set.size, declared.get(id) ?? 0));
  return counts;
}

/** Categories by id (first place found), for names and paths of selected ids. */
export function entriesById(entries: CategoryEntry[]): Map<number, CategoryEntry> {
  const map = new Map<number, CategoryEntry>();
  for (const entry of entries) if (!map.has(entry.category.id)) map.set(entry.category.id, entry);
  return map;
}

const collator = once(() => new Intl.Collator('fr', { sensitivity: 'base' }));

/** Accent- and case-insensitive search ("mathematiques" finds "Mathématiques"). */
export function normalise(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .trim();
}

export function compareNames(a: string, b: string): number {
  return collator().compare(a, b);
}

/** Ids of a category and all its descendants (every place). */
export function descendantIds(roots: Category[], id: number): Set<number> {
  const out = new Set<number>();
  const collect = (node: Category, level: number) => {
    if (out.has(node.id) || level > MAX_DEPTH) return;
    out.add(node.id);
    for (const child of node.children ?? []) collect(child, level + 1);
  };
  const find = (nodes: Category[], level: number) => {
    if (level > MAX_DEPTH) return;
    for (const node of nodes) {
      if (node.id === id) collect(node, level);
      else find(node.children ?? [], level + 1);
    }
  };
  find(roots, 0);
  return out;
}

/** Book count whichever spelling the API used. */
export function bookCount(category: Category): number | undefined {
  return category.books_count ?? category.book_count;
}

/** Level names of the Cycles / Niveaux / Matières tree. */
export function levelName(level: number): string {
  if (level === 0) return 'Cycle';
  if (level === 1) return 'Niveau';
  if (level === 2) return 'Matière';
  return `Sous-catégorie (niveau ${level + 1})`;
}

/**
 * The branch that a set of ids describes, if any: a place whose path holds every id and ends
 * on one of them ([12] → Collège › 3e; [8, 12, 29] → Collège › 3e › Mathématiques). The API
 * reads ids of one branch together (3e AND Mathématiques), so a cascade sends the whole branch.
 */
export function branchOf(entries: CategoryEntry[], ids: number[]): CategoryEntry | undefined {
  if (ids.length === 0) return undefined;
  const wanted = new Set(ids);
  return entries.find((entry) => wanted.has(entry.category.id) && ids.every((id) => entry.pathIds.includes(id)));
}
