import { SEARCH_CATEGORIES_MAX } from '@cartable/contracts/limits';
import { Alert, Button, cn, RefreshIcon, Select, Skeleton } from '@cartable/ui';
import {
  branchOf,
  type Category,
  CategorySelector,
  compareNames,
  flattenTree,
  levelName,
  MAX_DEPTH,
  useCategoryHierarchy,
} from '@cartable/ui/categories';
import { useId, useMemo, useState } from 'react';
import { messages } from '../../shared/messages';

type Mode = 'cascade' | 'tree';

export interface CategoryFilterProps {
  value: number[];
  onChange: (ids: number[]) => void;
}

/**
 * Category filter of the catalogue (Cycles, Niveaux, Matières): "Cascade" picks one branch level
 * by level (at most 10 levels), "Arborescence" picks any number of categories in the searchable
 * tree, with "Tout sélectionner" and "Tout supprimer".
 */
export function CategoryFilter({ value, onChange: apply }: CategoryFilterProps) {
  const hierarchy = useCategoryHierarchy();
  const [chosenMode, setMode] = useState<Mode | null>(null);
  const entries = useMemo(() => flattenTree(hierarchy.data ?? []), [hierarchy.data]);
  const [notice, setNotice] = useState<string | null>(null);
  // Every category is no filter at all (and is sent as none); more than the catalogue searches
  // at once is said here rather than refused by the server.
  const onChange = (ids: number[]) => {
    const distinct = new Set(entries.map((entry) => entry.category.id));
    if (ids.length > 0 && distinct.size > 0 && [...distinct].every((id) => ids.includes(id))) {
      setNotice('Toutes les catégories : le catalogue entier est affiché.');
      apply([]);
    } else if (ids.length > SEARCH_CATEGORIES_MAX) {
      setNotice(
        `${SEARCH_CATEGORIES_MAX} catégories au plus : choisissez un niveau et ses matières, ou « Tout sélectionner ».`,
      );
    } else {
      setNotice(null);
      apply(ids);
    }
  };
  // A branch (Collège › 3e › Mathématiques) reads best as a cascade; any other choice as a tree.
  const mode: Mode = chosenMode ?? (value.length > 1 && !branchOf(entries, value) ? 'tree' : 'cascade');
  const groupId = useId();

  if (hierarchy.isError && !hierarchy.data) {
    return (
      <Alert
        tone="error"
        title={messages.categoriesError}
        action={
          <Button
            size="sm"
            variant="outline"
            leftIcon={<RefreshIcon size={16} />}
            loading={hierarchy.isFetching}
            onClick={() => void hierarchy.refetch()}
          >
            Réessayer
          </Button>
        }
      />
    );
  }

  return (
    <fieldset className="space-y-3">
      <legend className="mb-2 text-sm font-semibold text-slate-900">Cycles, Niveaux et Matières</legend>
      <fieldset className="flex items-center gap-2">
        <legend id={`${groupId}-mode`} className="sr-only">
          Mode de sélection des catégories
        </legend>
        <div className="grid w-full grid-cols-2 rounded-lg bg-slate-100 p-1 text-sm">
          {(
            [
              ['cascade', 'Cascade'],
              ['tree', 'Arborescence'],
            ] as const
          ).map(([key, text]) => (
            <button
              key={key}
              type="button"
              aria-pressed={mode === key}
              onClick={() => setMode(key)}
              className={cn(
                'h-9 rounded-md font-medium transition-colors',
                mode === key ? 'bg-white text-primary-800 shadow-sm' : 'text-slate-600 hover:text-slate-900',
              )}
            >
              {text}
            </button>
          ))}
        </div>
      </fieldset>
      {!hierarchy.data ? (
        <div className="space-y-2" aria-busy="true">
          <span className="sr-only" role="status">
            Chargement des catégories…
          </span>
          <Skeleton className="h-11 w-full" />
          <Skeleton className="h-11 w-full" />
        </div>
      ) : mode === 'cascade' ? (
        <Cascade roots={hierarchy.data} value={value} onChange={onChange} />
      ) : (
        <CategorySelector
          categories={hierarchy.data}
          value={value}
          onChange={onChange}
          label="Rechercher et choisir des catégories"
          plain
          selectAll
        />
      )}
      <p role="status" className={cn('text-sm', notice ? 'text-slate-700' : 'sr-only')}>
        {notice}
      </p>
    </fieldset>
  );
}

const byName = (a: Category, b: Category) => (a.order ?? 0) - (b.order ?? 0) || compareNames(a.name, b.name);

/** One select per level; choosing a level shows the next one while there are children. */
function Cascade({
  roots,
  value,
  onChange,
}: {
  roots: Category[];
  value: number[];
  onChange: (ids: number[]) => void;
}) {
  const entries = useMemo(() => flattenTree(roots), [roots]);
  const branch = branchOf(entries, value);

  if (value.length > 0 && !branch) {
    return (
      <div className="rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700">
        {value.length} catégories sont sélectionnées dans l'arborescence.{' '}
        <button
          type="button"
          className="font-semibold text-primary-700 underline-offset-2 hover:underline"
          onClick={() => onChange([])}
        >
          Effacer
        </button>
      </div>
    );
  }

  const chain = branch?.pathIds ?? [];
  const levels: Array<{ options: Category[]; selected: number | undefined }> = [];
  let options = [...roots].sort(byName);
  for (let level = 0; level < MAX_DEPTH && options.length > 0; level++) {
    const selected = chain[level];
    levels.push({ options, selected });
    if (selected === undefined) break;
    const node = options.find((c) => c.id === selected);
    options = [...(node?.children ?? [])].sort(byName);
  }

  const pick = (level: number, raw: string) => {
    // The whole branch is sent: the API reads "Collège, 3e, Mathématiques" as 3e maths books.
    const next = chain.slice(0, level);
    if (raw) next.push(Number(raw));
    onChange(next);
  };

  return (
    <div className="space-y-3">
      {levels.map((entry, level) => (
        <Select
          // biome-ignore lint/suspicious/noArrayIndexKey: one select per level
          key={level}
          label={levelName(level)}
          value={entry.selected ?? ''}
          onChange={(event) => pick(level, event.target.value)}
        >
          <option value="">{level === 0 ? 'Tous les cycles' : 'Tout'}</option>
          {entry.options.map((category) => (
            <option key={category.id} value={category.id}>
              {category.name}
            </option>
          ))}
        </Select>
      ))}
      {chain.length > 0 ? (
        <button
          type="button"
          onClick={() => onChange([])}
          className="text-sm font-semibold text-primary-700 underline-offset-2 hover:underline"
        >
          Effacer la catégorie
        </button>
      ) : null}
    </div>
  );
}
