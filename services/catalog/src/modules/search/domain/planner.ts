import type { BookListQuery, SearchInterpretation } from '@cartable/contracts';
import type { Db } from '@cartable/service-kit';
import { type CategoryGraph, type CategoryView, kindOf } from '../../taxonomy/index.ts';
import { closestTitleWord } from '../db/queries.ts';
import {
  buildVocabulary,
  fold,
  type ParsedQuery,
  parseQuery,
  queryTokens,
  trigramSimilarity,
  type Vocabulary,
} from './query-parser.ts';

const vocabularies = new WeakMap<CategoryGraph, Vocabulary>();

/**
 * Queries as parsed, per vocabulary (read only): the same words come back page after page, with
 * other filters (a tenth of a listing page's CPU was parsing « mathématiques » again).
 */
const parsedQueries = new WeakMap<Vocabulary, Map<string, ParsedQuery>>();
const PARSED_KEPT = 1000;
function parsedQuery(text: string, graph: CategoryGraph): ParsedQuery {
  const vocabulary = vocabularyOf(graph);
  let kept = parsedQueries.get(vocabulary);
  if (!kept) {
    kept = new Map();
    parsedQueries.set(vocabulary, kept);
  }
  let parsed = kept.get(text);
  if (!parsed) {
    if (kept.size >= PARSED_KEPT) kept.clear();
    parsed = parseQuery(text, vocabulary);
    kept.set(text, parsed);
  }
  return parsed;
}

/** The parser's vocabulary for this graph, built once per category view. */
export function vocabularyOf(graph: CategoryGraph): Vocabulary {
  let vocabulary = vocabularies.get(graph);
  if (!vocabulary) {
    vocabulary = buildVocabulary(
      [...graph.nodes.values()].map((n) => ({
        id: n.id,
        name: n.name,
        kind: kindOf(graph, n.id),
        children: n.children,
      })),
    );
    vocabularies.set(graph, vocabulary);
  }
  return vocabulary;
}

/** Category filters understood from the text: each non-empty list is one condition (any of its categories). */
export interface UnderstoodFilter {
  levelIds: number[];
  subjectIds: number[];
}

export interface SearchPlan {
  /** The request with the understood words taken out of `query`. */
  query: BookListQuery;
  filter: UnderstoodFilter;
  /** Null when the explicit filters took both kinds' place (the words are still dropped). */
  interpreted: SearchInterpretation | null;
}

/**
 * The request as understood: levels and subjects of its text become category filters, the other
 * words stay the text. A kind the request already filters on explicitly (category_ids) wins over
 * the parsed one, whose words are then dropped. Null when nothing in the text is a level or a
 * subject, or when the request asks for the literal text.
 */
export function planSearch(query: BookListQuery, view: CategoryView): SearchPlan | null {
  if (!query.query || query.literal) return null;
  const parsed = parsedQuery(query.query, view.graph);
  if (!parsed.level && !parsed.subject) return null;
  const explicit = [...(query.category_ids ?? []), ...(query.category_id ? [query.category_id] : [])].filter((id) =>
    view.graph.has(id),
  );
  const explicitKinds = new Set(explicit.map((id) => kindOf(view.graph, id)));
  const level = explicitKinds.has('level') ? null : parsed.level;
  const subject = explicitKinds.has('subject') ? null : parsed.subject;
  const text = parsed.text.trim();
  return {
    query: { ...query, query: text || undefined },
    filter: { levelIds: level?.ids ?? [], subjectIds: subject?.ids ?? [] },
    interpreted:
      level || subject
        ? {
            level: level ? { name: level.name, category_ids: level.ids } : null,
            subject: subject ? { name: subject.name, category_ids: subject.ids } : null,
            text,
          }
        : null,
  };
}

/**
 * The understood filters as sets of categories, each one condition: a book in (or below) any of
 * the level's categories, and any of the subject's.
 */
export function understoodCategorySets(filter: UnderstoodFilter | null, graph: CategoryGraph): number[][] {
  if (!filter) return [];
  return [filter.levelIds, filter.subjectIds]
    .filter((ids) => ids.length > 0)
    .map((ids) => [...new Set(ids.flatMap((id) => graph.within(id)))]);
}

const SIMILAR_ENOUGH = 0.3;
/** Words of a query looked up in the titles, at most (each is one indexed query). */
const MAX_WORDS_LOOKED_UP = 6;

/**
 * « Vouliez-vous dire … »: the query with each unknown word replaced by the closest known one,
 * from the levels and subjects (in memory) and the words of the titles on sale (pg_trgm, over
 * the title's trigram index), or null when no word has a close enough neighbour.
 */
export async function didYouMean(db: Db, view: CategoryView, query: string): Promise<string | null> {
  const vocabulary = vocabularyOf(view.graph);
  const parsed = parseQuery(query, vocabulary);
  const known = (start: number) => parsed.spans.some((s) => start >= s.start && start < s.end);
  const words = vocabulary.phrases.map((p) => p.tokens.join(' '));
  // A word shows as its category's name when that name is one word too (« mathematique » →
  // Mathématiques), else as the word itself (« physique », not Physique-Chimie).
  const displays = new Map(
    vocabulary.phrases.map((p) => [
      p.tokens.join(' '),
      fold(p.display) === p.tokens.join(' ') || (p.tokens.length === 1 && /^[\p{L}\p{N}]+$/u.test(p.display))
        ? p.display
        : null,
    ]),
  );
  let changed = false;
  let lookups = 0;
  let corrected = '';
  let at = 0;
  for (const token of queryTokens(query)) {
    corrected += query.slice(at, token.start);
    at = token.end;
    const typed = query.slice(token.start, token.end);
    if (known(token.start) || fold(typed).length < 3 || /^\d+$/.test(typed)) {
      corrected += typed;
      continue;
    }
    let best = { word: typed, score: 0 };
    for (const w of words) {
      const score = trigramSimilarity(typed, w);
      if (score > best.score) best = { word: displays.get(w) ?? w, score };
    }
    if (best.score < 1 && lookups++ < MAX_WORDS_LOOKED_UP) {
      const fromTitles = await closestTitleWord(db, fold(typed));
      if (fromTitles && fromTitles.score > best.score) best = fromTitles;
    }
    if (best.score >= SIMILAR_ENOUGH && fold(best.word) !== fold(typed)) {
      corrected += best.word;
      changed = true;
    } else corrected += typed;
  }
  corrected += query.slice(at);
  return changed ? corrected.trim() : null;
}
