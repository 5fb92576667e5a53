import type { BookCondition, BookConditionFlag } from '@cartable/contracts';
import {
  bookConditionFlags,
  bookConditions,
  conditionFlagFilterLabels,
  conditionLabels,
} from '@cartable/contracts/labels';
import { SEARCH_CATEGORIES_MAX, SEARCH_TEXT_MAX_LENGTH, SEARCH_TEXT_MAX_WORDS } from '@cartable/contracts/limits';
import type { BookQuery } from '../../shared/books';

/** Results per page of the catalogue (4 rows of 3, 6 rows of 2 on phones). */
export const PER_PAGE = 12;

export const SORT_FIELDS = ['relevance', 'created_at', 'price', 'title'] as const;
export type SortField = (typeof SORT_FIELDS)[number];
export type SortDirection = 'asc' | 'desc';

/** « Pertinence » is offered (and the default) only with a text to search. */
export const SORT_OPTIONS: Array<{ value: `${SortField}:${SortDirection}`; label: string }> = [
  { value: 'relevance:desc', label: 'Pertinence' },
  { value: 'created_at:desc', label: 'Plus récents' },
  { value: 'created_at:asc', label: 'Plus anciens' },
  { value: 'price:asc', label: 'Prix croissant' },
  { value: 'price:desc', label: 'Prix décroissant' },
  { value: 'title:asc', label: 'Titre (A → Z)' },
  { value: 'title:desc', label: 'Titre (Z → A)' },
];

export const CONDITION_OPTIONS = bookConditions.map((value) => ({ value, label: conditionLabels[value] }));
/** « Sans annotations », « Exercices vierges »…: each leaves out the listings with that flag. */
export const FLAG_OPTIONS = bookConditionFlags.map((value) => ({ value, label: conditionFlagFilterLabels[value] }));

/** Every filter of the catalogue, as kept in the URL (SPEC section 2). */
export interface CatalogueFilters {
  query: string;
  /** Search the text as typed, without reading levels and subjects in it. */
  literal: boolean;
  category_ids: number[];
  min_price: number | null;
  max_price: number | null;
  condition: BookCondition | null;
  /** The condition flags left out, in the order of `bookConditionFlags`. */
  without_flags: BookConditionFlag[];
  is_negociable: boolean;
  is_exchange_possible: boolean;
  sort_by: SortField;
  sort_direction: SortDirection;
  city_id: number | null;
  page: number;
}

export const DEFAULT_FILTERS: CatalogueFilters = {
  query: '',
  literal: false,
  category_ids: [],
  min_price: null,
  max_price: null,
  condition: null,
  without_flags: [],
  is_negociable: false,
  is_exchange_possible: false,
  sort_by: 'created_at',
  sort_direction: 'desc',
  city_id: null,
  page: 1,
};

function positiveInt(value: string | null, min = 0): number | null {
  if (value === null || value.trim() === '') return null;
  const n = Number(value);
  return Number.isInteger(n) && n >= min ? n : null;
}

const isTrue = (value: string | null) => value === 'true' || value === '1';

const words = (text: string) => text.split(/\s+/).filter(Boolean);

/** Why the catalogue would refuse this text (the server holds it to the same bounds), or null. */
export function searchTextProblem(text: string): string | null {
  if (text.trim().length > SEARCH_TEXT_MAX_LENGTH)
    return `La recherche ne peut pas dépasser ${SEARCH_TEXT_MAX_LENGTH} caractères.`;
  if (words(text).length > SEARCH_TEXT_MAX_WORDS)
    return `La recherche ne peut pas dépasser ${SEARCH_TEXT_MAX_WORDS} mots : gardez le titre, la matière ou le niveau.`;
  return null;
}

/** A text from a link, cut to what a search may hold rather than refused. */
function boundedText(text: string): string {
  return words(text).slice(0, SEARCH_TEXT_MAX_WORDS).join(' ').slice(0, SEARCH_TEXT_MAX_LENGTH).trim();
}

/** With a text, the most relevant first; without, the newest. */
export function defaultSort(query: string): { sort_by: SortField; sort_direction: SortDirection } {
  return query ? { sort_by: 'relevance', sort_direction: 'desc' } : { sort_by: 'created_at', sort_direction: 'desc' };
}

