import { schoolYearOf } from '@cartable/contracts';
import type { Category } from '@cartable/ui/categories';

// A list is for a level: the levels and their subjects come from the category tree.

export interface LevelGroup {
  cycle: Category;
  levels: Category[];
}

/** Each level, or its series when it has some (« Terminale D »): what a list is for. */
export function levelGroups(tree: Category[] | undefined): LevelGroup[] {
  return (tree ?? [])
    .map((cycle) => ({
      cycle,
      levels: (cycle.children ?? []).flatMap((level) => {
        const series = (level.children ?? []).filter((c) => c.name.startsWith(`${level.name} `));
        return series.length ? series : [level];
      }),
    }))
    .filter((g) => g.levels.length > 0);
}

/** The subjects of a level: its children, but for its series. */
export function subjectsOf(tree: Category[] | undefined, levelId: number | null): Category[] {
  const visit = (nodes: Category[]): Category | undefined => {
    for (const node of nodes) {
      if (node.id === levelId) return node;
      const inner = visit(node.children ?? []);
      if (inner) return inner;
    }
    return undefined;
  };
  const level = levelId ? visit(tree ?? []) : undefined;
  return (level?.children ?? []).filter((c) => !c.name.startsWith(`${level?.name} `));
}

/** The levels as a select's options, grouped by cycle. */
export function LevelOptions({ groups }: { groups: LevelGroup[] }) {
  return (
    <>
      {groups.map((g) => (
        <optgroup key={g.cycle.id} label={g.cycle.name}>
          {g.levels.map((l) => (
            <option key={l.id} value={l.id}>
              {l.name}
            </option>
          ))}
        </optgroup>
      ))}
    </>
  );
}

/** The school years the back office offers: the coming one and the four before. */
export const schoolYearChoices = () => {
  const [a] = schoolYearOf().split('-').map(Number);
  const start = (a ?? 2026) + 1;
  return Array.from({ length: 5 }, (_, i) => `${start - i}-${start - i + 1}`);
};
