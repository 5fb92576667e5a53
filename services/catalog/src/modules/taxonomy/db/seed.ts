import { createRequire } from 'node:module';
import { DEFAULT_COUNTRY_ID } from '@cartable/contracts';
import type { Db } from '@cartable/service-kit';
import { and, eq } from 'drizzle-orm';
import countriesLib from 'i18n-iso-countries';
import { gabonProvinces } from './gabon.ts';
import { categories, categoryParents, cities, countries, provinces } from './schema.ts';
import { cycles, subjects } from './school-system.ts';

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

/**
 * The school categories, on a database that has none yet (an administrator's later changes are
 * never overwritten).
 */
export async function seedCategories(db: Db) {
  await db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: categories.id }).from(categories).limit(1);
    if (existing) return;
    const ids = new Map<string, number>();
    let order = 0;
    const add = async (name: string, parents: string[]) => {
      const [row] = await tx.insert(categories).values({ name, order: order++ }).returning({ id: categories.id });
      ids.set(name, row!.id);
      const edges = parents.map((p) => ({ categoryId: row!.id, parentId: ids.get(p)! }));
      if (edges.length) await tx.insert(categoryParents).values(edges);
    };
    for (const cycle of cycles) {
      await add(cycle.name, []);
      for (const level of cycle.levels) {
        await add(level.name, [cycle.name]);
        for (const serie of level.series ?? []) await add(serie, [level.name]);
      }
    }
    for (const [subject, levels] of Object.entries(subjects)) await add(subject, levels);
  });
}
