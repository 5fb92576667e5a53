import { z } from 'zod';
import { csvImportReportSchema, positiveId, queryBool, queryInt, safeText } from './common.ts';
import { DEFAULT_COUNTRY_ID } from './defaults.ts';
import { messages } from './messages.ts';

export { DEFAULT_COUNTRY_ID, DEFAULT_PROVINCE_LABEL } from './defaults.ts';

export const countrySchema = z.object({ id: z.number().int(), nom_fr_fr: z.string(), alpha2: z.string().length(2) });
export type Country = z.infer<typeof countrySchema>;

export const citySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  province: z.string().nullable(),
  is_major: z.boolean(),
  country_id: z.number().int(),
});
export type City = z.infer<typeof citySchema>;

export const provinceSchema = z.object({ id: z.number().int(), name: z.string(), country_id: z.number().int() });

export const countriesResponseSchema = z.object({ countries: z.array(countrySchema) });
export const citiesResponseSchema = z.object({ cities: z.array(citySchema) });
export const provincesResponseSchema = z.object({ provinces: z.array(provinceSchema) });

/** GET /locations/cities/{id}/details: the city and its country. */
export const cityDetailsResponseSchema = z.object({
  city: citySchema.extend({ country: countrySchema.nullable() }),
});
export const cityResponseSchema = z.object({ city: citySchema });
/** GET /cities: a page of cities. */
export const cityPageSchema = z.object({
  data: z.array(citySchema),
  total: z.number().int(),
  per_page: z.number().int(),
  current_page: z.number().int(),
  last_page: z.number().int(),
});

/** POST and PUT /admin/cities (cities.manage). */
export const cityRequestSchema = z.object({
  name: safeText({ error: 'Le nom est obligatoire' })
    .trim()
    .min(2, 'Le nom doit contenir au moins 2 caractères')
    .max(80),
  province: safeText().trim().max(80).nullish(),
  country_id: positiveId(messages.locations.countryNotFound).default(DEFAULT_COUNTRY_ID),
  is_major: z.boolean().default(false),
});
export type CityRequest = z.input<typeof cityRequestSchema>;

/** POST /admin/cities/import (and its preview, `?dry_run=true`): the cities to add, the lines refused. */
export const cityImportResponseSchema = csvImportReportSchema(
  z.object({ line: z.number().int(), name: z.string(), province: z.string().nullable(), is_major: z.boolean() }),
);
export type CityImportReport = z.infer<typeof cityImportResponseSchema>;
export const cityImportQuerySchema = z.object({ dry_run: queryBool.default(false) });

/** GET /admin/cities: a city with the books and members placed in it (what blocks its deletion). */
export const adminCitySchema = citySchema.extend({ books_count: z.number().int(), members_count: z.number().int() });
export type AdminCity = z.infer<typeof adminCitySchema>;
export const adminCityPageSchema = z.object({
  data: z.array(adminCitySchema),
  meta: z.object({
    current_page: z.number().int(),
    last_page: z.number().int(),
    total: z.number().int(),
    per_page: z.number().int(),
  }),
});

// ── requests ────────────────────────────────────────────────────────────────────────────────

/** `{id}` of a country or a city in a path. */
export const locationParamsSchema = z.object({ id: positiveId() });
/** GET /locations/cities. */
export const citiesQuerySchema = z.object({
  country_id: positiveId().optional(),
  major_only: queryBool.optional(),
});
/** GET /locations/cities/search: accents and case ignored. */
export const citySearchQuerySchema = z.object({
  q: safeText({ error: messages.locations.searchMin }).trim().min(2, messages.locations.searchMin).max(80),
  country_id: positiveId().optional(),
});
/** GET /cities. */
export const cityPageQuerySchema = z.object({
  code: safeText().trim().length(2, 'Code pays sur 2 lettres').optional(),
  country_id: positiveId().optional(),
  search: safeText().trim().max(80).optional(),
  province: safeText().trim().max(80).optional(),
  /** Only the major towns (both spellings). */
  major_only: queryBool.optional(),
  is_major: queryBool.optional(),
  per_page: queryInt.min(1).max(500).default(100),
  page: queryInt.min(1).default(1),
});
/** GET /admin/cities (cities.manage): the same filters. */
export const adminCityListQuerySchema = cityPageQuerySchema;
