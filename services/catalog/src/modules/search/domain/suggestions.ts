import type { BookSuggestion } from '@cartable/contracts';
import { Cache, type Db } from '@cartable/service-kit';
import type { CategoryStore, CategoryView } from '../../taxonomy/index.ts';
import * as queries from '../db/queries.ts';
import { understoodCategorySets, vocabularyOf } from './planner.ts';
import {
  fold,
  foldWithOffsets,
  parseQuery,
  queryTokens,
  spelledForms,
  type TermKind,
  type Vocabulary,
} from './query-parser.ts';

export const DEFAULT_SUGGESTIONS = 8;
const MAX_CATEGORY_SUGGESTIONS = 4;
/** Title suggestions are grouped over at most this many matching books (a common word matches thousands). */
const TITLE_SAMPLE = 200;

type Range = [number, number];

/**
 * The parts of `label` that match what was typed: each word of the label that begins like a
 * typed word (« maths » marks « Math » of « Mathématiques », « 6 » marks « 6 » of « 6e »), accents
 * and case ignored. Ranges are offsets in `label`.
 */
export function highlightRanges(label: string, typed: string): Range[] {
  const words = [...new Set((fold(typed).match(/[\p{L}\p{N}]+/gu) ?? []).filter(Boolean))];
  const { folded, offsets } = foldWithOffsets(label);
  const ranges: Range[] = [];
  for (const m of folded.matchAll(/[\p{L}\p{N}]+/gu)) {
    let best = 0;
    for (const w of words) {
      let n = 0;
      while (n < w.length && n < m[0].length && w[n] === m[0][n]) n++;
      // A whole typed word, or a shared stem of three letters or more (« maths » / « mathématiques »).
      if ((n === w.length || n >= 3) && n > best) best = n;
    }
    if (best > 0) {
      const start = offsets[m.index]!;
      const end = offsets[m.index + best - 1]! + 1;
      const last = ranges.at(-1);
      if (last && last[1] >= start) last[1] = Math.max(last[1], end);
      else ranges.push([start, end]);
    }
  }
  return ranges;
}

const shift = (ranges: Range[], by: number): Range[] => ranges.map(([a, b]) => [a + by, b + by]);

interface Term {
  kind: TermKind;
  ids: number[];
  name: string;
  /** Marks in `name`. */
  marks: Range[];
}

/** A term's marks: where its name begins like the typed text, or the whole name when it was an abbreviation (« svt »). */
function termMarks(name: string, typed: string): Range[] {
  const ranges = highlightRanges(name, typed);
  return ranges.length ? ranges : [[0, name.length]];
}

function combine(level: Term | null, subject: Term | null, rest: string): BookSuggestion {
  const parts = [subject, level].filter((t): t is Term => t !== null);
  let label = '';
  const highlights: Range[] = [];
  for (const part of parts) {
    if (label) label += ' · ';
    highlights.push(...shift(part.marks, label.length));
    label += part.name;
  }
  const query = [...parts.map((p) => p.name), rest].filter(Boolean).join(' ');
  return {
    kind: level && subject ? 'filter' : (parts[0]?.kind ?? 'level'),
    label: rest ? `${label} · « ${rest} »` : label,
    highlights,
    query,
    category_ids: parts.flatMap((p) => p.ids),
  };
}

const forms = new WeakMap<Vocabulary, Array<{ phrase: Vocabulary['phrases'][number]; written: string[] }>>();

/** Each phrase as it may be typed: its tokens, and with a spelled-out first word (« sec » completes « seconde », 2nde). */
function completionForms(vocabulary: Vocabulary) {
  let list = forms.get(vocabulary);
  if (!list) {
    list = vocabulary.phrases.map((phrase) => {
      const [first, ...others] = phrase.tokens;
      const written = [phrase.tokens, ...spelledForms(first!).map((word) => [word, ...others])].map((t) => t.join(' '));
      return { phrase, written };
    });
    forms.set(vocabulary, list);
  }
  return list;
}

/**
 * What the search box proposes while typing: the level and subject the text names or begins to
 * name (« maths 6 » → Mathématiques · 6e), then titles of books on sale that match (the
 * understood categories, and each remaining word as a substring over the title's trigram
 * index), each with the typed part marked. Kept 30 s per text, until the listings or the
 * categories change (`cache.clear`, wired in search.ts).
 */
export function searchSuggestions(db: Db, categories: CategoryStore) {
  const cache = new Cache<string, BookSuggestion[]>({ max: 2000, ttlMs: 30_000 });
  return {
    cache,
    suggest: async (q: string, limit = DEFAULT_SUGGESTIONS) => {
      const key = `${limit}:${fold(q).replace(/\s+/g, ' ')}${/\s$/.test(q) ? ' ' : ''}`;
      return cache.read(key, async () => suggest(db, await categories.view(), q, limit));
    },
  };
}

