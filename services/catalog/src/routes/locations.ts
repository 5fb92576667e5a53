import {
  citiesResponseSchema,
  countriesResponseSchema,
  messages,
  provincesResponseSchema,
  queryBool,
  queryInt,
} from '@cartable/contracts';
import { notFound } from '@cartable/service-kit';
import { and, asc, eq, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { cities, countries, provinces } from '../db/schema.ts';
import type { CatalogDeps } from '../deps.ts';

const countryIdParams = z.object({ id: queryInt.positive() });

/** Countries, provinces and cities (SPEC.md section 7 "Locations"). */
export const locationRoutes: FastifyPluginAsyncZod<CatalogDeps> = async (app, { db }) => {
  const listCountries = () =>
    db
      .select({ id: countries.id, nom_fr_fr: countries.nomFrFr, alpha2: countries.alpha2 })
      .from(countries)
      .orderBy(asc(countries.nomFrFr));

  const listCities = (where: SQL | undefined) =>
    db
      .select({
        id: cities.id,
        name: cities.name,
        province: provinces.name,
        is_major: cities.isMajor,
        country_id: cities.countryId,
      })
      .from(cities)
      .leftJoin(provinces, eq(provinces.id, cities.provinceId))
      .where(where)
      .orderBy(asc(cities.name));

  async function assertCountry(id: number) {
    const [row] = await db.select({ id: countries.id }).from(countries).where(eq(countries.id, id));
    if (!row) throw notFound(messages.locations.countryNotFound);
  }

  // Reference data changes rarely: let browsers and proxies keep it a while.
  app.addHook('onSend', async (request, reply) => {
    if (request.method === 'GET' && reply.statusCode === 200) reply.header('cache-control', 'public, max-age=600');
  });

  const countriesRoute = { schema: { response: { 200: countriesResponseSchema } } };
  app.get('/locations/countries', countriesRoute, async () => ({ countries: await listCountries() }));
  app.get('/countries', countriesRoute, async () => ({ countries: await listCountries() }));

  app.get(
    '/locations/cities',
    {
      schema: {
        querystring: z.object({ country_id: queryInt.positive().optional(), major_only: queryBool.optional() }),
        response: { 200: citiesResponseSchema },
      },
    },
    async (request) => {
      const { country_id, major_only } = request.query;
      const filters = [
        country_id ? eq(cities.countryId, country_id) : undefined,
        major_only ? eq(cities.isMajor, true) : undefined,
      ];
      return { cities: await listCities(and(...filters)) };
    },
  );

  app.get(
    '/locations/countries/:id/cities',
    { schema: { params: countryIdParams, response: { 200: citiesResponseSchema } } },
    async (request) => {
      await assertCountry(request.params.id);
      return { cities: await listCities(eq(cities.countryId, request.params.id)) };
    },
  );

  app.get(
    '/countries/:id/provinces',
    { schema: { params: countryIdParams, response: { 200: provincesResponseSchema } } },
    async (request) => {
      await assertCountry(request.params.id);
      const rows = await db
        .select({ id: provinces.id, name: provinces.name, country_id: provinces.countryId })
        .from(provinces)
        .where(eq(provinces.countryId, request.params.id))
        .orderBy(asc(provinces.name));
      return { provinces: rows };
    },
  );
};
