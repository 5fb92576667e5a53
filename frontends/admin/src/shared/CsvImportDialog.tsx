import type { CsvImportReport } from '@cartable/contracts';
import { Alert, Button, errorMessage } from '@cartable/ui';
import { Dialog } from '@cartable/ui/overlays';
import { type ReactNode, useEffect, useId, useState } from 'react';

/** How the imported rows are named, agreeing with their number. */
export interface CsvRowNames {
  /** « 1 ville », « 3 manuels ». */
  count: (n: number) => string;
  /** « importée », « importés ». */
  imported: (n: number) => string;
}

const plural = (n: number) => (n > 1 ? 's' : '');

/**
 * A CSV import in two steps: pick a file, see what would be imported and what would be rejected
 * (with the reasons: the server's preview, `dry_run`, writes nothing), then import for real and see
 * the result. `send` calls the server; `fields` are the import's own settings (a country), under
 * the file, and call `clearReport` when they change (the preview no longer holds).
 */
export function CsvImportDialog<Row extends { line: number }>({
  open,
  onClose,
  title,
  description,
  names,
  send,
  onImported,
  fieldErrorKeys = ['csv_file'],
  fields,
  renderRow,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description: string;
  names: CsvRowNames;
  send: (file: File, dryRun: boolean) => Promise<CsvImportReport<Row>>;
  /** After the real import: refresh what it changed, tell the administrator. */
  onImported: (report: CsvImportReport<Row>) => void;
  /** The request's fields whose error is shown first (the file's, then the settings'). */
  fieldErrorKeys?: readonly string[];
  fields?: (clearReport: () => void) => ReactNode;
  /** What one accepted line shows. */
  renderRow: (row: Row) => ReactNode;
}) {
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<CsvImportReport<Row> | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  useEffect(() => {
    if (!open) return;
    setFile(null);
    setReport(null);
    setError(undefined);
  }, [open]);

  const run = async (dryRun: boolean) => {
    if (!file) {
      setError('Choisissez un fichier CSV.');
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const answer = await send(file, dryRun);
      setReport(answer);
      if (!dryRun) onImported(answer);
    } catch (err) {
      const fieldErrors = (err as { errors?: Record<string, string[]> }).errors ?? {};
      const first = fieldErrorKeys.map((key) => fieldErrors[key]?.[0]).find(Boolean);
      setError(first ?? errorMessage(err, 'Import impossible.'));
    } finally {
      setBusy(false);
    }
  };

  const done = report && !report.dry_run;
  return (
    <Dialog
      open={open}
      onClose={busy ? () => {} : onClose}
      title={title}
      description={description}
      size="lg"
      footer={
        done ? (
          <Button onClick={onClose}>Fermer</Button>
        ) : (
          <>
            <Button variant="outline" onClick={onClose} disabled={busy}>
              Annuler
            </Button>
            {report?.dry_run ? (
              <Button onClick={() => void run(false)} loading={busy} disabled={report.to_import.length === 0}>
                Importer {names.count(report.to_import.length)}
              </Button>
            ) : (
              <Button onClick={() => void run(true)} loading={busy}>
                Prévisualiser
              </Button>
            )}
          </>
        )
      }
    >
      <div className="space-y-4">
        {!done ? (
          <>
            <div>
              <label htmlFor={fileId} className="mb-1 block text-sm font-medium text-slate-800">
                Fichier CSV
              </label>
              <input
                id={fileId}
                type="file"
                accept=".csv,text/csv"
                className="block w-full text-sm file:mr-3 file:rounded-lg file:border-0 file:bg-primary-50 file:px-3 file:py-2 file:font-semibold file:text-primary-800"
                onChange={(event) => {
                  setFile(event.target.files?.[0] ?? null);
                  setReport(null);
                }}
              />
            </div>
            {fields?.(() => setReport(null))}
          </>
        ) : null}
        {error ? (
          <Alert tone="error" title="Import impossible">
            {error}
          </Alert>
        ) : null}
        {report ? <ImportReport report={report} names={names} renderRow={renderRow} /> : null}
      </div>
    </Dialog>
  );
}

function ImportReport<Row extends { line: number }>({
  report,
  names,
  renderRow,
}: {
  report: CsvImportReport<Row>;
  names: CsvRowNames;
  renderRow: (row: Row) => ReactNode;
}) {
  const count = report.dry_run ? report.to_import.length : report.imported;
  const rejected = report.rejected.length;
  const rejectedText = `${rejected} ligne${plural(rejected)} rejetée${plural(rejected)}`;
  return (
    <div className="space-y-3" data-testid="import-report">
      <Alert tone={count ? 'success' : 'warning'} title={report.dry_run ? 'Prévisualisation' : 'Import terminé'}>
        {report.dry_run
          ? `${names.count(count)} à importer, ${rejectedText}. Rien n’est encore enregistré.`
          : `${names.count(count)} ${names.imported(count)}, ${rejectedText}.`}
      </Alert>
      {report.to_import.length ? (
        <div>
          <h3 className="mb-1 text-sm font-semibold text-slate-800">
            {report.dry_run ? 'Lignes à importer' : 'Lignes importées'}
          </h3>
          <ul className="max-h-48 divide-y divide-slate-100 overflow-y-auto rounded-lg border border-slate-200 text-sm">
            {report.to_import.map((row) => (
              <li key={row.line} className="flex gap-3 px-3 py-1.5" data-testid="import-line">
                <span className="w-14 shrink-0 text-slate-500">L. {row.line}</span>
                <span className="min-w-0 flex-1">{renderRow(row)}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {rejected ? (
        <div>
          <h3 className="mb-1 text-sm font-semibold text-red-800">Lignes rejetées</h3>
          <ul className="max-h-48 divide-y divide-red-100 overflow-y-auto rounded-lg border border-red-200 text-sm">
            {report.rejected.map((row) => (
              <li key={`${row.line}-${row.reason}`} className="px-3 py-1.5" data-testid="import-rejected">
                <span className="flex gap-3">
                  <span className="w-14 shrink-0 text-slate-500">L. {row.line}</span>
                  <code className="min-w-0 flex-1 break-all text-slate-700">{row.content || '(vide)'}</code>
                </span>
                <ul className="ml-[4.25rem] list-disc pl-4 text-red-800">
                  {row.reasons.map((reason) => (
                    <li key={reason}>{reason}</li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
