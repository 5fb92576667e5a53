import {
  type CityImportReport,
  type cityRequestSchema,
  DEFAULT_COUNTRY_ID,
  type EventData,
  hasControlCharacters,
  messages,
  positiveId,
} from '@cartable/contracts';
import {
  conflict,
  databaseErrorCode,
  isUniqueViolation,
  notFound,
  readCsvUpload,
  type Transaction,
  type UnitOfWork,
  unprocessable,
} from '@cartable/service-kit';
import type { z } from 'zod';
import * as queries from '../db/queries.ts';
import type { TaxonomyUsage } from './usage.ts';

type CityRequest = z.output<typeof cityRequestSchema>;

const CITY_NOT_FOUND = 'Ville introuvable.';
const truthy = (v: string | undefined) => ['1', 'true', 'oui', 'yes', 'x'].includes((v ?? '').trim().toLowerCase());
const duplicate = (name: string) =>
  conflict(`La ville ${name} existe déjà dans ce pays.`, { name: [`La ville ${name} existe déjà dans ce pays.`] });

/** Thrown to roll a preview's transaction back once its report is made. */
class PreviewDone extends Error {}

const changed = (t: Transaction, ids: number[], change: EventData<'catalog.cities.changed'>['change']) =>
  t.record('catalog.cities.changed', { city_ids: ids, change, at: new Date().toISOString() });

/** Countries, provinces and towns as the API shows them (reads for everyone). */
export function townReads(uow: UnitOfWork) {
  const db = uow.db;
  async function country(id: number) {
    const row = await queries.countryById(db, id);
    if (!row) throw notFound(messages.locations.countryNotFound);
    return row;
  }
  return {
    countries: () => queries.listCountries(db),
    cities: (filter: queries.CityFilter) => queries.findCities(db, filter),
    citiesOfCountry: async (countryId: number) => {
      await country(countryId);
      return queries.findCities(db, { countryId });
    },
    /** At most 50, by name. */
    search: async (filter: queries.CityFilter) => (await queries.findCities(db, filter)).slice(0, 50),
    async page(filter: queries.CityFilter, perPage: number, page: number) {
      const [total, data] = await Promise.all([
        queries.countCities(db, filter),
        queries.findCities(db, filter, { limit: perPage, offset: (page - 1) * perPage }),
      ]);
      return { data, total, per_page: perPage, current_page: page, last_page: Math.max(1, Math.ceil(total / perPage)) };
    },
    async city(id: number) {
      const city = await queries.cityById(db, id);
      if (!city) throw notFound(CITY_NOT_FOUND);
      return city;
    },
    async cityWithCountry(id: number) {
      const city = await queries.cityById(db, id);
      if (!city) throw notFound(CITY_NOT_FOUND);
      return { ...city, country: (await queries.countryById(db, city.country_id)) ?? null };
    },
    provinces: async (countryId: number) => {
      await country(countryId);
      return queries.provincesOf(db, countryId);
    },
  };
}

