import {
  adminCityListQuerySchema,
  adminCityPageSchema,
  type CityImportReport,
  cityImportQuerySchema,
  cityImportResponseSchema,
  cityRequestSchema,
  cityResponseSchema,
  DEFAULT_COUNTRY_ID,
  hasControlCharacters,
  idParamsSchema,
  messageResponseSchema,
  messages,
  positiveId,
} from '@cartable/contracts';
import {
  conflict,
  type Db,
  databaseErrorCode,
  isUniqueViolation,
  notFound,
  unprocessable,
} from '@cartable/service-kit';
import multipart from '@fastify/multipart';
import { type CsvError, parse } from 'csv-parse/sync';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { books, cities, countries, provinces, sellers } from '../db/schema.ts';
import type { CatalogDeps } from '../deps.ts';

const idParams = idParamsSchema;
const cityBody = cityRequestSchema;
const tags = ['locations'];
const security = [{ bearer: [] }];
const MAX_IMPORT_BYTES = 2 * 1024 * 1024;
const truthy = (v: string | undefined) => ['1', 'true', 'oui', 'yes', 'x'].includes((v ?? '').trim().toLowerCase());

/** csv-parse's complaints, in French, for the line they are about. */
const csvReasons: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'Guillemet ouvert mais jamais fermé',
  CSV_INVALID_CLOSING_QUOTE: 'Guillemet mal placé dans un champ',
  CSV_MAX_RECORD_SIZE: 'Ligne trop longue',
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: 'Caractère inattendu après un guillemet fermant',
};
const csvReason = (err: CsvError | undefined) => (err && csvReasons[err.code]) ?? 'Ligne illisible';

interface CsvLine {
  line: number;
  record: string[];
}
type Rejected = CityImportReport['rejected'][number];
const refusal = (line: number, content: string, reasons: string[]): Rejected => ({
  line,
  content,
  reason: reasons[0] ?? 'Ligne refusée',
  reasons,
});

/** A line of the file as the report shows it: 300 characters at most, control characters as �. */
const shown = (line: string) => [...line.slice(0, 300)].map((c) => (hasControlCharacters(c) ? '\uFFFD' : c)).join('');

/** Thrown to roll a preview's transaction back once its report is made. */
class PreviewDone extends Error {}

/**
 * The lines of an uploaded CSV (`,` or `;`, UTF-8, a BOM allowed), each with its line number;
 * a line csv-parse cannot read is rejected with its French reason and the others go on. A file
 * that is not UTF-8 text (a photo sent as csv_file) is a 422.
 */
function readCsv(bytes: Buffer, rejected: Rejected[]): { lines: CsvLine[]; source: string[] } {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    throw unprocessable({ csv_file: ["Ce fichier n'est pas un CSV : un fichier texte (UTF-8) est attendu."] });
  }
  const source = text.split(/\r?\n/);
  const content = (line: number) => shown(source[line - 1] ?? '');
  const delimiter = (source[0] ?? '').includes(';') ? ';' : ',';
  try {
    const rows = parse(text, {
      delimiter,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
      info: true,
      max_record_size: 10_000,
      skip_records_with_error: true,
      on_skip: (err) => {
        const line = Number(err?.lines) || 0;
        rejected.push(refusal(line, content(line), [csvReason(err)]));
        return undefined;
      },
    }) as unknown as Array<{ record: string[]; info: { lines: number } }>;
    return { lines: rows.map(({ record, info }) => ({ line: info.lines, record })), source };
  } catch (err) {
    // What csv-parse cannot skip (a quote left open at the end of the file): the whole file.
    const line = Number((err as CsvError).lines) || 0;
    const where = line ? ` (ligne ${line})` : '';
    throw unprocessable({ csv_file: [`Fichier CSV illisible${where} : ${csvReason(err as CsvError).toLowerCase()}.`] });
  }
}

async function provinceId(tx: Db, countryId: number, name: string | null | undefined) {
  if (!name) return null;
  await tx.insert(provinces).values({ countryId, name }).onConflictDoNothing();
  const [row] = await tx
    .select({ id: provinces.id })
    .from(provinces)
    .where(and(eq(provinces.countryId, countryId), eq(provinces.name, name)));
  return row?.id ?? null;
}

