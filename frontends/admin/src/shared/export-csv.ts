import { CSV_FORMULA_START } from '@cartable/contracts/limits';
import { api } from '@cartable/ui';

/** Hands a file to the browser's downloads. */
function saveFile(fileName: string, file: Blob) {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked once the browser has taken the file.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * A CSV the server writes (writeCsv of @cartable/service-kit, which writes a cell a spreadsheet
 * could run as text): fetched with the session's token and saved under `fileName`.
 */
export async function downloadServerCsv(path: string, query: Record<string, string>, fileName: string) {
  saveFile(fileName, await api.get<Blob>(path, { query, responseType: 'blob' }));
}

/**
 * A CSV of figures only (days and counts the services computed, no one's words), for a report
 * that gathers several services' figures and so has no server of its own to write it. Semicolons
 * and a byte-order mark, as Excel in French expects; papaparse quotes and, with writeCsv's rule
 * (CSV_FORMULA_START), writes a cell beginning with =, +, -, @, a tab or a carriage return as text.
 */
export async function downloadCsv(fileName: string, header: string[], rows: Array<Array<string | number>>) {
  const { unparse } = await import('papaparse');
  const text = unparse(
    { fields: header, data: rows },
    { delimiter: ';', newline: '\r\n', escapeFormulae: CSV_FORMULA_START },
  );
  saveFile(fileName, new Blob([`\uFEFF${text}`], { type: 'text/csv;charset=utf-8' }));
}
