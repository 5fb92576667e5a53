import { conditionFlagFilterLabels, conditionLabels } from '@cartable/contracts/labels';
import { CloseIcon, formatPrice } from '@cartable/ui';
import { branchOf, entriesById, flattenTree, useCategoryHierarchy } from '@cartable/ui/categories';
import { useMemo } from 'react';
import { useGabonCities } from '../../shared/cities';
import type { CatalogueFilters } from './filters';

/** Removable chips of the active filters (useful on phones, where the panel is hidden). */
export function ActiveFilters({
  filters,
  onChange,
  onReset,
}: {
  filters: CatalogueFilters;
  onChange: (patch: Partial<CatalogueFilters>) => void;
  onReset: () => void;
}) {
  const hierarchy = useCategoryHierarchy();
  const cities = useGabonCities();
  const entries = useMemo(() => flattenTree(hierarchy.data ?? []), [hierarchy.data]);
  const names = useMemo(() => entriesById(entries), [entries]);
  const branch = filters.category_ids.length > 1 ? branchOf(entries, filters.category_ids) : undefined;

  const chips: Array<{ key: string; label: string; patch: Partial<CatalogueFilters> }> = [];
  if (filters.query) chips.push({ key: 'q', label: `« ${filters.query} »`, patch: { query: '' } });
  if (branch) {
    chips.push({ key: 'branch', label: branch.path.join(' › '), patch: { category_ids: [] } });
  } else {
    for (const id of filters.category_ids) {
      chips.push({
        key: `c${id}`,
        label: names.get(id)?.category.name ?? `Catégorie ${id}`,
        patch: { category_ids: filters.category_ids.filter((v) => v !== id) },
      });
    }
  }
  if (filters.min_price !== null)
    chips.push({
      key: 'min',
      label: `Dès ${formatPrice(filters.min_price, { zeroLabel: 'Don' })}`,
      patch: { min_price: null },
    });
  if (filters.max_price !== null)
    chips.push({
      key: 'max',
      label: `Jusqu’à ${formatPrice(filters.max_price, { zeroLabel: 'Don' })}`,
      patch: { max_price: null },
    });
  if (filters.condition)
    chips.push({ key: 'cond', label: conditionLabels[filters.condition], patch: { condition: null } });
  for (const flag of filters.without_flags) {
    chips.push({
      key: `without-${flag}`,
      label: conditionFlagFilterLabels[flag],
      patch: { without_flags: filters.without_flags.filter((f) => f !== flag) },
    });
  }
  if (filters.city_id !== null) {
    const city = cities.data?.find((c) => c.id === filters.city_id);
    chips.push({ key: 'city', label: city?.name ?? 'Ville', patch: { city_id: null } });
  }
  if (filters.is_negociable) chips.push({ key: 'neg', label: 'Prix négociable', patch: { is_negociable: false } });
  if (filters.is_exchange_possible)
    chips.push({ key: 'ex', label: 'Échange possible', patch: { is_exchange_possible: false } });

  if (chips.length === 0) return null;
  return (
    <ul className="mt-3 flex flex-wrap items-center gap-2" aria-label="Filtres actifs">
      {chips.map((chip) => (
        <li key={chip.key}>
          <button
            type="button"
            onClick={() => onChange(chip.patch)}
            className="inline-flex h-8 max-w-[16rem] items-center gap-1 rounded-full border border-primary-200 bg-primary-50 pr-2 pl-3 text-sm text-primary-900 hover:bg-primary-100"
            aria-label={`Retirer le filtre ${chip.label}`}
          >
            <span className="truncate">{chip.label}</span>
            <CloseIcon size={14} className="shrink-0" />
          </button>
        </li>
      ))}
      {chips.length > 1 ? (
        <li>
          <button
            type="button"
            onClick={onReset}
            className="h-8 px-2 text-sm font-semibold text-slate-700 underline-offset-2 hover:underline"
          >
            Tout effacer
          </button>
        </li>
      ) : null}
    </ul>
  );
}
