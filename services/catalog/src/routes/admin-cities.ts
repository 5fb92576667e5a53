import {
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
import { conflict, type Db, HttpError, isUniqueViolation, notFound, unprocessable } from '@cartable/service-kit';
import multipart from '@fastify/multipart';
import { type CsvError, parse } from 'csv-parse/sync';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { books, cities, countries, provinces } from '../db/schema.ts';
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

/**
 * The lines of an uploaded CSV (`,` or `;`, UTF-8, a BOM allowed), each with its line number;
 * a line csv-parse cannot read is rejected with its French reason and the others go on. A file
 * that is not UTF-8 text (a photo sent as csv_file) is a 422.
 */
function readCsv(bytes: Buffer, rejected: Array<{ line: number; reason: string }>): CsvLine[] {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    throw unprocessable({ csv_file: ["Ce fichier n'est pas un CSV : un fichier texte (UTF-8) est attendu."] });
  }
  const delimiter = (text.split('\n')[0] ?? '').includes(';') ? ';' : ',';
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
        rejected.push({ line: Number(err?.lines) || 0, reason: csvReason(err) });
        return undefined;
      },
    }) as unknown as Array<{ record: string[]; info: { lines: number } }>;
    return rows.map(({ record, info }) => ({ line: info.lines, record }));
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
      if (!(await cityDto(request.params.id))) throw notFound('Ville introuvable.');
      const [used] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(books)
        .where(eq(books.cityId, request.params.id));
      if ((used?.n ?? 0) > 0)
        throw new HttpError(422, `Impossible de supprimer une ville utilisée par ${used!.n} annonce(s).`);
      await db.delete(cities).where(eq(cities.id, request.params.id));
      return { message: 'Ville supprimée avec succès' };
    },
  );

  /** CSV with columns name, province, is_major (a header line is optional), UTF-8, , or ; separated. */
  app.post(
    '/admin/cities/import',
    { ...allowed, schema: { tags, security, response: { 200: cityImportResponseSchema } } },
    async (request) => {
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
      const country = positiveId('Pays invalide').safeParse(countryField ?? DEFAULT_COUNTRY_ID);
      if (!country.success) throw unprocessable({ country_id: ['Pays invalide'] });
      const countryId = country.data;
      await assertCountry(db, countryId);

      const rejected: Array<{ line: number; reason: string }> = [];
      const records = readCsv(csv, rejected);
      const hasHeader = ['name', 'nom', 'ville'].includes((records[0]?.record[0] ?? '').toLowerCase());
      let imported = 0;
      const seen = new Set<string>();
      await db.transaction(async (tx) => {
        for (const [index, { line, record }] of records.entries()) {
          if (hasHeader && index === 0) continue;
          const [name, province, major] = record;
          if (record.some((field) => hasControlCharacters(field))) {
            rejected.push({ line, reason: 'Caractère non autorisé (caractère nul ou de contrôle)' });
            continue;
          }
          if (!name || name.length < 2) {
            rejected.push({ line, reason: 'Nom de ville manquant ou trop court' });
            continue;
          }
          if (name.length > 80) {
            rejected.push({ line, reason: 'Nom de ville trop long (80 caractères au plus)' });
            continue;
          }
          if (province && province.length > 80) {
            rejected.push({ line, reason: 'Nom de province trop long (80 caractères au plus)' });
            continue;
          }
          const key = name.toLowerCase();
          if (seen.has(key)) {
            rejected.push({ line, reason: `${name} apparaît deux fois dans le fichier` });
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
          if (row) imported++;
          else rejected.push({ line, reason: `${name} existe déjà` });
        }
      });
      return { imported, rejected: rejected.sort((a, b) => a.line - b.line) };
    },
  );
};
