import { describe, expect, it } from 'vitest';
import {
  compactIsbn,
  isbn10Of,
  isbn13Of,
  isbnMessages,
  isbnParamsSchema,
  isbnSpellings,
  parseIsbn,
} from '../src/index.ts';

describe('ISBN spellings', () => {
  it('removes hyphens, spaces and dots, and upper-cases the X of an ISBN-10', () => {
    expect(compactIsbn(' 978-2-09-171234-0 ')).toBe('9782091712340');
    expect(compactIsbn('2.7298.1042-x')).toBe('272981042X');
  });

  it('turns a valid ISBN-10 into its 978 ISBN-13, and back', () => {
    expect(isbn13Of('0-306-40615-2')).toBe('9780306406157');
    expect(isbn13Of('2-7298-1042-0')).toBe('9782729810429');
    expect(isbn13Of('2070360024')).toBe('9782070360024');
    expect(isbn10Of('9780306406157')).toBe('0306406152');
    expect(isbn10Of('9782070360024')).toBe('2070360024');
    expect(isbnSpellings('9780306406157')).toEqual(['9780306406157', '0306406152']);
  });

  it('computes the ISBN-10 check digit X', () => {
    // 0-8044-2957-X is the classic example of an X check digit.
    expect(isbn13Of('080442957X')).toBe('9780804429573');
    expect(isbn13Of('080442957x')).toBe('9780804429573');
    expect(isbn10Of('9780804429573')).toBe('080442957X');
  });

  it('keeps a 979 ISBN-13, which has no ISBN-10', () => {
    expect(isbn13Of('979-10-90636-07-1')).toBe('9791090636071');
    expect(isbn10Of('9791090636071')).toBeNull();
    expect(isbnSpellings('9791090636071')).toEqual(['9791090636071']);
  });

  it('refuses a wrong check digit, a wrong length and letters', () => {
    expect(parseIsbn('9780306406158')).toEqual({ problem: 'invalid' });
    expect(parseIsbn('0306406153')).toEqual({ problem: 'invalid' });
    expect(parseIsbn('2-7298-1042-1')).toEqual({ problem: 'invalid' });
    expect(parseIsbn('97803064061')).toEqual({ problem: 'invalid' });
    expect(parseIsbn('978030640615A')).toEqual({ problem: 'invalid' });
    expect(parseIsbn('')).toEqual({ problem: 'invalid' });
  });

  it('says an EAN-13 that is not a book’s is no ISBN', () => {
    // A grocery EAN-13 with a valid check digit.
    expect(parseIsbn('4006381333931')).toEqual({ problem: 'notABook' });
  });
});

describe('GET /books/isbn/{isbn} parameters', () => {
  it('gives the ISBN-13 of what was typed', () => {
    expect(isbnParamsSchema.parse({ isbn: '0-306-40615-2' })).toEqual({ isbn: '9780306406157' });
  });

  it('names the field with a French message', () => {
    const result = isbnParamsSchema.safeParse({ isbn: '9780306406158' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: ['isbn'], message: isbnMessages.invalid });
    expect(isbnParamsSchema.safeParse({ isbn: '4006381333931' }).error?.issues[0]?.message).toBe(isbnMessages.notABook);
  });
});
