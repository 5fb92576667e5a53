import { Select, type SelectProps } from '@cartable/ui';
import { useMemo } from 'react';
import { type City, gabonProvinces } from '../cities';

export interface CitySelectProps extends Omit<SelectProps, 'children'> {
  cities: City[] | undefined;
  /** Label of the empty choice ("Toutes les villes", "Choisissez une ville"). */
  emptyLabel: string;
}

/** Native select of cities grouped by province (the best picker on phones). */
export function CitySelect({ cities, emptyLabel, ...props }: CitySelectProps) {
  const provinces = useMemo(() => gabonProvinces(cities ?? []), [cities]);
  return (
    <Select {...props}>
      <option value="">{cities ? emptyLabel : 'Chargement des villes…'}</option>
      {provinces.map((province) => (
        <optgroup key={province.name} label={province.name}>
          {province.cities.map((city) => (
            <option key={city.id} value={city.id}>
              {city.name}
            </option>
          ))}
        </optgroup>
      ))}
    </Select>
  );
}
