import type { FieldErrors, FieldValues, Resolver, ResolverResult } from 'react-hook-form';
import { notify } from './toast';

/**
 * Said when a form's checks cannot load (the connection dropped): this library's own message, as
 * its API client's network error is, so that the pages' first script needs no other module for it.
 */
export const FORM_CHECKS_UNAVAILABLE_MESSAGE =
  "Le formulaire n'a pas pu être vérifié. Vérifiez votre connexion internet et réessayez.";

export interface LazyChecks<M> {
  /**
   * The form's props that start loading the checks when it is first focused or tapped (nothing
   * more once they are loaded or on their way): `<form {...checks.loadOnTouch}>`.
   */
  loadOnTouch: { onFocus: () => void; onPointerDown: () => void };
  /**
   * The resolver `pick` chooses among the loaded checks (one that turns the fields' values into
   * the request's, too); a submit made before they arrive waits for them.
   */
  resolver: <T extends FieldValues, C = unknown, R = T>(pick: (checks: M) => Resolver<T, C, R>) => Resolver<T, C, R>;
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
      notify.error(FORM_CHECKS_UNAVAILABLE_MESSAGE);
      return undefined;
    });
  return {
    loadOnTouch: { onFocus: preload, onPointerDown: preload },
    resolver:
      <T extends FieldValues, C = unknown, R = T>(pick: (checks: M) => Resolver<T, C, R>): Resolver<T, C, R> =>
      async (values, context, options) => {
        // Offline and never loaded on this phone: the values go as typed. A write the service
        // worker keeps is checked by the server when it arrives (a refusal is then said).
        if (typeof navigator !== 'undefined' && navigator.onLine === false) {
          const checks = await get().catch(() => undefined);
          if (checks === undefined) return { values, errors: {} } as unknown as ResolverResult<T, R>;
          return pick(checks)(values, context, options);
        }
        const checks = await loaded();
        if (checks === undefined) {
          const errors = { root: { type: 'unavailable', message: FORM_CHECKS_UNAVAILABLE_MESSAGE } } as FieldErrors<T>;
          return { values: {}, errors } as ResolverResult<T, R>;
        }
        return pick(checks)(values, context, options);
      },
    apply: async (use) => {
      const checks = await loaded();
      return checks === undefined ? undefined : use(checks);
    },
  };
}
