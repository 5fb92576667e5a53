import { describe, expect, it } from 'vitest';
import { gabonProvinces } from '../../../services/catalog/src/modules/taxonomy/index.ts';
import { compareFrench } from '../src/collate';

const collator = new Intl.Collator('fr', { sensitivity: 'base' });
const sign = (n: number) => Math.sign(n);

describe('compareFrench', () => {
  it("puts Gabon's provinces and towns in Intl.Collator's order", () => {
    const names = gabonProvinces.flatMap((province) => [province.name, ...province.cities.map((city) => city.name)]);
    expect(names.length).toBeGreaterThan(40);
    expect([...names].sort(compareFrench)).toEqual([...names].sort(collator.compare));
    for (const a of names)
      for (const b of names) expect(sign(compareFrench(a, b)), `${a} / ${b}`).toBe(sign(collator.compare(a, b)));
  });

  it('ignores accents and case, and orders spaces and hyphens before letters', () => {
    const words = [
      'Lébamba',
      'lebamba',
      'Léconi',
      'Lekoni',
      'Oyem',
      'Ôyem',
      'Port-Gentil',
      'Port Gentil',
      'Portgentil',
      'Œuvre',
      'oeuvre',
      'Ovan',
      'Éducation',
      'Ecole',
      'cœur',
      'Coeur',
      'Ça',
      'Cb',
    ];
    for (const a of words)
      for (const b of words) expect(sign(compareFrench(a, b)), `${a} / ${b}`).toBe(sign(collator.compare(a, b)));
  });
});
