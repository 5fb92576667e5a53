import type { Category } from '@cartable/ui/categories';

export interface LevelGroup {
  cycle: Category;
  levels: Category[];
}

/** A series (« Terminale D ») is a child of its level named after it; a level's other children are subjects. */
const seriesOf = (level: Category) => (level.children ?? []).filter((c) => c.name.startsWith(`${level.name} `));

/**
 * The classes a list can be for, by cycle: each level, or its series when it has some (the lycée's
 * lists are per series). Cycles are the hierarchy's top categories that have levels.
 */
export function levelGroups(tree: Category[] | undefined): LevelGroup[] {
  return (tree ?? [])
    .map((cycle) => ({
      cycle,
      levels: (cycle.children ?? []).flatMap((level) => {
        const series = seriesOf(level);
        return series.length ? series : [level];
      }),
    }))
    .filter((group) => group.levels.length > 0);
}

/** The level (or series) with this id, anywhere in the groups. */
export function findLevel(groups: LevelGroup[], id: number | null): Category | undefined {
  if (!id) return undefined;
  for (const group of groups) {
    const found = group.levels.find((level) => level.id === id);
    if (found) return found;
  }
  return undefined;
}

/** The subjects taught in a level (its children that are not series), for the proposal form. */
export function subjectsOf(tree: Category[] | undefined, levelId: number | null): Category[] {
  if (!levelId) return [];
  const visit = (nodes: Category[]): Category | undefined => {
    for (const node of nodes) {
      if (node.id === levelId) return node;
      const inner = visit(node.children ?? []);
      if (inner) return inner;
    }
    return undefined;
  };
  const level = visit(tree ?? []);
  return (level?.children ?? []).filter((c) => !c.name.startsWith(`${level?.name} `));
}
