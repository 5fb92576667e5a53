import type { CategoryGraph } from './category-graph.ts';

/** What a category is to a family: a level (with its cycles and series) or a subject. */
export type CategoryKind = 'level' | 'subject';

/** A subject is a category with no children under a level (depth 2 or more); the rest are levels, series and cycles. */
export function kindOf(graph: CategoryGraph, id: number): CategoryKind {
  const node = graph.nodes.get(id);
  return node && node.children.length === 0 && graph.depth(id) >= 2 ? 'subject' : 'level';
}