/** Town management and the CSV import (SPEC.md section 7), for holders of cities.manage. */
export function townAdmin(uow: UnitOfWork, usage: TaxonomyUsage) {
  const db = uow.db;
  async function assertCountry(id: number) {
    if (!(await queries.countryById(db, id))) throw unprocessable({ country_id: [messages.locations.countryNotFound] });
  }
  const values = async (t: Transaction, body: CityRequest) => ({
    name: body.name,
    countryId: body.country_id,
    provinceId: await queries.provinceId(t.db, body.country_id, body.province),
    isMajor: body.is_major,
  });

  return {
    /** The back office's list: GET /cities' filters, with what uses each town. */
    async page(filter: queries.CityFilter, perPage: number, page: number) {
      const [total, rows] = await Promise.all([
        queries.countCities(db, filter),
        queries.findCities(db, filter, { limit: perPage, offset: (page - 1) * perPage }),
      ]);
      const placed = await usage.placedInTowns(
        db,
        rows.map((r) => r.id),
      );
      return {
        data: rows.map((r) => ({
          ...r,
          books_count: placed.get(r.id)?.listings ?? 0,
          members_count: placed.get(r.id)?.members ?? 0,
        })),
        meta: { current_page: page, last_page: Math.max(1, Math.ceil(total / perPage)), total, per_page: perPage },
      };
    },

    async create(body: CityRequest) {
      await assertCountry(body.country_id);
      const id = await uow.run(async (t) => {
        const created = await queries.insertCity(t.db, await values(t, body));
        if (created === null) throw duplicate(body.name);
        await changed(t, [created], 'created');
        return created;
      });
      return (await queries.cityById(db, id))!;
    },

    async update(id: number, body: CityRequest) {
      if (!(await queries.cityById(db, id))) throw notFound(CITY_NOT_FOUND);
      await assertCountry(body.country_id);
      try {
        await uow.run(async (t) => {
          await queries.updateCity(t.db, id, await values(t, body));
          await changed(t, [id], 'updated');
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw duplicate(body.name);
        throw err;
      }
      return (await queries.cityById(db, id))!;
    },

    /** Refused while listings or members are placed there. */
    async remove(id: number) {
      const city = await queries.cityById(db, id);
      if (!city) throw notFound(CITY_NOT_FOUND);
      const placed = (await usage.placedInTowns(db, [id])).get(id);
      const uses = [
        placed?.listings ? `${placed.listings} annonce${placed.listings > 1 ? 's' : ''}` : null,
        placed?.members ? `${placed.members} membre${placed.members > 1 ? 's' : ''}` : null,
      ].filter((u) => u !== null);
      if (uses.length)
        throw conflict(`Impossible de supprimer ${city.name} : la ville est utilisée par ${uses.join(' et ')}.`);
      try {
        await uow.run(async (t) => {
          await queries.deleteCity(t.db, id);
          await changed(t, [id], 'deleted');
        });
      } catch (err) {
        // A listing placed there between the count and the delete (the foreign key refuses).
        if (databaseErrorCode(err) === '23503')
          throw conflict(`Impossible de supprimer ${city.name} : la ville est utilisée.`);
        throw err;
      }
    },

    /**
     * CSV with columns name, province, is_major (a header line is optional). A preview (dryRun)
     * runs the same checks in a transaction rolled back, so its report says exactly what the
     * import would do (duplicates in the database included) and writes nothing.
     */
    async importCsv(csv: Buffer, countryField: string | undefined, dryRun: boolean): Promise<CityImportReport> {
      const country = positiveId('Pays invalide').safeParse(countryField || DEFAULT_COUNTRY_ID);
      if (!country.success) throw unprocessable({ country_id: ['Pays invalide'] });
      const countryId = country.data;
      await assertCountry(countryId);
      const file = readCsvUpload(csv, { maxRecordSize: 10_000 });
      const hasHeader = ['name', 'nom', 'ville'].includes((file.records[0]?.record[0] ?? '').toLowerCase());
      const toImport: CityImportReport['to_import'] = [];
      const seen = new Set<string>();
      try {
        await uow.run(async (t) => {
          const created: number[] = [];
          for (const [index, { line, record }] of file.records.entries()) {
            if (hasHeader && index === 0) continue;
            const [name = '', province = '', major] = record;
            const reasons: string[] = [];
            if (record.some((field) => hasControlCharacters(field)))
              reasons.push('Caractère non autorisé (caractère nul ou de contrôle)');
            if (name.length < 2) reasons.push('Nom de ville manquant ou trop court');
            if (name.length > 80) reasons.push('Nom de ville trop long (80 caractères au plus)');
            if (province.length > 80) reasons.push('Nom de province trop long (80 caractères au plus)');
            const key = name.toLowerCase();
            if (name.length >= 2 && seen.has(key)) reasons.push(`${name} apparaît deux fois dans le fichier`);
            if (reasons.length) {
              file.refuse(line, reasons);
              continue;
            }
            seen.add(key);
            const id = await queries.insertCity(t.db, {
              name,
              countryId,
              provinceId: await queries.provinceId(t.db, countryId, province || null),
              isMajor: truthy(major),
            });
            if (id === null) {
              file.refuse(line, [`${name} existe déjà`]);
              continue;
            }
            created.push(id);
            toImport.push({ line, name, province: province || null, is_major: truthy(major) });
          }
          if (dryRun) throw new PreviewDone();
          if (created.length) await changed(t, created, 'imported');
        });
      } catch (err) {
        if (!(err instanceof PreviewDone)) throw err;
      }
      return { dry_run: dryRun, imported: dryRun ? 0 : toImport.length, to_import: toImport, rejected: file.refused() };
    },
  };
}
