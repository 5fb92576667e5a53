import type { BookCondition } from '@cartable/contracts';
import { Alert, Button, Checkbox, Input, RefreshIcon, Select } from '@cartable/ui';
import { useEffect, useRef, useState } from 'react';
import { useGabonCities } from '../../shared/cities';
import { CitySelect } from '../../shared/components/CitySelect';
import { messages } from '../../shared/messages';
import { CategoryFilter } from './CategoryFilter';
import { type CatalogueFilters, CONDITION_OPTIONS, FLAG_OPTIONS } from './filters';

export interface FilterPanelProps {
  filters: CatalogueFilters;
  onChange: (patch: Partial<CatalogueFilters>) => void;
  onReset: () => void;
}

/** Integer FCFA amount typed by the user, or null when empty; NaN when not a whole positive number. */
function parseAmount(text: string): number | null {
  const clean = text.replace(/[\s\u202f\u00a0]/g, '');
  if (!clean) return null;
  return /^\d+$/.test(clean) ? Number(clean) : Number.NaN;
}

/** The catalogue's filters (SPEC section 2); every change goes to the URL at once. */
export function FilterPanel({ filters, onChange, onReset }: FilterPanelProps) {
  const cities = useGabonCities();
  // Reset also empties what was typed but never applied (a refused range leaves the URL as it was).
  const [resets, setResets] = useState(0);
  const reset = () => {
    setResets((n) => n + 1);
    onReset();
  };
  return (
    <div className="space-y-6">
      <CategoryFilter value={filters.category_ids} onChange={(ids) => onChange({ category_ids: ids })} />
      <PriceRange key={resets} min={filters.min_price} max={filters.max_price} onChange={onChange} />
      <Select
        label="État"
        value={filters.condition ?? ''}
        onChange={(event) => onChange({ condition: (event.target.value || null) as BookCondition | null })}
      >
        <option value="">Tous les états</option>
        {CONDITION_OPTIONS.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </Select>
      <fieldset className="space-y-1">
        <legend className="mb-1 text-sm font-semibold text-slate-900">Précisions sur l’état</legend>
        {FLAG_OPTIONS.map((option) => (
          <Checkbox
            key={option.value}
            label={option.label}
            checked={filters.without_flags.includes(option.value)}
            onChange={(event) =>
              onChange({
                without_flags: event.target.checked
                  ? FLAG_OPTIONS.map((o) => o.value).filter(
                      (flag) => flag === option.value || filters.without_flags.includes(flag),
                    )
                  : filters.without_flags.filter((flag) => flag !== option.value),
              })
            }
          />
        ))}
      </fieldset>
      {cities.isError ? (
        <Alert
          tone="error"
          title={messages.citiesError}
          action={
            <Button
              size="sm"
              variant="outline"
              leftIcon={<RefreshIcon size={16} />}
              loading={cities.isFetching}
              onClick={() => void cities.refetch()}
            >
              Réessayer
            </Button>
          }
        />
      ) : (
        <CitySelect
          label="Ville"
          cities={cities.data}
          emptyLabel="Toutes les villes"
          value={filters.city_id ?? ''}
          onChange={(event) => onChange({ city_id: event.target.value ? Number(event.target.value) : null })}
        />
      )}
      <fieldset className="space-y-3">
        <legend className="mb-2 text-sm font-semibold text-slate-900">Options</legend>
        <Checkbox
          label="Prix négociable"
          checked={filters.is_negociable}
          onChange={(event) => onChange({ is_negociable: event.target.checked })}
        />
        <Checkbox
          label="Échange possible"
          checked={filters.is_exchange_possible}
          onChange={(event) => onChange({ is_exchange_possible: event.target.checked })}
        />
      </fieldset>
      <Button variant="outline" fullWidth leftIcon={<RefreshIcon size={16} />} onClick={reset}>
        Réinitialiser les filtres
      </Button>
    </div>
  );
}

/** Min and max price: applied 700 ms after typing stops, on blur or on Enter. */
function PriceRange({
  min,
  max,
  onChange,
}: {
  min: number | null;
  max: number | null;
  onChange: (patch: Partial<CatalogueFilters>) => void;
}) {
  const [minText, setMinText] = useState(min === null ? '' : String(min));
  const [maxText, setMaxText] = useState(max === null ? '' : String(max));

  // The range these fields last applied: when the URL comes back with it, the change is their
  // own, and the other field (which the person may be typing in already) is left alone.
  const applied = useRef<{ min: number | null; max: number | null } | null>(null);

  // The URL's range changed elsewhere (reset, a chip, back button): show both of its values, so
  // a refused amount still in the other field cannot be applied by the debounce below.
  useEffect(() => {
    const own = applied.current?.min === min && applied.current?.max === max;
    applied.current = null;
    if (own) return;
    setMinText(min === null ? '' : String(min));
    setMaxText(max === null ? '' : String(max));
  }, [min, max]);

  const minValue = parseAmount(minText);
  const maxValue = parseAmount(maxText);
  const minError = Number.isNaN(minValue) ? 'Saisissez un montant entier positif' : undefined;
  const maxError = Number.isNaN(maxValue)
    ? 'Saisissez un montant entier positif'
    : minValue !== null && maxValue !== null && !Number.isNaN(minValue) && maxValue < minValue
      ? 'Le prix maximum doit être supérieur au prix minimum'
      : undefined;
  const valid = !minError && !maxError;
  const changed = minValue !== min || maxValue !== max;

  const commit = () => {
    if (!valid || !changed) return;
    applied.current = { min: minValue, max: maxValue };
    onChange({ min_price: minValue, max_price: maxValue });
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: debounce on the typed text only
  useEffect(() => {
    if (!valid || !changed) return;
    const timer = window.setTimeout(commit, 700);
    return () => window.clearTimeout(timer);
  }, [minText, maxText]);

  return (
    <fieldset>
      <legend className="mb-2 text-sm font-semibold text-slate-900">Prix (FCFA)</legend>
      <div className="grid grid-cols-2 gap-3">
        <Input
          label="Minimum"
          type="number"
          inputMode="numeric"
          min={0}
          step={500}
          placeholder="0"
          value={minText}
          error={minError}
          onChange={(event) => setMinText(event.target.value)}
          onBlur={commit}
          onKeyDown={(event) => {
            if (event.key === 'Enter') commit();
          }}
        />
        <Input
          label="Maximum"
          type="number"
          inputMode="numeric"
          min={0}
          step={500}
          placeholder="Illimité"
          value={maxText}
          error={maxError}
          onChange={(event) => setMaxText(event.target.value)}
          onBlur={commit}
          onKeyDown={(event) => {
            if (event.key === 'Enter') commit();
          }}
        />
      </div>
    </fieldset>
  );
}
