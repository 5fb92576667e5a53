import {
  citiesQuerySchema,
  citiesResponseSchema,
  cityDetailsResponseSchema,
  cityPageQuerySchema,
  cityPageSchema,
  cityResponseSchema,
  citySearchQuerySchema,
  countriesResponseSchema,
  locationParamsSchema,
  messages,
  provincesResponseSchema,
} from '@cartable/contracts';
import { notFound } from '@cartable/service-kit';
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { cities, countries, provinces } from '../db/schema.ts';
import type { CatalogDeps } from '../deps.ts';

const countryIdParams = locationParamsSchema;
const tags = ['locations'];

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

  const countriesRoute = { schema: { tags, response: { 200: countriesResponseSchema } } };
  app.get('/locations/countries', countriesRoute, async () => ({ countries: await listCountries() }));
  app.get('/countries', countriesRoute, async () => ({ countries: await listCountries() }));

  app.get(
    '/locations/cities',
    {
      schema: { tags, querystring: citiesQuerySchema, response: { 200: citiesResponseSchema } },
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
    { schema: { tags, params: countryIdParams, response: { 200: citiesResponseSchema } } },
    async (request) => {
      await assertCountry(request.params.id);
      return { cities: await listCities(eq(cities.countryId, request.params.id)) };
    },
  );

  app.get(
    '/locations/cities/search',
    {
      schema: { tags, querystring: citySearchQuerySchema, response: { 200: citiesResponseSchema } },
    },
    async (request) => {
      const { q, country_id } = request.query;
      // Accents and case ignored: « lambarene » finds Lambaréné.
      const match = sql`cartable_unaccent(lower(${cities.name})) like '%' || cartable_unaccent(lower(${q})) || '%'`;
      const rows = await listCities(and(match, country_id ? eq(cities.countryId, country_id) : undefined));
      return { cities: rows.slice(0, 50) };
    },
  );

  app.get(
    '/locations/cities/:id/details',
    { schema: { tags, params: countryIdParams, response: { 200: cityDetailsResponseSchema } } },
    async (request) => {
      const [city] = await listCities(eq(cities.id, request.params.id));
      if (!city) throw notFound('Ville introuvable.');
      const [country] = await db
        .select({ id: countries.id, nom_fr_fr: countries.nomFrFr, alpha2: countries.alpha2 })
        .from(countries)
        .where(eq(countries.id, city.country_id));
      return { city: { ...city, country: country ?? null } };
    },
  );

  app.get(
    '/cities',
    {
      schema: { tags, querystring: cityPageQuerySchema, response: { 200: cityPageSchema } },
    },
    async (request) => {
      const { code, country_id, search, province, major_only, is_major, per_page, page } = request.query;
      const majorOnly = major_only ?? is_major;
      const where = and(
        country_id ? eq(cities.countryId, country_id) : undefined,
        code ? sql`${cities.countryId} = (select id from countries where alpha2 = upper(${code}))` : undefined,
        search
          ? sql`cartable_unaccent(lower(${cities.name})) like '%' || cartable_unaccent(lower(${search})) || '%'`
          : undefined,
        province ? sql`cartable_unaccent(lower(${provinces.name})) = cartable_unaccent(lower(${province}))` : undefined,
        majorOnly !== undefined ? eq(cities.isMajor, majorOnly) : undefined,
      );
      const [{ total } = { total: 0 }] = await db
        .select({ total: sql<number>`count(*)::int` })
        .from(cities)
        .leftJoin(provinces, eq(provinces.id, cities.provinceId))
        .where(where);
      const rows = await listCities(where)
        .limit(per_page)
        .offset((page - 1) * per_page);
      return { data: rows, total, per_page, current_page: page, last_page: Math.max(1, Math.ceil(total / per_page)) };
    },
  );

  app.get(
    '/cities/:id',
    { schema: { tags, params: countryIdParams, response: { 200: cityResponseSchema } } },
    async (request) => {
      const [city] = await listCities(eq(cities.id, request.params.id));
      if (!city) throw notFound('Ville introuvable.');
      return { city };
    },
  );

  app.get(
    '/countries/:id/provinces',
    { schema: { tags, params: countryIdParams, response: { 200: provincesResponseSchema } } },
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
