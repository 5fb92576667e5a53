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
  provincesResponseSchema,
} from '@cartable/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { TaxonomyRouteDeps } from './deps.ts';

const idParams = locationParamsSchema;
const tags = ['locations'];

/** Countries, provinces and towns (SPEC.md section 7 « Locations »). */
export const locationRoutes: FastifyPluginAsyncZod<TaxonomyRouteDeps> = async (app, { taxonomy }) => {
  const towns = taxonomy.towns;
  // Reference data changes rarely: let browsers and proxies keep it a while.
  app.addHook('onSend', async (request, reply) => {
    if (request.method === 'GET' && reply.statusCode === 200) reply.header('cache-control', 'public, max-age=600');
  });

  const countriesRoute = { schema: { tags, response: { 200: countriesResponseSchema } } };
  app.get('/locations/countries', countriesRoute, async () => ({ countries: await towns.countries() }));
  app.get('/countries', countriesRoute, async () => ({ countries: await towns.countries() }));

  app.get(
    '/locations/cities',
    { schema: { tags, querystring: citiesQuerySchema, response: { 200: citiesResponseSchema } } },
    async (request) => {
      const { country_id, major_only } = request.query;
      return { cities: await towns.cities({ countryId: country_id, majorOnly: major_only ? true : undefined }) };
    },
  );

  app.get(
    '/locations/countries/:id/cities',
    { schema: { tags, params: idParams, response: { 200: citiesResponseSchema } } },
    async (request) => ({ cities: await towns.citiesOfCountry(request.params.id) }),
  );

  app.get(
    '/locations/cities/search',
    { schema: { tags, querystring: citySearchQuerySchema, response: { 200: citiesResponseSchema } } },
    async (request) => ({
      cities: await towns.search({ search: request.query.q, countryId: request.query.country_id }),
    }),
  );

  app.get(
    '/locations/cities/:id/details',
    { schema: { tags, params: idParams, response: { 200: cityDetailsResponseSchema } } },
    async (request) => ({ city: await towns.cityWithCountry(request.params.id) }),
  );

  app.get(
    '/cities',
    { schema: { tags, querystring: cityPageQuerySchema, response: { 200: cityPageSchema } } },
    async (request) => {
      const { code, country_id, search, province, major_only, is_major, per_page, page } = request.query;
      const filter = { countryCode: code, countryId: country_id, search, province, majorOnly: major_only ?? is_major };
      return towns.page(filter, per_page, page);
    },
  );

  app.get(
    '/cities/:id',
    { schema: { tags, params: idParams, response: { 200: cityResponseSchema } } },
    async (request) => ({ city: await towns.city(request.params.id) }),
  );

  app.get(
    '/countries/:id/provinces',
    { schema: { tags, params: idParams, response: { 200: provincesResponseSchema } } },
    async (request) => ({ provinces: await towns.provinces(request.params.id) }),
  );
};
