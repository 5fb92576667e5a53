import {
  CLASS_LIST_ITEMS_MAX,
  type ClassListImportReport,
  classListItemRequestSchema,
  classListMessages as m,
} from '@cartable/contracts';
import { notFound, readCsvUpload, shownLine, type UnitOfWork } from '@cartable/service-kit';
import { type CategoryView, kindOf } from '../../taxonomy/index.ts';
import * as queries from '../db/queries.ts';
import { itemValues } from './lists.ts';
import { changedItem, recordVersion } from './versions.ts';

type ToImport = ClassListImportReport['to_import'][number];

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
  uow: UnitOfWork,
  view: CategoryView,
  listId: number,
  bytes: Buffer,
  dryRun: boolean,
): Promise<ClassListImportReport> {
  const db = uow.db;
  const file = readCsvUpload(bytes, { maxRecordSize: 5_000 });

  // Subjects by name, accents and case ignored (the subjects first when a name is used twice).
  const subjects = new Map<string, { id: number; name: string }>();
  for (const node of view.graph.nodes.values()) {
    const key = fold(node.name);
    if (!subjects.has(key) || kindOf(view.graph, node.id) === 'subject')
      subjects.set(key, { id: node.id, name: node.name });
  }
  const existing = await queries.titleKeysOf(db, listId);
  const seen = new Set(existing);
  const titleKey = (t: string) => fold(t).replace(/[^a-z0-9]+/g, '');
  let room = CLASS_LIST_ITEMS_MAX - existing.length;

  const toImport: Array<ToImport & { subject_id: number | null }> = [];
  for (const [index, { record, line }] of file.records.entries()) {
    const cells = record.map((c) => c.trim());
    if (index === 0 && HEADER.includes(fold(cells[0] ?? ''))) continue;
    const [title = '', author = '', publisher = '', year = '', isbn = '', subjectName = '', required = ''] = cells;
    const reasons: string[] = [];
    let subject: { id: number; name: string } | null = null;
    if (subjectName) {
      subject = subjects.get(fold(subjectName)) ?? null;
      if (!subject) reasons.push(`Matière inconnue : ${shownLine(subjectName).slice(0, 80)}`);
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
      file.refuse(line, reasons);
      continue;
    }
    const key = titleKey(parsed.data.title);
    if (seen.has(key)) {
      file.refuse(line, [`« ${parsed.data.title} » est déjà dans la liste`]);
      continue;
    }
    if (room <= 0) {
      file.refuse(line, [m.tooManyItems]);
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
    await uow.run(async (t) => {
      await queries.lockList(t.db, listId);
      const list = await queries.listById(t.db, listId);
      if (!list) throw notFound(m.notFound);
      const { last } = await queries.itemTally(t.db, listId);
      const added = await queries.insertItems(
        t.db,
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
      await queries.touchList(t.db, listId);
      await recordVersion(
        t,
        list,
        'import',
        added.map((item) => ({ kind: 'added' as const, item: changedItem(item), previous: null })),
      );
    });
    imported = toImport.length;
  }
  return {
    dry_run: dryRun,
    imported,
    to_import: toImport.map(({ subject_id: _, ...t }) => t),
    rejected: file.refused(),
  };
}
