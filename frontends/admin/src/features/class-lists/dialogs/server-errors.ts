import { ApiError } from '@cartable/ui';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';

/** Server field errors on the form's fields; true when one was placed. */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  fields: readonly string[],
  setError: UseFormSetError<T>,
) {
  let applied = false;
  if (error instanceof ApiError) {
    for (const field of fields) {
      const message = error.fieldError(field);
      if (message) {
        setError(field as Path<T>, { type: 'server', message });
        applied = true;
      }
    }
  }
  return applied;
}

/** An empty text field is no value. */
export const nullIfEmpty = (v: string) => (v.trim() === '' ? null : v);
