import type { BannerFields } from '@cartable/contracts';
import type { Db } from '@cartable/service-kit';
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { banners, categories, categoryParents, cities, countries, provinces } from './schema.ts';

// ── categories ───────────────────────────────────────────────────────────────────────────────

/** Every category and every parent link: the graph is built from these. */
export async function readCategoryGraph(db: Db) {
  const [nodes, edges] = await Promise.all([
    db.select({ id: categories.id, name: categories.name, order: categories.order }).from(categories),
    db.select({ categoryId: categoryParents.categoryId, parentId: categoryParents.parentId }).from(categoryParents),
  ]);
  return { nodes, edges };
}

export async function insertCategory(db: Db, values: { name: string; order: number; parentId: number | null }) {
  const [created] = await db
    .insert(categories)
    .values({ name: values.name, order: values.order })
    .returning({ id: categories.id });
  if (values.parentId) await db.insert(categoryParents).values({ categoryId: created!.id, parentId: values.parentId });
  return created!.id;
}

export async function updateCategory(db: Db, id: number, values: { name: string; order?: number | undefined }) {
  await db
    .update(categories)
    .set({ name: values.name, ...(values.order !== undefined ? { order: values.order } : {}) })
    .where(eq(categories.id, id));
}

export async function deleteCategory(db: Db, id: number) {
  await db.delete(categories).where(eq(categories.id, id));
}

export async function setCategoryOrder(db: Db, order: ReadonlyArray<{ id: number; order: number }>) {
  for (const item of order) await db.update(categories).set({ order: item.order }).where(eq(categories.id, item.id));
}

/** Leaves every parent for `parentId` (or none: a root). */
export async function setOnlyParent(db: Db, id: number, parentId: number | null) {
  await db.delete(categoryParents).where(eq(categoryParents.categoryId, id));
  if (parentId !== null) await db.insert(categoryParents).values({ categoryId: id, parentId });
}

export async function addParent(db: Db, id: number, parentId: number) {
  await db.insert(categoryParents).values({ categoryId: id, parentId }).onConflictDoNothing();
}

/** Whether the link existed. */
export async function removeParent(db: Db, id: number, parentId: number) {
  const removed = await db
    .delete(categoryParents)
    .where(and(eq(categoryParents.categoryId, id), eq(categoryParents.parentId, parentId)))
    .returning();
  return removed.length > 0;
}

// ── countries, provinces, towns ──────────────────────────────────────────────────────────────

export const listCountries = (db: Db) =>
  db
    .select({ id: countries.id, nom_fr_fr: countries.nomFrFr, alpha2: countries.alpha2 })
    .from(countries)
    .orderBy(asc(countries.nomFrFr));

export async function countryById(db: Db, id: number) {
  const [row] = await db
    .select({ id: countries.id, nom_fr_fr: countries.nomFrFr, alpha2: countries.alpha2 })
    .from(countries)
    .where(eq(countries.id, id));
  return row;
}

/** What a town filter may hold (GET /cities and the back office's list). */
export interface CityFilter {
  countryId?: number | undefined;
  countryCode?: string | undefined;
  search?: string | undefined;
  province?: string | undefined;
  majorOnly?: boolean | undefined;
  ids?: number[] | undefined;
}

/** Accents and case ignored: « lambarene » finds Lambaréné. */
const nameContains = (text: string) =>
  sql`cartable_unaccent(lower(${cities.name})) like '%' || cartable_unaccent(lower(${text})) || '%'`;

function cityConditions(filter: CityFilter): SQL | undefined {
  return and(
    filter.countryId ? eq(cities.countryId, filter.countryId) : undefined,
    filter.countryCode
      ? sql`${cities.countryId} = (select ${countries.id} from ${countries} where ${countries.alpha2} = upper(${filter.countryCode}))`
      : undefined,
    filter.search ? nameContains(filter.search) : undefined,
    filter.province
      ? sql`cartable_unaccent(lower(${provinces.name})) = cartable_unaccent(lower(${filter.province}))`
      : undefined,
    filter.majorOnly !== undefined ? eq(cities.isMajor, filter.majorOnly) : undefined,
    filter.ids ? inArray(cities.id, filter.ids) : undefined,
  );
}

const cityColumns = {
  id: cities.id,
  name: cities.name,
  province: provinces.name,
  is_major: cities.isMajor,
  country_id: cities.countryId,
};

/** Towns by name, with their province. */
export const findCities = (db: Db, filter: CityFilter, page?: { limit: number; offset: number }) => {
  const query = db
    .select(cityColumns)
    .from(cities)
    .leftJoin(provinces, eq(provinces.id, cities.provinceId))
    .where(cityConditions(filter))
    .orderBy(asc(cities.name), asc(cities.id));
  return page ? query.limit(page.limit).offset(page.offset) : query;
};

export async function countCities(db: Db, filter: CityFilter) {
  const [row] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(cities)
    .leftJoin(provinces, eq(provinces.id, cities.provinceId))
    .where(cityConditions(filter));
  return row?.total ?? 0;
}

export async function cityById(db: Db, id: number) {
  const [row] = await findCities(db, { ids: [id] });
  return row;
}

export const provincesOf = (db: Db, countryId: number) =>
  db
    .select({ id: provinces.id, name: provinces.name, country_id: provinces.countryId })
    .from(provinces)
    .where(eq(provinces.countryId, countryId))
    .orderBy(asc(provinces.name));