async function suggest(db: Db, view: CategoryView, q: string, limit: number): Promise<BookSuggestion[]> {
  const vocabulary = vocabularyOf(view.graph);
  const parsed = parseQuery(q, vocabulary);
  const typedOf = (ids: number[]) =>
    parsed.spans
      .filter((s) => s.ids.join() === ids.join())
      .map((s) => q.slice(s.start, s.end))
      .join(' ');
  const understood = (kind: TermKind): Term | null => {
    const term = kind === 'level' ? parsed.level : parsed.subject;
    if (!term) return null;
    const typed = typedOf(term.ids) || q;
    return { kind, ids: term.ids, name: term.name, marks: termMarks(term.name, typed) };
  };
  const out: BookSuggestion[] = [];
  const seen = new Set<string>();
  const push = (s: BookSuggestion) => {
    if (seen.has(s.label)) return;
    seen.add(s.label);
    out.push(s);
  };
  const level = understood('level');
  const subject = understood('subject');
  const tokens = queryTokens(q);
  const last = tokens.at(-1);
  // The last word is still being typed (« maths 6 »): its completions say it better than the text.
  const typing = Boolean(last) && !/\s$/.test(q) && !parsed.spans.some((span) => span.end >= last!.end);
  if ((level || subject) && !typing) push(combine(level, subject, parsed.text));

  // Completions of the last words: « 6 » → 6e, « sciences de la v » → Sciences de la vie et de la Terre.
  // The first one also narrows the titles (« maths 6 »: the 6e maths books, over the category index).
  let completed: TitleFilter | null = null;
  if (tokens.length && !/\s$/.test(q)) {
    // paired: the words before name the other kind (« svt 3 »): the term is offered with it, never alone.
    const found = new Map<string, { term: Term; before: string; paired: boolean }>();
    for (let k = Math.min(vocabulary.longest, tokens.length); k >= 1; k--) {
      const tail = tokens.slice(-k);
      const typedTail = tail.map((t) => t.canon).join(' ');
      const before = q.slice(0, tail[0]!.start);
      const context = parseQuery(before, vocabulary);
      for (const { phrase, written } of completionForms(vocabulary)) {
        if (!written.some((w) => w.startsWith(typedTail)) || found.has(phrase.ids.join())) continue;
        if (found.size >= MAX_CATEGORY_SUGGESTIONS * 2) break;
        const typed = q.slice(tail[0]!.start);
        found.set(phrase.ids.join(), {
          term: { kind: phrase.kind, ids: phrase.ids, name: phrase.display, marks: termMarks(phrase.display, typed) },
          before: context.text,
          paired: Boolean(phrase.kind === 'level' ? context.subject : context.level),
        });
        const other = phrase.kind === 'level' ? context.subject : context.level;
        if (other) {
          const otherTerm: Term = {
            kind: phrase.kind === 'level' ? 'subject' : 'level',
            ids: other.ids,
            name: other.name,
            marks: termMarks(other.name, before),
          };
          const levelIds = phrase.kind === 'level' ? phrase.ids : other.ids;
          const subjectIds = phrase.kind === 'level' ? other.ids : phrase.ids;
          // Only a pair the catalogue has: the subject is taught in that level.
          const taught = levelIds.some((l) => subjectIds.some((s) => view.graph.descendants(l).includes(s) || l === s));
          if (!taught) continue;
          const t = found.get(phrase.ids.join())!.term;
          push(combine(phrase.kind === 'level' ? t : otherTerm, phrase.kind === 'level' ? otherTerm : t, context.text));
          completed ??= { levelIds, subjectIds, text: context.text };
        }
      }
    }
    const terms = [...found.values()]
      .filter((f) => !f.paired)
      .sort((a, b) => a.term.name.length - b.term.name.length)
      .slice(0, MAX_CATEGORY_SUGGESTIONS);
    for (const { term, before } of terms) {
      push(combine(term.kind === 'level' ? term : null, term.kind === 'subject' ? term : null, before));
      completed ??= {
        levelIds: term.kind === 'level' ? term.ids : [],
        subjectIds: term.kind === 'subject' ? term.ids : [],
        text: before,
      };
    }
    if ((level || subject) && typing && found.size === 0) push(combine(level, subject, parsed.text));
  }

  const room = limit - Math.min(out.length, MAX_CATEGORY_SUGGESTIONS);
  const typed: TitleFilter = {
    levelIds: parsed.level?.ids ?? [],
    subjectIds: parsed.subject?.ids ?? [],
    text: parsed.text,
  };
  let titles: BookSuggestion[] = [];
  if (room > 0 && typing && completed) titles = await titleSuggestions(db, view, completed, q, room);
  if (room > 0 && !titles.length) titles = await titleSuggestions(db, view, typed, q, room);
  return [...out.slice(0, limit - titles.length), ...titles].slice(0, limit);
}

/** The categories and words that select title suggestions. */
interface TitleFilter {
  levelIds: number[];
  subjectIds: number[];
  text: string;
}

async function titleSuggestions(
  db: Db,
  view: CategoryView,
  filter: TitleFilter,
  q: string,
  limit: number,
): Promise<BookSuggestion[]> {
  const words = (fold(filter.text).match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 6);
  const categorised = filter.levelIds.length + filter.subjectIds.length > 0;
  // Only words of three letters or more reach the trigram index; a shorter one would make
  // PostgreSQL read a whole category looking for a rare substring (« go f »: 200 ms).
  const long = words.filter((w) => w.length >= 3);
  if (!long.length && (words.length || !categorised)) return [];
  const rows = await queries.titleSuggestions(db, {
    categorySets: understoodCategorySets(filter, view.graph),
    words: long,
    typed: fold(q).trim(),
    sample: TITLE_SAMPLE,
    limit,
  });
  return rows.map((r) => ({
    kind: 'title' as const,
    label: r.title,
    highlights: highlightRanges(r.title, q),
    query: r.title,
    category_ids: [],
  }));
}
