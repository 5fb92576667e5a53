import { createRequire } from 'node:module';
import { DEFAULT_COUNTRY_ID } from '@cartable/contracts';
import type { Db } from '@cartable/service-kit';
import { and, eq } from 'drizzle-orm';
import countriesLib from 'i18n-iso-countries';
import { gabonProvinces } from './gabon.ts';
import { cities, countries, provinces } from './schema.ts';

const require = createRequire(import.meta.url);
countriesLib.registerLocale(require('i18n-iso-countries/langs/fr.json'));

/** Every country with its French name (ISO 3166-1), keyed by its numeric code. */
export function countryRows() {
  const names = countriesLib.getNames('fr', { select: 'official' });
  return Object.entries(names).map(([alpha2, nomFrFr]) => ({
    id: Number(countriesLib.alpha2ToNumeric(alpha2)),
    alpha2,
    alpha3: countriesLib.alpha2ToAlpha3(alpha2) ?? alpha2,
    nomFrFr,
  }));
}

/** Reference data: countries, then Gabon's provinces and towns. Idempotent, run at every start. */
export async function seedLocations(db: Db) {
  await db.transaction(async (tx) => {
    await tx.insert(countries).values(countryRows()).onConflictDoNothing();
    for (const province of gabonProvinces) {
      await tx.insert(provinces).values({ countryId: DEFAULT_COUNTRY_ID, name: province.name }).onConflictDoNothing();
      const [row] = await tx
        .select({ id: provinces.id })
        .from(provinces)
        .where(and(eq(provinces.countryId, DEFAULT_COUNTRY_ID), eq(provinces.name, province.name)));
      if (!row) continue;
      await tx
        .insert(cities)
        .values(
          province.cities.map((c) => ({
            countryId: DEFAULT_COUNTRY_ID,
            provinceId: row.id,
            name: c.name,
            isMajor: c.major ?? false,
          })),
        )
        .onConflictDoNothing();
    }
  });
}