/** The province of that name in the country, created when it is new; null for no name. */
export async function provinceId(db: Db, countryId: number, name: string | null | undefined) {
  if (!name) return null;
  await db.insert(provinces).values({ countryId, name }).onConflictDoNothing();
  const [row] = await db
    .select({ id: provinces.id })
    .from(provinces)
    .where(and(eq(provinces.countryId, countryId), eq(provinces.name, name)));
  return row?.id ?? null;
}

export interface CityValues {
  name: string;
  countryId: number;
  provinceId: number | null;
  isMajor: boolean;
}

/** The new town's id, or null when the country already has one of that name. */
export async function insertCity(db: Db, values: CityValues) {
  const [row] = await db.insert(cities).values(values).onConflictDoNothing().returning({ id: cities.id });
  return row?.id ?? null;
}

export async function updateCity(db: Db, id: number, values: CityValues) {
  await db.update(cities).set(values).where(eq(cities.id, id));
}

export async function deleteCity(db: Db, id: number) {
  await db.delete(cities).where(eq(cities.id, id));
}

/** Which of these ids are towns. */
export async function existingCityIds(db: Db, ids: number[]) {
  if (!ids.length) return [];
  const rows = await db.select({ id: cities.id }).from(cities).where(inArray(cities.id, ids));
  return rows.map((r) => r.id);
}

/**
 * Towns as other modules join them in their own statements: id, name, province_id,
 * province_name. The planner pulls this subquery up into the caller's joins, so reading a town
 * through it costs what joining the tables would.
 */
export const townRelation = sql`(select c.id, c.name, c.province_id, p.name as province_name, c.country_id
  from ${cities} c left join ${provinces} p on p.id = c.province_id)`;

/** The same, for drizzle's query builder (a subquery with typed columns). */
export const townsSubquery = (db: Db, alias: string) =>
  db
    .select({
      id: cities.id,
      name: sql<string>`${cities.name}`.as(`${alias}_name`),
      provinceId: cities.provinceId,
      provinceName: sql<string | null>`${provinces.name}`.as(`${alias}_province_name`),
    })
    .from(cities)
    .leftJoin(provinces, eq(provinces.id, cities.provinceId))
    .as(alias);

/** Towns' names by id (for screens that show a few). */
export async function townNames(db: Db, ids: number[]) {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map<number, { name: string; province: string | null; provinceId: number | null }>();
  const rows = await db
    .select({ id: cities.id, name: cities.name, province: provinces.name, provinceId: cities.provinceId })
    .from(cities)
    .leftJoin(provinces, eq(provinces.id, cities.provinceId))
    .where(inArray(cities.id, unique));
  return new Map(rows.map((r) => [r.id, { name: r.name, province: r.province, provinceId: r.provinceId }]));
}

// ── banners ──────────────────────────────────────────────────────────────────────────────────

export type BannerRow = typeof banners.$inferSelect;

export const bannerValues = (f: BannerFields) => ({
  title: f.title,
  subtitle: f.subtitle ?? null,
  buttonText: f.button_text ?? null,
  buttonLink: f.button_link ?? null,
  color: f.color,
  order: f.order,
  isActive: f.is_active,
});

export const listBanners = (db: Db, onlyActive: boolean) =>
  db
    .select()
    .from(banners)
    .where(onlyActive ? eq(banners.isActive, true) : undefined)
    .orderBy(asc(banners.order), asc(banners.id));

export async function bannerById(db: Db, id: number) {
  const [row] = await db.select().from(banners).where(eq(banners.id, id));
  return row;
}

export async function insertBanner(db: Db, fields: BannerFields, imageKey: string | null) {
  const [row] = await db
    .insert(banners)
    .values({ ...bannerValues(fields), imageKey })
    .returning();
  return row!;
}

export async function updateBanner(db: Db, id: number, fields: BannerFields, imageKey: string | null) {
  const [row] = await db
    .update(banners)
    .set({ ...bannerValues(fields), imageKey })
    .where(eq(banners.id, id))
    .returning();
  return row;
}

export async function deleteBanner(db: Db, id: number) {
  const [row] = await db.delete(banners).where(eq(banners.id, id)).returning();
  return row;
}

export async function setBannerOrder(db: Db, order: ReadonlyArray<{ id: number; order: number }>) {
  await db.transaction(async (tx) => {
    for (const b of order) await tx.update(banners).set({ order: b.order }).where(eq(banners.id, b.id));
  });
}

/** Which of these ids are categories. */
export async function existingCategoryIds(db: Db, ids: number[]) {
  if (!ids.length) return [];
  const rows = await db.select({ id: categories.id }).from(categories).where(inArray(categories.id, ids));
  return rows.map((r) => r.id);
}

/** Categories as other modules join them in their own statements: id, name, order. */
export const categoryRelation = sql`(select id, name, "order" from ${categories})`;

/** The same for drizzle's query builder. */
export const categoriesSubquery = (db: Db, alias: string) =>
  db.select({ id: categories.id, name: categories.name, order: categories.order }).from(categories).as(alias);

/** Every category's id by its name (the seeds hang their data on names). */
export async function categoryIdsByName(db: Db) {
  const rows = await db.select({ id: categories.id, name: categories.name }).from(categories);
  return new Map(rows.map((c) => [c.name, c.id]));
}

/** A town's id by its name, if there is one. */
export async function cityIdByName(db: Db, name: string) {
  const [city] = await db.select({ id: cities.id }).from(cities).where(eq(cities.name, name));
  return city?.id ?? null;
}

/** Provinces' names by id. */
export async function provinceNames(db: Db, ids: number[]) {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map<number, string>();
  const rows = await db
    .select({ id: provinces.id, name: provinces.name })
    .from(provinces)
    .where(inArray(provinces.id, unique));
  return new Map(rows.map((r) => [r.id, r.name]));
}
