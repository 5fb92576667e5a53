import { z } from 'zod';
import { isbnMessages, parseIsbn } from './isbn-digits.ts';

export { compactIsbn, isbn10Of, isbn13Of, isbnMessages, isbnSpellings, parseIsbn } from './isbn-digits.ts';

/** GET /books/isbn/{isbn}: an ISBN-10 or ISBN-13, hyphens and spaces allowed, checked and turned into its ISBN-13. */
export const isbnParamsSchema = z.object({
  isbn: z.string({ error: isbnMessages.invalid }).transform((text, ctx) => {
    const parsed = parseIsbn(text);
    if ('isbn13' in parsed) return parsed.isbn13;
    ctx.addIssue({ code: 'custom', message: isbnMessages[parsed.problem] });
    return z.NEVER;
  }),
});

/**
 * What Cartable knows of a book by its ISBN, for the listing form: the class lists' books of that
 * ISBN and the past listings of it, merged (the class lists first, then what most listings said).
 * `found` false: nobody has listed it nor put it on a class list; the member types the rest.
 */
export const isbnLookupSchema = z
  .object({
    /** The ISBN-13 asked for, digits only. */
    isbn: z.string(),
    /** Its ISBN-10 when it has one (978 books). */
    isbn10: z.string().nullable(),
    found: z.boolean(),
    title: z.string().nullable(),
    author: z.string().nullable(),
    publisher: z.string().nullable(),
    year: z.number().int().nullable(),
    /** The level and subject (class lists), or the categories most listings of it had. */
    category_ids: z.array(z.number().int()),
    /** How many books of the published class lists and past listings it was drawn from. */
    sources: z.object({ class_lists: z.number().int(), listings: z.number().int() }),
  })
  .meta({ id: 'IsbnLookup' });
export type IsbnLookup = z.infer<typeof isbnLookupSchema>;
