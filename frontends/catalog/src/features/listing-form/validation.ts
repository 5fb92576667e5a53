import { bookFieldsSchema } from '@cartable/contracts';
import type { FieldErrors, Resolver } from 'react-hook-form';
import { type BookFormValues, bookFormMessages, digits } from './bookForm';

/**
 * The listing form's checks: the API's own schema (libs/contracts `bookFieldsSchema`: the same
 * French rules and limits as POST /books), plus what a text field needs before it is coerced: an
 * empty price is not a gift, it is missing. Loaded with zod when the form is first touched
 * (./checks.ts), not with the page. A react-hook-form resolver: the first message per field.
 */
export const bookFormResolver: Resolver<BookFormValues> = async (values) => {
  const errors: Record<string, { type: string; message: string }> = {};
  if (!values.title.trim()) errors.title = { type: 'required', message: bookFormMessages.titleRequired };
  if (!values.author.trim()) errors.author = { type: 'required', message: bookFormMessages.authorRequired };
  const price = digits(values.price);
  if (price === '') errors.price = { type: 'required', message: bookFormMessages.priceRequired };
  else if (!/^\d+$/.test(price)) errors.price = { type: 'pattern', message: bookFormMessages.priceInvalid };
  const parsed = bookFieldsSchema.safeParse({ ...values, price });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? '');
      if (field && !errors[field]) errors[field] = { type: issue.code, message: issue.message };
    }
  }
  return Object.keys(errors).length
    ? { values: {}, errors: errors as FieldErrors<BookFormValues> }
    : { values, errors: {} };
};
