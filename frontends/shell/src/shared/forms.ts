import { messages } from '@cartable/contracts/messages';
import { ApiError } from '@cartable/ui';
import type { FieldPath, FieldValues, Resolver, UseFormSetError } from 'react-hook-form';

/**
 * Says « Les mots de passe ne correspondent pas » as soon as both passwords are typed. The
 * schemas' mismatch rule is a whole-object check, which zod skips while any field is refused,
 * so the form showed it only once every other field was valid; SPEC section 5 has fields
 * validate live after a first submit. The server keeps the schema's rule.
 */
export function withPasswordMatch<T extends FieldValues>(resolver: Resolver<T>): Resolver<T> {
  return async (values, context, options) => {
    const result = await resolver(values, context, options);
    const { password, password_confirmation: confirmation } = values as {
      password?: unknown;
      password_confirmation?: unknown;
    };
    if (!confirmation || confirmation === password || 'password_confirmation' in result.errors) return result;
    return {
      values: {},
      errors: {
        ...result.errors,
        password_confirmation: { type: 'validate', message: messages.auth.confirmationMismatch },
      },
    } as Awaited<ReturnType<Resolver<T>>>;
  };
}

/**
 * French message for the rare rule a shared schema states without one (e.g. a length bound):
 * passed as the per-parse error map, it never replaces the schema's own messages.
 */
export function fallbackMessages(byField: Record<string, string> = {}) {
  return {
    error: (issue: { path?: ReadonlyArray<PropertyKey> }) => {
      const field = String(issue.path?.[0] ?? '');
      return byField[field] ?? 'Valeur invalide';
    },
  };
}

/**
 * Puts the server's field errors (422, 409) on the form's fields. Returns the fields that got one;
 * the first is focused.
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: ReadonlyArray<FieldPath<T>>,
): FieldPath<T>[] {
  if (!(error instanceof ApiError)) return [];
  const applied: FieldPath<T>[] = [];
  for (const field of fields) {
    const message = error.fieldError(field);
    if (message) {
      setError(field, { type: 'server', message }, { shouldFocus: applied.length === 0 });
      applied.push(field);
    }
  }
  return applied;
}

/** True for a 5xx answer (the gateway's 502/503/504 included). */
export function isServerError(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 500;
}

/** First message per field of a failed zod parse: `{ password: "Le mot de passe est requis" }`. */
export function issuesByField(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>) {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? '');
    errors[field] ??= issue.message;
  }
  return errors;
}
