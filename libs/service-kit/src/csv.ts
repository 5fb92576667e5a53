import { hasControlCharacters } from '@cartable/contracts';
import { CSV_FORMULA_START } from '@cartable/contracts/limits';
import { type CsvError, parse } from 'csv-parse/sync';
import Papa from 'papaparse';
import { unprocessable } from './errors.ts';

/** A line the import refused, as its report shows it. */
export interface RefusedLine {
  line: number;
  content: string;
  reason: string;
  reasons: string[];
}

/** csv-parse's complaints, in French, for the line they are about. */
const csvReasons: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'Guillemet ouvert mais jamais fermé',
  CSV_INVALID_CLOSING_QUOTE: 'Guillemet mal placé dans un champ',
  CSV_MAX_RECORD_SIZE: 'Ligne trop longue',
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: 'Caractère inattendu après un guillemet fermant',
};
const csvReason = (err: CsvError | undefined) => (err && csvReasons[err.code]) ?? 'Ligne illisible';

/** A line of the file as a report shows it: 300 characters at most, control characters as �. */
export const shownLine = (line: string) =>
  [...line.slice(0, 300)].map((c) => (hasControlCharacters(c) ? '\uFFFD' : c)).join('');

/**
 * An uploaded CSV (`,` or `;`, UTF-8, a BOM allowed), read line by line: each record with its
 * line number, and the report's refused lines, to which the caller adds its own. A line csv-parse
 * cannot read is refused with its French reason and the others go on; a file that is not UTF-8
 * text (a photo sent as csv_file), or that csv-parse cannot read at all, is a 422 on csv_file.
 */
export function readCsvUpload(bytes: Buffer, options: { maxRecordSize: number }) {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    throw unprocessable({ csv_file: ["Ce fichier n'est pas un CSV : un fichier texte (UTF-8) est attendu."] });
  }
  const source = text.split(/\r?\n/);
  const refused: RefusedLine[] = [];
  /** Refuses `line` for these reasons (the first is the report's summary). */
  const refuse = (line: number, reasons: string[]) =>
    refused.push({ line, content: shownLine(source[line - 1] ?? ''), reason: reasons[0] ?? 'Ligne refusée', reasons });
  const delimiter = (source[0] ?? '').includes(';') ? ';' : ',';
  try {
    const rows = parse(text, {
      delimiter,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
      info: true,
      max_record_size: options.maxRecordSize,
      skip_records_with_error: true,
      on_skip: (err) => {
        refuse(Number(err?.lines) || 0, [csvReason(err)]);
        return undefined;
      },
    }) as unknown as Array<{ record: string[]; info: { lines: number } }>;
    return {
      records: rows.map(({ record, info }) => ({ line: info.lines, record })),
      refuse,
      /** The refused lines, in the file's order. */
      refused: () => refused.sort((a, b) => a.line - b.line),
    };
  } catch (err) {
    // What csv-parse cannot skip (a quote left open at the end of the file): the whole file.
    const line = Number((err as CsvError).lines) || 0;
    const where = line ? ` (ligne ${line})` : '';
    throw unprocessable({ csv_file: [`Fichier CSV illisible${where} : ${csvReason(err as CsvError).toLowerCase()}.`] });
  }
}

export { CSV_FORMULA_START };

/** A cell as `writeCsv` writes it: text a spreadsheet could run is written as text (a leading '). */
export const csvCell = (value: string | number | null | undefined): string | number =>
  typeof value === 'number' ? value : CSV_FORMULA_START.test(value ?? '') ? `'${value}` : (value ?? '');

/**
 * The one way the product writes a CSV: semicolons, CRLF and a byte-order mark, as Excel in
 * French expects; papaparse quotes; every text cell goes through `csvCell`, so a member's words
 * (a search, a title, a town) are read as text, never run. Numbers stay numbers.
 */
export function writeCsv(
  header: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<string | number | null>>,
): string {
  const text = Papa.unparse(
    { fields: header.map((cell) => String(csvCell(cell))), data: rows.map((row) => row.map(csvCell)) },
    { delimiter: ';', newline: '\r\n' },
  );
  return `\uFEFF${text}`;
}
