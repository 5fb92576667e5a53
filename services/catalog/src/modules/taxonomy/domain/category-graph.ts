/**
 * The category graph in memory: a category may have several parents (a subject taught in
 * several levels). Small (a few hundred nodes), read on every catalogue request, so it is
 * loaded once and kept until something changes (see CategoryCache).
 */
export const MAX_CATEGORY_DEPTH = 10;
/** Category selections whose grouping is kept (per graph). */
const GROUPINGS_KEPT = 500;

export interface CategoryNode {
  id: number;
  name: string;
  order: number;
  parents: number[];
  children: number[];
}

export interface CategoryRef {
  id: number;
  name: string;
  depth: number;
}

/** One collator for every comparison: `localeCompare` builds one each call, on every catalogue request. */
const french = new Intl.Collator('fr');

export class CategoryGraph {
  readonly nodes: Map<number, CategoryNode>;
  private readonly depthCache = new Map<number, number>();
  /**
   * The graph never changes once built (a change builds a new one), so each category's
   * ancestors, descendants and contents are walked once: a search naming twenty categories
   * asks for them hundreds of times.
   */
  private readonly walks = new Map<string, number[]>();
  /**
   * Filters as grouped, per set of selected categories: the grouping compares every pair of them
   * (a search naming twenty categories spent a tenth of its time there, twice per request).
   * Bounded, as any client may send any set.
   */
  private readonly groupings = new Map<string, number[][][]>();

  constructor(
    categories: Array<{ id: number; name: string; order: number }>,
    edges: Array<{ categoryId: number; parentId: number }>,
  ) {
    this.nodes = new Map(categories.map((c) => [c.id, { ...c, parents: [], children: [] }]));
    for (const e of edges) {
      this.nodes.get(e.categoryId)?.parents.push(e.parentId);
      this.nodes.get(e.parentId)?.children.push(e.categoryId);
    }
    const byOrder = (a: number, b: number) => this.compare(a, b);
    for (const node of this.nodes.values()) {
      node.children.sort(byOrder);
      node.parents.sort(byOrder);
    }
  }

  private compare(a: number, b: number) {
    const x = this.nodes.get(a);
    const y = this.nodes.get(b);
    return (x?.order ?? 0) - (y?.order ?? 0) || french.compare(x?.name ?? '', y?.name ?? '') || a - b;
  }

  has(id: number) {
    return this.nodes.has(id);
  }

  roots(): number[] {
    return [...this.nodes.values()]
      .filter((n) => n.parents.length === 0)
      .map((n) => n.id)
      .sort((a, b) => this.compare(a, b));
  }

  leaves(): number[] {
    return [...this.nodes.values()]
      .filter((n) => n.children.length === 0)
      .map((n) => n.id)
      .sort((a, b) => this.compare(a, b));
  }

  /** Longest distance from a root: a subject under "6e" (depth 1) under "Collège" is at depth 2. */
  depth(id: number): number {
    const known = this.depthCache.get(id);
    if (known !== undefined) return known;
    const node = this.nodes.get(id);
    const value = node?.parents.length ? 1 + Math.max(...node.parents.map((p) => this.depth(p))) : 0;
    this.depthCache.set(id, value);
    return value;
  }

  /** Longest distance down to a leaf. */
  height(id: number): number {
    const node = this.nodes.get(id);
    return node?.children.length ? 1 + Math.max(...node.children.map((c) => this.height(c))) : 0;
  }

  private walk(id: number, next: (n: CategoryNode) => number[]): number[] {
    const seen = new Set<number>();
    const stack = [...(this.nodes.get(id) ? next(this.nodes.get(id)!) : [])];
    while (stack.length) {
      const current = stack.pop()!;
      if (seen.has(current)) continue;
      seen.add(current);
      const node = this.nodes.get(current);
      if (node) stack.push(...next(node));
    }
    return [...seen].sort((a, b) => this.depth(a) - this.depth(b) || this.compare(a, b));
  }

  /** A walk's result, computed once per graph; a copy each time, so no caller can change it. */
  private remembered(key: string, compute: () => number[]): number[] {
    let found = this.walks.get(key);
    if (!found) {
      found = compute();
      this.walks.set(key, found);
    }
    return [...found];
  }

  descendants(id: number) {
    return this.remembered(`d${id}`, () => this.walk(id, (n) => n.children));
  }

  ancestors(id: number) {
    return this.remembered(`a${id}`, () => this.walk(id, (n) => n.parents));
  }

