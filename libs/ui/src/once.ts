/**
 * A value built on its first use, then kept. For Intl formatters and collators above all: building
 * one loads its locale's data (dates' patterns, collation rules), tens of milliseconds of a phone's
 * main thread that a module paid when it loaded, before the page's first render, even on pages
 * that never show a date.
 */
export function once<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => {
    value ??= build();
    return value;
  };
}
