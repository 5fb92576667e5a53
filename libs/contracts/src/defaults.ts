/**
 * SPEC.md section 9: default country (Gabon, ISO 3166-1 numeric 266) and province label. A module
 * without zod (`@cartable/contracts/defaults`), for forms drawn before their schemas are loaded.
 */
export const DEFAULT_COUNTRY_ID = 266;
export const DEFAULT_PROVINCE_LABEL = 'Gabon';
