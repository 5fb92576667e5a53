import type { City } from '@cartable/contracts';
import { describe, expect, it } from 'vitest';
import { groupByProvince } from '../src/data/locations';

const city = (id: number, name: string, province: string | null, is_major = false) =>
  ({ id, name, province, is_major }) as City;

describe('groupByProvince', () => {
  it('orders the provinces in French, the major towns first in each, and names the group of towns without one', () => {
    const groups = groupByProvince(
      [
        city(1, 'Ntoum', 'Estuaire'),
        city(2, 'Franceville', 'Haut-Ogooué', true),
        city(3, 'Libreville', 'Estuaire', true),
        city(4, 'Akanda', 'Estuaire'),
        city(5, 'Okondja', ' '),
        city(6, 'Mounana', 'Haut-Ogooué'),
        city(7, 'Éboro', null),
      ],
      'Gabon',
    );
    expect(groups.map((g) => [g.name, g.cities.map((c) => c.name)])).toEqual([
      ['Estuaire', ['Libreville', 'Akanda', 'Ntoum']],
      ['Gabon', ['Éboro', 'Okondja']],
      ['Haut-Ogooué', ['Franceville', 'Mounana']],
    ]);
    expect(groupByProvince([], 'Autres')).toEqual([]);
  });
});