  /**
   * What a category wholly contains: itself, and below it every category whose parents are all
   * inside too. "Mathématiques" hangs under levels of every cycle, so it is within "6e" or
   * "Collège" for nobody; "Philosophie", taught only in the Terminale series, is within "Lycée".
   */
  within(id: number): number[] {
    return this.remembered(`w${id}`, () => this.contents(id));
  }

  private contents(id: number): number[] {
    if (!this.has(id)) return [];
    const inside = new Set([id]);
    const queue = [...this.nodes.get(id)!.children];
    while (queue.length) {
      const current = queue.shift()!;
      const node = this.nodes.get(current);
      if (!node || inside.has(current) || !node.parents.every((p) => inside.has(p))) continue;
      inside.add(current);
      queue.push(...node.children);
    }
    return [...inside];
  }

  /**
   * A category filter as OR-groups of AND-ed category sets. Selected categories that are
   * ancestors of another selected one narrow it: « 6e » and « Mathématiques » mean the 6e maths
   * books; unrelated selections widen: « Français » or « Anglais »; so do levels side by side:
   * « Seconde », « Première » and « Mathématiques » are the maths books of either level.
   */
  filterGroups(ids: number[]): number[][][] {
    const selected = [...new Set(ids)].filter((id) => this.has(id)).sort((a, b) => a - b);
    const key = selected.join(',');
    let grouped = this.groupings.get(key);
    if (!grouped) {
      if (this.groupings.size >= GROUPINGS_KEPT) this.groupings.clear();
      grouped = this.group(selected);
      this.groupings.set(key, grouped);
    }
    // A copy, so no caller can change what the next one reads.
    return grouped.map((sets) => sets.map((set) => [...set]));
  }

  private group(selected: number[]): number[][][] {
    const isAncestor = (a: number, b: number) => a !== b && this.ancestors(b).includes(a);
    const leaves = selected.filter((a) => !selected.some((b) => isAncestor(a, b)));
    // An ancestor that wholly contains a category adds nothing to it (what is within the one is
    // within the other too), and its set is the larger: left out.
    const narrows = (a: number, b: number) => isAncestor(a, b) && !this.within(a).includes(b);
    // Per leaf: its set, then one set for the deepest selected ancestors that narrow it (any of
    // them), then each higher selected ancestor of all of those that still narrows one (it
    // changes nothing for those it wholly contains).
    const groups = new Map<string, { leaves: Set<number>; narrowing: number[][] }>();
    for (const leaf of leaves) {
      const above = selected.filter((a) => narrows(a, leaf));
      const deepest = above.filter((a) => !above.some((b) => isAncestor(a, b)));
      const higher = above.filter((a) => deepest.every((d) => isAncestor(a, d)) && deepest.some((d) => narrows(a, d)));
      const narrowing = [
        ...(deepest.length ? [[...new Set(deepest.flatMap((id) => this.within(id)))].sort((a, b) => a - b)] : []),
        ...higher.map((id) => this.within(id)),
      ];
      // Leaves narrowed alike share one group: (A and N) or (B and N) is (A or B) and N, a
      // statement a few conditions long however many categories are selected.
      const key = JSON.stringify(narrowing);
      const group = groups.get(key) ?? { leaves: new Set<number>(), narrowing };
      for (const id of this.within(leaf)) group.leaves.add(id);
      groups.set(key, group);
    }
    return [...groups.values()].map((g) => [[...g.leaves], ...g.narrowing]);
  }

  ref(id: number): CategoryRef {
    return { id, name: this.nodes.get(id)?.name ?? '', depth: this.depth(id) };
  }

  /**
   * Why `parentId` cannot become a parent of `id`, or null when it can: no cycle, and the
   * deepest chain through the new edge stays within MAX_CATEGORY_DEPTH levels.
   */
  refuseParent(id: number, parentId: number): string | null {
    if (!this.has(id) || !this.has(parentId)) return 'Catégorie introuvable.';
    if (id === parentId) return 'Une catégorie ne peut pas être son propre parent.';
    if (this.nodes.get(id)!.parents.includes(parentId)) return 'Cette catégorie a déjà ce parent.';
    if (this.descendants(id).includes(parentId)) return 'Ce lien créerait un cycle dans la hiérarchie.';
    if (this.depth(parentId) + 1 + this.height(id) >= MAX_CATEGORY_DEPTH) {
      return `La hiérarchie ne peut pas dépasser ${MAX_CATEGORY_DEPTH} niveaux.`;
    }
    return null;
  }
}