/** Reads the URL; unknown or malformed values are ignored rather than sent to the API. */
export function parseFilters(params: URLSearchParams): CatalogueFilters {
  const ids = (params.get('category_ids') ?? '')
    .split(',')
    .map((part) => positiveInt(part, 1))
    .filter((id): id is number => id !== null);
  const condition = params.get('condition');
  const withoutFlags = (params.get('without_flags') ?? '').split(',');
  const sortBy = params.get('sort_by');
  const direction = params.get('sort_direction');
  const query = boundedText(params.get('query') ?? '');
  const sort = defaultSort(query);
  const knownSort = SORT_FIELDS.includes(sortBy as SortField) && (sortBy !== 'relevance' || query !== '');
  return {
    query,
    literal: query !== '' && isTrue(params.get('literal')),
    category_ids: Array.from(new Set(ids)).slice(0, SEARCH_CATEGORIES_MAX),
    min_price: positiveInt(params.get('min_price')),
    max_price: positiveInt(params.get('max_price')),
    condition: bookConditions.includes(condition as BookCondition) ? (condition as BookCondition) : null,
    without_flags: bookConditionFlags.filter((flag) => withoutFlags.includes(flag)),
    is_negociable: isTrue(params.get('is_negociable')),
    is_exchange_possible: isTrue(params.get('is_exchange_possible')),
    sort_by: knownSort ? (sortBy as SortField) : sort.sort_by,
    sort_direction: knownSort && (direction === 'asc' || direction === 'desc') ? direction : sort.sort_direction,
    city_id: positiveInt(params.get('city_id'), 1),
    page: positiveInt(params.get('page'), 1) ?? 1,
  };
}

/** The URL of a set of filters: only what differs from the defaults, in a stable order. */
export function filtersToSearch(filters: CatalogueFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.query) params.set('query', filters.query);
  if (filters.query && filters.literal) params.set('literal', 'true');
  if (filters.category_ids.length) params.set('category_ids', filters.category_ids.join(','));
  if (filters.min_price !== null) params.set('min_price', String(filters.min_price));
  if (filters.max_price !== null) params.set('max_price', String(filters.max_price));
  if (filters.condition) params.set('condition', filters.condition);
  if (filters.without_flags.length) params.set('without_flags', filters.without_flags.join(','));
  if (filters.is_negociable) params.set('is_negociable', 'true');
  if (filters.is_exchange_possible) params.set('is_exchange_possible', 'true');
  const sort = defaultSort(filters.query);
  if (filters.sort_by !== sort.sort_by || filters.sort_direction !== sort.sort_direction) {
    params.set('sort_by', filters.sort_by);
    params.set('sort_direction', filters.sort_direction);
  }
  if (filters.city_id !== null) params.set('city_id', String(filters.city_id));
  if (filters.page > 1) params.set('page', String(filters.page));
  return params;
}

/** The API query of a set of filters (GET /books). */
export function filtersToQuery(filters: CatalogueFilters): BookQuery {
  return {
    query: filters.query || undefined,
    literal: filters.query && filters.literal ? 'true' : undefined,
    category_ids: filters.category_ids.length ? filters.category_ids.join(',') : undefined,
    min_price: filters.min_price ?? undefined,
    max_price: filters.max_price ?? undefined,
    condition: filters.condition ?? undefined,
    without_flags: filters.without_flags.length ? filters.without_flags.join(',') : undefined,
    is_negociable: filters.is_negociable ? 'true' : undefined,
    is_exchange_possible: filters.is_exchange_possible ? 'true' : undefined,
    sort_by: filters.sort_by,
    sort_direction: filters.sort_direction,
    city_id: filters.city_id ?? undefined,
    page: filters.page,
    per_page: PER_PAGE,
  };
}

/** Number of active filters (for the "Filtres (3)" button), the sort and the page excluded. */
export function activeFilterCount(filters: CatalogueFilters): number {
  return (
    (filters.query ? 1 : 0) +
    (filters.category_ids.length ? 1 : 0) +
    (filters.min_price !== null ? 1 : 0) +
    (filters.max_price !== null ? 1 : 0) +
    (filters.condition ? 1 : 0) +
    filters.without_flags.length +
    (filters.is_negociable ? 1 : 0) +
    (filters.is_exchange_possible ? 1 : 0) +
    (filters.city_id !== null ? 1 : 0)
  );
}
