import { z } from 'zod';
import { messages } from './messages.ts';

// Zod's own messages (a wrong type, a number too big…) in French, for the API and the forms.
z.config(z.locales.fr());

/** Body of every error answer: a French message, and field errors where they apply. */
export const errorBodySchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

// ── integers the database can hold ──────────────────────────────────────────────────────────

/** PostgreSQL's `integer` (int4): every id, price, count and order column of the services. */
export const INT4_MIN = -2_147_483_648;
export const INT4_MAX = 2_147_483_647;

interface Bounded<T> {
  min(value: number, message?: string): T;
  max(value: number, message?: string): T;
}

/**
 * Bounds a number schema to PostgreSQL's integer: 99999999999 is a French 422 naming the
 * field, never a database error. For JSON integers that must not be coerced: `int4(z.number().int())`.
 */
export const int4 = <T extends Bounded<T>>(schema: T, message?: string): T =>
  schema.min(INT4_MIN, message ?? messages.integerTooSmall).max(INT4_MAX, message ?? messages.integerTooLarge);

/**
 * An integer from a query string, a path, a form or a JSON field ("12" → 12; "1.5", "abc",
 * "NaN", 1e308 and anything past PostgreSQL's integer refused), with a French message.
 */
export const dbInt = (message?: string) =>
  int4(
    z.coerce.number({ error: message ?? messages.integerExpected }).int(message ?? messages.integerExpected),
    message,
  );

/** A row id: 1 to PostgreSQL's largest integer. In a path, one out of that range answers 404. */
export const positiveId = (message: string = messages.idInvalid) => dbInt(message).positive(message);

/** Query-string integer (pages, counts): "12" → 12, rejects "1.5", "abc" and 99999999999. */
export const queryInt = dbInt();

// ── text the database can hold ──────────────────────────────────────────────────────────────

/** C0 and C1 control characters and DEL: PostgreSQL's text refuses NUL, and none belongs in a name. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F-\u009F]/;
/** The same, less tab, line feed and carriage return, which a description or a message may hold. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const CONTROL_CHARACTERS_MULTILINE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

export const hasControlCharacters = (value: string, { multiline = false } = {}) =>
  (multiline ? CONTROL_CHARACTERS_MULTILINE : CONTROL_CHARACTERS).test(value);

type StringParams = Parameters<typeof z.string>[0];

/** A one-line text field (a name, a title, a search): NUL and control characters refused in French. */
export const safeText = (params?: StringParams) =>
  z.string(params).refine((v) => !hasControlCharacters(v), messages.controlCharacters);

/** A text that may span lines (a description, a message, a comment): tabs and line breaks allowed. */
export const multilineText = (params?: StringParams) =>
  z.string(params).refine((v) => !hasControlCharacters(v, { multiline: true }), messages.controlCharacters);

/** Query-string boolean: accepts true/false/1/0 as the browser sends them. */
export const queryBool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** `{ message }`: the answer of a call that only says what it did, in French. */
export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

/** Page counters of the `{ data, meta }` lists (comments, messages, contacts, users). */
export const pageMetaSchema = z.object({
  current_page: z.number().int(),
  last_page: z.number().int(),
  total: z.number().int(),
});
export type PageMeta = z.infer<typeof pageMetaSchema>;

/** A numeric id in a path (`/books/{id}`): "12" → 12; past PostgreSQL's integer, 404. */
export const idParamsSchema = z.object({ id: positiveId() });
/** A UUID in a path (`/admin/contacts/{id}`, `/roles/{id}`). */
export const uuidParamsSchema = z.object({ id: z.string().uuid() });

/**
 * The answer of a CSV import (POST …/import, and its preview `?dry_run=true`, which writes
 * nothing): the lines to add (added, unless a preview), and each line refused with its content
 * and French reasons. `row` is what one accepted line holds.
 */
export function csvImportReportSchema<Row extends z.ZodTypeAny>(row: Row) {
  return z.object({
    dry_run: z.boolean(),
    imported: z.number().int(),
    to_import: z.array(row),
    rejected: z.array(
      z.object({
        line: z.number().int(),
        content: z.string(),
        /** The first of `reasons`. */
        reason: z.string(),
        reasons: z.array(z.string()),
      }),
    ),
  });
}
/** What any CSV import answers, whatever its lines hold (the admin's import dialog reads this). */
export type CsvImportReport<Row extends { line: number } = { line: number }> = Omit<
  z.infer<ReturnType<typeof csvImportReportSchema>>,
  'to_import'
> & { to_import: Row[] };
