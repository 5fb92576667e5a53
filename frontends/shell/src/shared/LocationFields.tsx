import { messages } from '@cartable/contracts/messages';
import { Alert, Button, groupByProvince, Input, RefreshIcon, Select, useCities, useCountries } from '@cartable/ui';
import { type Ref, useId, useMemo, useState } from 'react';
import { useDebouncedValue } from './geolocation';

export const COUNTRIES_ERROR = 'Impossible de charger la liste des pays.';
export const CITIES_ERROR = 'Impossible de charger les villes pour le pays sélectionné.';
export const CITY_SEARCH_DEBOUNCE_MS = 300;
export const CITY_SEARCH_MIN = 2;

export interface LocationFieldsProps {
  countryId: number | null;
  cityId: number | null;
  onCountryChange: (id: number | null) => void;
  onCityChange: (id: number | null) => void;
  countryError?: string | undefined;
  cityError?: string | undefined;
  countryRef?: Ref<HTMLSelectElement>;
  cityRef?: Ref<HTMLSelectElement>;
  onCityBlur?: () => void;
  onCountryBlur?: () => void;
  disabled?: boolean;
}

/** What LocationFields reads of a react-hook-form `useController` (country_id or city_id). */
interface ControlledId {
  field: {
    value: number | null;
    onChange: (id: number | null) => void;
    onBlur: () => void;
    ref: Ref<HTMLSelectElement>;
  };
  fieldState: { error?: { message?: string | undefined } | undefined };
}

/** The props that wire LocationFields to the form's `country_id` and `city_id` controllers. */
export function controlledLocation(country: ControlledId, city: ControlledId) {
  return {
    countryId: country.field.value,
    cityId: city.field.value,
    onCountryChange: country.field.onChange,
    onCityChange: city.field.onChange,
    onCountryBlur: country.field.onBlur,
    onCityBlur: city.field.onBlur,
    countryRef: country.field.ref,
    cityRef: city.field.ref,
    countryError: country.fieldState.error?.message,
    cityError: city.fieldState.error?.message,
  } satisfies LocationFieldsProps;
}

/** Lower case, without accents: "Lambaréné" matches "lambarene". */
function fold(value: string): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim();
}

/** Country select, then the cities of that country with a search box (SPEC sections 5 and 9). */
export function LocationFields({
  countryId,
  cityId,
  onCountryChange,
  onCityChange,
  countryError,
  cityError,
  countryRef,
  cityRef,
  onCityBlur,
  onCountryBlur,
  disabled,
}: LocationFieldsProps) {
  const countries = useCountries();
  const cities = useCities(countryId);
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search, CITY_SEARCH_DEBOUNCE_MS);
  const searchId = useId();

  const term = fold(debounced);
  const tooShort = term.length > 0 && term.length < CITY_SEARCH_MIN;
  const filtered = useMemo(() => {
    const list = cities.data ?? [];
    if (term.length < CITY_SEARCH_MIN) return list;
    return list.filter(
      (city) => fold(city.name).includes(term) || (city.province ? fold(city.province).includes(term) : false),
    );
  }, [cities.data, term]);
  // The chosen city stays in the list even when the search hides it.
  const selected = cities.data?.find((city) => city.id === cityId);
  const shown = selected && !filtered.includes(selected) ? [selected, ...filtered] : filtered;
  const hasProvinces = shown.some((city) => city.province?.trim());
  const groups = hasProvinces ? groupByProvince(shown, 'Autres') : [];

  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <div className="sm:col-span-2">
        {countries.isError ? (
          <Alert
            tone="error"
            action={
              <Button
                size="sm"
                variant="outline"
                leftIcon={<RefreshIcon size={16} />}
                onClick={() => countries.refetch()}
              >
                Réessayer
              </Button>
            }
          >
            {COUNTRIES_ERROR}
          </Alert>
        ) : (
          <Select
            ref={countryRef}
            label="Pays"
            name="country_id"
            value={countryId ?? ''}
            error={countryError}
            disabled={disabled || countries.isPending}
            aria-busy={countries.isPending || undefined}
            onBlur={onCountryBlur}
            onChange={(event) => {
              const next = event.target.value ? Number(event.target.value) : null;
              setSearch('');
              onCountryChange(next);
              onCityChange(null);
            }}
          >
            <option value="">{countries.isPending ? 'Chargement des pays…' : 'Sélectionnez un pays'}</option>
            {countries.data?.map((country) => (
              <option key={country.id} value={country.id}>
                {country.nom_fr_fr}
              </option>
            ))}
          </Select>
        )}
      </div>

      {countryId ? (
        cities.isError ? (
          <div className="sm:col-span-2">
            <Alert
              tone="error"
              action={
                <Button
                  size="sm"
                  variant="outline"
                  leftIcon={<RefreshIcon size={16} />}
                  onClick={() => cities.refetch()}
                >
                  Réessayer
                </Button>
              }
            >
              {CITIES_ERROR}
            </Alert>
          </div>
        ) : (
          <>
            <Input
              id={searchId}
              label="Rechercher une ville"
              type="search"
              name="city_search"
              autoComplete="off"
              placeholder="Ex. : Libreville"
              value={search}
              disabled={disabled || cities.isPending}
              error={tooShort ? messages.locations.searchMin : undefined}
              hint={
                term.length >= CITY_SEARCH_MIN
                  ? `${filtered.length} ville${filtered.length > 1 ? 's' : ''} trouvée${filtered.length > 1 ? 's' : ''}`
                  : 'Tapez au moins 2 lettres pour filtrer la liste.'
              }
              onChange={(event) => setSearch(event.target.value)}
            />
            <Select
              ref={cityRef}
              label="Ville"
              name="city_id"
              value={cityId ?? ''}
              error={cityError}
              disabled={disabled || cities.isPending}
              aria-busy={cities.isPending || undefined}
              onBlur={onCityBlur}
              onChange={(event) => onCityChange(event.target.value ? Number(event.target.value) : null)}
            >
              <option value="">
                {cities.isPending
                  ? 'Chargement des villes…'
                  : shown.length === 0
                    ? 'Aucune ville trouvée'
                    : 'Sélectionnez une ville'}
              </option>
              {hasProvinces
                ? groups.map((province) => (
                    <optgroup key={province.name} label={province.name}>
                      {province.cities.map((city) => (
                        <option key={city.id} value={city.id}>
                          {city.name}
                        </option>
                      ))}
                    </optgroup>
                  ))
                : shown.map((city) => (
                    <option key={city.id} value={city.id}>
                      {city.name}
                    </option>
                  ))}
            </Select>
          </>
        )
      ) : null}
    </div>
  );
}
