/**
 * A CSV file for a spreadsheet: semicolons and a byte-order mark, as Excel in French expects;
 * papaparse does the quoting (loaded only when an export is asked for).
 */
export async function downloadCsv(fileName: string, header: string[], rows: Array<Array<string | number>>) {
  const { unparse } = await import('papaparse');
  const text = unparse({ fields: header, data: rows }, { delimiter: ';', newline: '\r\n' });
  const url = URL.createObjectURL(new Blob([`\uFEFF${text}`], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked once the browser has taken the file.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
