import {
  CLASS_LIST_ITEMS_MAX,
  type ClassListImportReport,
  classListItemRequestSchema,
  hasControlCharacters,
  classListMessages as m,
} from '@cartable/contracts';
import { type Db, unprocessable } from '@cartable/service-kit';
import { type CsvError, parse } from 'csv-parse/sync';
import { eq, sql } from 'drizzle-orm';
import { classListItems } from '../db/schema.ts';
import type { CategoryView } from '../modules/taxonomy/domain/category-store.ts';
import { itemValues, touchList } from './class-lists.ts';
import { kindOf } from './search.ts';

type Rejected = ClassListImportReport['rejected'][number];
type ToImport = ClassListImportReport['to_import'][number];

const csvReasons: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'Guillemet ouvert mais jamais fermé',
  CSV_INVALID_CLOSING_QUOTE: 'Guillemet mal placé dans un champ',
  CSV_MAX_RECORD_SIZE: 'Ligne trop longue',
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: 'Caractère inattendu après un guillemet fermant',
};
const csvReason = (err: CsvError | undefined) => (err && csvReasons[err.code]) ?? 'Ligne illisible';
/** A line as the report shows it: 300 characters at most, control characters as �. */
const shown = (line: string) => [...line.slice(0, 300)].map((c) => (hasControlCharacters(c) ? '\uFFFD' : c)).join('');
const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .trim();

const yes = ['1', 'oui', 'o', 'yes', 'y', 'true', 'x', 'obligatoire', 'requis', 'required'];
const no = ['0', 'non', 'n', 'no', 'false', 'conseille', 'recommande', 'facultatif', 'recommended', 'optionnel'];
const HEADER = ['title', 'titre'];

/**
 * Reads `title;author;publisher;year;isbn;subject;required` lines (`;` or `,`, UTF-8, BOM and a
 * header line allowed) into the items they would add to the list, and the refused lines with
 * their French reasons: unreadable, invalid field, unknown subject, a title already in the list
 * (or twice in the file), past the 60 books of a list. `dry_run` writes nothing.
 */
export async function importItems(
  db: Db,
  view: CategoryView,
  listId: number,
  bytes: Buffer,
  dryRun: boolean,
): Promise<ClassListImportReport> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    throw unprocessable({ csv_file: ["Ce fichier n'est pas un CSV : un fichier texte (UTF-8) est attendu."] });
  }
  const source = text.split(/\r?\n/);
  const content = (line: number) => shown(source[line - 1] ?? '');
  const delimiter = (source[0] ?? '').includes(';') ? ';' : ',';
  const rejected: Rejected[] = [];
  const refuse = (line: number, reasons: string[]) =>
    rejected.push({ line, content: content(line), reason: reasons[0] ?? 'Ligne refusée', reasons });
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parse(text, {
      delimiter,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
      info: true,
      max_record_size: 5_000,
      skip_records_with_error: true,
      on_skip: (err) => {
        const line = Number(err?.lines) || 0;
        refuse(line, [csvReason(err)]);
        return undefined;
      },
    }) as unknown as typeof records;
  } catch (err) {
    const line = Number((err as CsvError).lines) || 0;
    const where = line ? ` (ligne ${line})` : '';
    throw unprocessable({ csv_file: [`Fichier CSV illisible${where} : ${csvReason(err as CsvError).toLowerCase()}.`] });
  }

  // Subjects by name, accents and case ignored (the subjects first when a name is used twice).
  const subjects = new Map<string, { id: number; name: string }>();
  for (const node of view.graph.nodes.values()) {
    const key = fold(node.name);
    if (!subjects.has(key) || kindOf(view.graph, node.id) === 'subject')
      subjects.set(key, { id: node.id, name: node.name });
  }
  const existing = await db
    .select({ key: classListItems.titleKey })
    .from(classListItems)
    .where(eq(classListItems.listId, listId));
  const seen = new Set(existing.map((e) => e.key));
  const titleKey = (t: string) => fold(t).replace(/[^a-z0-9]+/g, '');
  let room = CLASS_LIST_ITEMS_MAX - existing.length;

  const toImport: Array<ToImport & { subject_id: number | null }> = [];
  for (const [index, { record, info }] of records.entries()) {
    const line = info.lines;
    const cells = record.map((c) => c.trim());
    if (index === 0 && HEADER.includes(fold(cells[0] ?? ''))) continue;
    const [title = '', author = '', publisher = '', year = '', isbn = '', subjectName = '', required = ''] = cells;
    const reasons: string[] = [];
    let subject: { id: number; name: string } | null = null;
    if (subjectName) {
      subject = subjects.get(fold(subjectName)) ?? null;
      if (!subject) reasons.push(`Matière inconnue : ${shown(subjectName).slice(0, 80)}`);
    }
    let requirement: 'required' | 'recommended' = 'required';
    if (required) {
      if (yes.includes(fold(required))) requirement = 'required';
      else if (no.includes(fold(required))) requirement = 'recommended';
      else reasons.push('Colonne « obligatoire » : oui ou non');
    }
    const parsed = classListItemRequestSchema.safeParse({
      title,
      author,
      publisher,
      year,
      isbn,
      subject_id: subject?.id ?? null,
      requirement,
    });
    if (!parsed.success) reasons.push(...parsed.error.issues.map((i) => i.message));
    if (reasons.length || !parsed.success) {
      refuse(line, reasons);
      continue;
    }
    const key = titleKey(parsed.data.title);
    if (seen.has(key)) {
      refuse(line, [`« ${parsed.data.title} » est déjà dans la liste`]);
      continue;
    }
    if (room <= 0) {
      refuse(line, [m.tooManyItems]);
      continue;
    }
    seen.add(key);
    room--;
    toImport.push({
      line,
      title: parsed.data.title,
      author: parsed.data.author,
      publisher: parsed.data.publisher,
      year: parsed.data.year,
      isbn: parsed.data.isbn,
      subject,
      subject_id: subject?.id ?? null,
      requirement: parsed.data.requirement,
    });
  }

  let imported = 0;
  if (!dryRun && toImport.length) {
    await db.transaction(async (tx) => {
      const [{ last } = { last: -1 }] = await tx
        .select({ last: sql<number>`coalesce(max(${classListItems.position}), -1)::int` })
        .from(classListItems)
        .where(eq(classListItems.listId, listId));
      await tx.insert(classListItems).values(
        toImport.map((t, i) =>
          itemValues(
            listId,
            {
              title: t.title,
              author: t.author,
              publisher: t.publisher,
              edition: null,
              year: t.year,
              isbn: t.isbn,
              subject_id: t.subject_id,
              requirement: t.requirement,
            },
            last + 1 + i,
          ),
        ),
      );
      await touchList(tx, listId);
    });
    imported = toImport.length;
  }
  rejected.sort((a, b) => a.line - b.line);
  return {
    dry_run: dryRun,
    imported,
    to_import: toImport.map(({ subject_id: _, ...t }) => t),
    rejected,
  };
}
