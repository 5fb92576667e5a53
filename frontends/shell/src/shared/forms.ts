import { messages } from '@cartable/contracts/messages';
import { ApiError, notify } from '@cartable/ui';
import type { FieldErrors, FieldPath, FieldValues, Resolver, ResolverResult, UseFormSetError } from 'react-hook-form';

export interface LazyChecks<M> {
  /**
   * The form's props that start loading the checks when it is first focused or tapped (nothing
   * more once they are loaded or on their way): `<form {...checks.loadOnTouch}>`.
   */
  loadOnTouch: { onFocus: () => void; onPointerDown: () => void };
  /** The resolver `pick` chooses among the loaded checks; a submit made before they arrive waits for them. */
  resolver: <T extends FieldValues>(pick: (checks: M) => Resolver<T>) => Resolver<T>;
  /**
   * `use` applied to the loaded checks, for a form without react-hook-form; undefined when they
   * cannot load (the person was told).
   */
  apply: <R>(use: (checks: M) => R) => Promise<R | undefined>;
}

/**
 * A form's checks, loaded when they are first needed. They are its contract's zod schemas, and
 * the shared contracts bring zod whole (about 100 KiB compressed, a quarter of a second of a
 * phone's CPU): a page importing them drew nothing until they had arrived and run. The page draws
 * at once; the checks load when the form is first touched (`loadOnTouch`: a focus or a tap), long
 * before the first submit, which waits for them otherwise. If they cannot load (the connection
 * dropped), the submit says so and the next one tries again.
 */
export function lazyChecks<M>(load: () => Promise<M>): LazyChecks<M> {
  let loading: Promise<M> | undefined;
  const get = () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  const preload = () => {
    get().catch(() => {});
  };
  /** The checks, or undefined once the person was told they could not load. */
  const loaded = () =>
    get().catch(() => {
      notify.error(messages.formChecksUnavailable);
      return undefined;
    });
  return {
    loadOnTouch: { onFocus: preload, onPointerDown: preload },
    resolver:
      <T extends FieldValues>(pick: (checks: M) => Resolver<T>): Resolver<T> =>
      async (values, context, options) => {
        const checks = await loaded();
        if (checks === undefined) {
          const errors = { root: { type: 'unavailable', message: messages.formChecksUnavailable } } as FieldErrors<T>;
          return { values: {}, errors } as ResolverResult<T>;
        }
        return pick(checks)(values, context, options);
      },
    apply: async (use) => {
      const checks = await loaded();
      return checks === undefined ? undefined : use(checks);
    },
  };
}

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
