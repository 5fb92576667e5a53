import type { Transaction } from '@cartable/service-kit';
import type { SuggestionRow } from './db/queries.ts';

const suggestionEvent = (row: SuggestionRow) => ({
  suggestion_id: row.id,
  kind: row.kind,
  area: row.area,
  legs: row.legs.map((l) => ({ from_user_id: l.from, to_user_id: l.to, book_id: l.book_id, book_title: l.book_title })),
  at: new Date().toISOString(),
});

/** A pair or a cycle of three was found: each member is told. */
export const exchangeSuggested = (t: Transaction, row: SuggestionRow) =>
  t.record('catalog.exchange.suggested', suggestionEvent(row));

/** Everyone accepted: the conversations open. */
export const exchangeAccepted = (t: Transaction, row: SuggestionRow) =>
  t.record('catalog.exchange.accepted', suggestionEvent(row));