async function assertCountry(db: Db, id: number) {
  const [row] = await db.select({ id: countries.id }).from(countries).where(eq(countries.id, id));
  if (!row) throw unprocessable({ country_id: [messages.locations.countryNotFound] });
}

/** City management and the CSV import (SPEC.md section 7), for holders of cities.manage. */
export const adminCityRoutes: FastifyPluginAsyncZod<CatalogDeps> = async (app, { db, guards }) => {
  await app.register(multipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: MAX_IMPORT_BYTES, files: 1, fields: 5 },
  });
  const allowed = { preHandler: guards.requirePermission('cities.manage') };
  const duplicate = (name: string) =>
    conflict(`La ville ${name} existe déjà dans ce pays.`, { name: [`La ville ${name} existe déjà dans ce pays.`] });

  async function cityDto(id: number) {
    const [row] = await db
      .select({
        id: cities.id,
        name: cities.name,
        province: provinces.name,
        is_major: cities.isMajor,
        country_id: cities.countryId,
      })
      .from(cities)
      .leftJoin(provinces, eq(provinces.id, cities.provinceId))
      .where(eq(cities.id, id));
    return row;
  }

  /** Listings and members (sellers projection, deleted accounts aside) placed in each city. */
  async function usageOf(ids: number[]) {
    if (!ids.length) return [];
    const [bookCounts, memberCounts] = await Promise.all([
      db
        .select({ cityId: books.cityId, n: sql<number>`count(*)::int` })
        .from(books)
        .where(inArray(books.cityId, ids))
        .groupBy(books.cityId),
      db
        .select({ cityId: sellers.cityId, n: sql<number>`count(*)::int` })
        .from(sellers)
        .where(and(inArray(sellers.cityId, ids), isNull(sellers.deletedAt)))
        .groupBy(sellers.cityId),
    ]);
    return ids.map((id) => ({
      id,
      books: bookCounts.find((c) => c.cityId === id)?.n ?? 0,
      members: memberCounts.find((c) => c.cityId === id)?.n ?? 0,
    }));
  }

  /** The back office's list: GET /cities' filters, never cached, with what uses each city. */
  app.get(
    '/admin/cities',
    {
      ...allowed,
      schema: { tags, security, querystring: adminCityListQuerySchema, response: { 200: adminCityPageSchema } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
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
      const [[counted], rows] = await Promise.all([
        db
          .select({ total: sql<number>`count(*)::int` })
          .from(cities)
          .leftJoin(provinces, eq(provinces.id, cities.provinceId))
          .where(where),
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
          .orderBy(asc(cities.name), asc(cities.id))
          .limit(per_page)
          .offset((page - 1) * per_page),
      ]);
      const usage = await usageOf(rows.map((r) => r.id));
      const total = counted?.total ?? 0;
      return {
        data: rows.map((r, i) => ({ ...r, books_count: usage[i]!.books, members_count: usage[i]!.members })),
        meta: { current_page: page, last_page: Math.max(1, Math.ceil(total / per_page)), total, per_page },
      };
    },
  );

  app.post(
    '/admin/cities',
    { ...allowed, schema: { tags, security, body: cityBody, response: { 201: cityResponseSchema } } },
    async (request, reply) => {
      const body = request.body;
      await assertCountry(db, body.country_id);
      const id = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(cities)
          .values({
            name: body.name,
            countryId: body.country_id,
            provinceId: await provinceId(tx, body.country_id, body.province),
            isMajor: body.is_major,
          })
          .onConflictDoNothing()
          .returning({ id: cities.id });
        if (!row) throw duplicate(body.name);
        return row.id;
      });
      return reply.status(201).send({ city: (await cityDto(id))! });
    },
  );

  app.put(
    '/admin/cities/:id',
    {
      ...allowed,
      schema: { tags, security, params: idParams, body: cityBody, response: { 200: cityResponseSchema } },
    },
    async (request) => {
      const body = request.body;
      if (!(await cityDto(request.params.id))) throw notFound('Ville introuvable.');
      await assertCountry(db, body.country_id);
      try {
        await db.transaction(async (tx) => {
          await tx
            .update(cities)
            .set({
              name: body.name,
              countryId: body.country_id,
              provinceId: await provinceId(tx, body.country_id, body.province),
              isMajor: body.is_major,
            })
            .where(eq(cities.id, request.params.id));
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw duplicate(body.name);
        throw err;
      }
      return { city: (await cityDto(request.params.id))! };
    },
  );

  app.delete(
    '/admin/cities/:id',
    { ...allowed, schema: { tags, security, params: idParams, response: { 200: messageResponseSchema } } },
    async (request) => {
      const city = await cityDto(request.params.id);
      if (!city) throw notFound('Ville introuvable.');
      const [usage] = await usageOf([city.id]);
      const uses = [
        usage?.books ? `${usage.books} annonce${usage.books > 1 ? 's' : ''}` : null,
        usage?.members ? `${usage.members} membre${usage.members > 1 ? 's' : ''}` : null,
      ].filter((u) => u !== null);
      if (uses.length)
        throw conflict(`Impossible de supprimer ${city.name} : la ville est utilisée par ${uses.join(' et ')}.`);
      try {
        await db.delete(cities).where(eq(cities.id, request.params.id));
      } catch (err) {
        // A listing placed there between the count and the delete (the foreign key refuses).
        if (databaseErrorCode(err) === '23503')
          throw conflict(`Impossible de supprimer ${city.name} : la ville est utilisée.`);
        throw err;
      }
      return { message: 'Ville supprimée avec succès' };
    },
  );

  /**
   * CSV with columns name, province, is_major (a header line is optional), UTF-8, , or ; separated.
   * `?dry_run=true` is the preview: the same checks, in a transaction rolled back, so the report
   * says exactly what the import would do (duplicates in the database included) and writes nothing.
   */
  app.post(
    '/admin/cities/import',
    {
      ...allowed,
      schema: { tags, security, querystring: cityImportQuerySchema, response: { 200: cityImportResponseSchema } },
    },
    async (request) => {
      const dryRun = request.query.dry_run;
      if (!request.isMultipart()) throw unprocessable({ csv_file: ['Envoyez un fichier CSV dans le champ csv_file.'] });
      let csv: Buffer | null = null;
      let countryField: string | undefined;
      for await (const part of request.parts()) {
        if (part.type === 'file' && part.fieldname === 'csv_file') {
          csv = await part.toBuffer();
          if (part.file.truncated) throw unprocessable({ csv_file: ['Le fichier ne doit pas dépasser 2 Mo.'] });
        } else if (part.type === 'file') {
          await part.toBuffer();
        } else if (part.fieldname === 'country_id') {
          countryField = String(part.value);
        }
      }
      if (!csv) throw unprocessable({ csv_file: ['Envoyez un fichier CSV dans le champ csv_file.'] });
      const country = positiveId('Pays invalide').safeParse(countryField || DEFAULT_COUNTRY_ID);
      if (!country.success) throw unprocessable({ country_id: ['Pays invalide'] });
      const countryId = country.data;
      await assertCountry(db, countryId);

      const rejected: Rejected[] = [];
      const { lines: records, source } = readCsv(csv, rejected);
      const content = (line: number) => shown(source[line - 1] ?? '');
      const hasHeader = ['name', 'nom', 'ville'].includes((records[0]?.record[0] ?? '').toLowerCase());
      const toImport: CityImportReport['to_import'] = [];
      const seen = new Set<string>();
      try {
        await db.transaction(async (tx) => {
          for (const [index, { line, record }] of records.entries()) {
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
              rejected.push(refusal(line, content(line), reasons));
              continue;
            }
            seen.add(key);
            const [row] = await tx
              .insert(cities)
              .values({
                name,
                countryId,
                provinceId: await provinceId(tx, countryId, province || null),
                isMajor: truthy(major),
              })
              .onConflictDoNothing()
              .returning({ id: cities.id });
            if (row) toImport.push({ line, name, province: province || null, is_major: truthy(major) });
            else rejected.push(refusal(line, content(line), [`${name} existe déjà`]));
          }
          if (dryRun) throw new PreviewDone();
        });
      } catch (err) {
        if (!(err instanceof PreviewDone)) throw err;
      }
      return {
        dry_run: dryRun,
        imported: dryRun ? 0 : toImport.length,
        to_import: toImport,
        rejected: rejected.sort((a, b) => a.line - b.line),
      };
    },
  );
};
