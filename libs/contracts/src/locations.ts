import { z } from 'zod';

/** SPEC.md section 9: default country (Gabon, ISO 3166-1 numeric 266) and province label. */
export const DEFAULT_COUNTRY_ID = 266;
export const DEFAULT_PROVINCE_LABEL = 'Gabon';

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
