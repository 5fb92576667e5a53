import { describe, expect, it } from 'vitest';
import { CategoryGraph } from '../src/modules/taxonomy/domain/category-graph.ts';
import { seededGraph } from './fixtures/seeded-graph.ts';

const { graph, id } = seededGraph();

/** Whether a listing in these categories passes the filter: any group, each of whose sets holds one of them. */
const passes = (groups: number[][][], categories: string[]) =>
  groups.some((sets) => sets.every((set) => categories.some((name) => set.includes(id(name)))));
const filter = (...names: string[]) => graph.filterGroups(names.map(id));

describe('the category filter of a search', () => {
  it('narrows a subject by a selected level, and widens across unrelated selections', () => {
    const sixthMaths = filter('6e', 'Mathématiques');
    expect(passes(sixthMaths, ['6e', 'Mathématiques'])).toBe(true);
    expect(passes(sixthMaths, ['5e', 'Mathématiques'])).toBe(false);
    expect(passes(sixthMaths, ['6e', 'Français'])).toBe(false);
    const either = filter('Français', 'Anglais');
    expect(passes(either, ['3e', 'Français'])).toBe(true);
    expect(passes(either, ['CM2', 'Anglais'])).toBe(true);
    expect(passes(either, ['CM2', 'Mathématiques'])).toBe(false);
  });

  it('reads levels side by side as either level, not as a book of both', () => {
    const groups = filter('2nde', 'Terminale C', 'Mathématiques', 'Physique-Chimie');
    expect(passes(groups, ['2nde', 'Mathématiques'])).toBe(true);
    expect(passes(groups, ['Terminale C', 'Physique-Chimie'])).toBe(true);
    expect(passes(groups, ['1ère C', 'Mathématiques'])).toBe(false);
    expect(passes(groups, ['2nde', 'Français'])).toBe(false);
    // The two subjects narrowed alike share one group of two sets.
    expect(groups).toHaveLength(1);
    expect(groups[0]).toHaveLength(2);
  });

  it('keeps a cycle and a level of it as the level', () => {
    const groups = filter('Lycée', '1ère', 'Mathématiques');
    expect(passes(groups, ['1ère C', 'Mathématiques'])).toBe(true);
    expect(passes(groups, ['2nde', 'Mathématiques'])).toBe(false);
    expect(passes(groups, ['6e', 'Mathématiques'])).toBe(false);
  });

  it('stays a few sets long for the most categories a search may name', () => {
    const lycee = ['Lycée', '2nde', '1ère', '1ère A1', '1ère A2', '1ère B', '1ère C', '1ère D', 'Terminale'];
    const groups = filter(...lycee, 'Terminale C', 'Terminale D', 'Mathématiques', 'Français', 'Anglais');
    expect(groups.flat().length).toBeLessThanOrEqual(4);
    expect(passes(groups, ['Terminale D', 'Anglais'])).toBe(true);
    expect(passes(groups, ['1ère B', 'Français'])).toBe(true);
    expect(passes(groups, ['3e', 'Français'])).toBe(false);
    expect(passes(groups, ['Terminale B', 'Philosophie'])).toBe(false);
  });

  it('narrows by a higher selected category that does not wholly contain the deeper one', () => {
    // « Option » hangs under both « Bac » and « Pro »: within « Bac » is not all of it.
    const g = new CategoryGraph(
      [
        { id: 1, name: 'Bac', order: 0 },
        { id: 2, name: 'Pro', order: 1 },
        { id: 3, name: 'Option', order: 2 },
        { id: 4, name: 'Dessin', order: 3 },
      ],
      [
        { categoryId: 3, parentId: 1 },
        { categoryId: 3, parentId: 2 },
        { categoryId: 4, parentId: 3 },
        { categoryId: 4, parentId: 2 },
      ],
    );
    expect(g.filterGroups([1, 3, 4])).toEqual([[[4], [3], [1]]]);
  });
});
