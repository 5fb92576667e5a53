/**
 * What parents type in the search box, understood: « maths 6e », « svt 3eme », « hg terminale »,
 * « anglais cm2 », « physique chimie seconde ». Levels and subjects are recognised (accents and
 * case ignored, the everyday spellings of shared/DOMAIN.md) and turned into category filters;
 * the remaining words are the full-text part. Pure: no database, no HTTP. The categories come
 * from the category graph by name (never by id), so an administrator's new category is
 * recognised by its name, and a renamed one simply loses its aliases.
 */

export type TermKind = 'level' | 'subject';

/** A category as the parser needs it. */
export interface VocabularyCategory {
  id: number;
  name: string;
  /** Whether it is a subject (a leaf under levels) or a level, a series or a cycle. */
  kind: TermKind;
  /** Its children's ids (a level's series: « Terminale » › « Terminale D »). */
  children: number[];
}

/** One way of writing a category (or a group of them): a sequence of folded tokens. */
interface Phrase {
  tokens: string[];
  ids: number[];
  kind: TermKind;
  label: string;
  /** The written form a suggestion completes to (« 6e », « Mathématiques »). */
  display: string;
}

export interface Vocabulary {
  phrases: Phrase[];
  /** Longest phrase, in tokens. */
  longest: number;
  /** Phrases by their first token (what the parser looks up at each word). */
  byFirst: Map<string, Phrase[]>;
  /** Categories by id. */
  categories: Map<number, VocabularyCategory>;
}

export interface UnderstoodTerm {
  ids: number[];
  /** « Mathématiques », « 6e », « 4e année (CM1) ». */
  name: string;
}

export interface ParsedQuery {
  level: UnderstoodTerm | null;
  subject: UnderstoodTerm | null;
  /** The words that are neither a level nor a subject, as typed (filler words dropped). */
  text: string;
  /** Where each recognised term sits in the query (UTF-16 offsets, end exclusive). */
  spans: Array<{ start: number; end: number; kind: TermKind; ids: number[] }>;
}

/** Lower case, no accents, œ → oe: how the indexes compare texts too (cartable_unaccent). */
export function fold(text: string): string {
  return foldWithOffsets(text).folded;
}

/**
 * The folded text and, for each of its characters, the offset of the original character it
 * comes from (so a match in the folded text can be highlighted in the original).
 */
export function foldWithOffsets(text: string): { folded: string; offsets: number[] } {
  let folded = '';
  const offsets: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    const base = ch
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/œ/g, 'oe')
      .replace(/æ/g, 'ae')
      .replace(/ß/g, 'ss');
    for (const c of base) {
      folded += c;
      offsets.push(i);
    }
  }
  return { folded, offsets };
}

interface Token {
  /** Canonical form (« 6ème » → « 6e », « seconde » → « 2nde »). */
  canon: string;
  /** Offsets in the original query. */
  start: number;
  end: number;
}

const ordinalWords: Record<string, string> = {
  premier: '1re',
  premiere: '1re',
  deuxieme: '2e',
  second: '2nde',
  seconde: '2nde',
  troisieme: '3e',
  quatrieme: '4e',
  cinquieme: '5e',
  sixieme: '6e',
};
/** The spelled-out forms of a canonical token (« 2nde » → seconde, second), for completions. */
export function spelledForms(canon: string): string[] {
  return Object.entries(ordinalWords)
    .filter(([, c]) => c === canon)
    .map(([word]) => word);
}

const ordinalSuffix = /^(e|eme|ieme|em|er|ere|re|iere|nd|nde|de|d)$/;

/** « 6ème », « 6eme », « 6è », « 6 ème », « sixième » → « 6e »; « 1ère », « 1er » → « 1re »; « 2nd » → « 2nde ». */
function canonicalOrdinal(n: string, suffix: string): string | null {
  if (!ordinalSuffix.test(suffix)) return null;
  if (n === '1') return /^(er|ere|re|iere|e)$/.test(suffix) ? '1re' : null;
  if (n === '2' && /^(nd|nde|de|d)$/.test(suffix)) return '2nde';
  if (/^(e|eme|ieme|em)$/.test(suffix) && /^[2-6]$/.test(n)) return `${n}e`;
  return null;
}

const wordPattern = /[\p{L}\p{N}]+/gu;

function tokenize(query: string): Token[] {
  const { folded, offsets } = foldWithOffsets(query);
  const raw: Array<{ text: string; start: number; end: number }> = [];
  for (const m of folded.matchAll(wordPattern)) {
    const start = offsets[m.index]!;
    const last = offsets[m.index + m[0].length - 1]!;
    raw.push({ text: m[0], start, end: last + 1 });
  }
  const tokens: Token[] = [];
  for (let i = 0; i < raw.length; i++) {
    const t = raw[i]!;
    const next = raw[i + 1];
    // « 6 ème », « cm 2 »: two tokens that are one.
    if (next && /^[1-6]$/.test(t.text)) {
      const ordinal = canonicalOrdinal(t.text, next.text);
      if (ordinal) {
        tokens.push({ canon: ordinal, start: t.start, end: next.end });
        i++;
        continue;
      }
    }
    if (next && /^(cp|ce|cm)$/.test(t.text) && /^[12]$/.test(next.text)) {
      tokens.push({ canon: `${t.text}${next.text}`, start: t.start, end: next.end });
      i++;
      continue;
    }
    const glued = /^([1-6])(\p{L}+)$/u.exec(t.text);
    const canon = (glued && canonicalOrdinal(glued[1]!, glued[2]!)) ?? ordinalWords[t.text] ?? t.text;
    tokens.push({ canon: /^(annees?|ans?)$/.test(canon) ? 'annee' : canon, start: t.start, end: t.end });
  }
  return tokens;
}

/** A category name or alias as canonical tokens (« 1ère D » → ['1re', 'd']). */
export function phraseTokens(text: string): string[] {
  return tokenize(text).map((t) => t.canon);
}

/**
 * Everyday names of the seeded categories (services/catalog/src/db/school-system.ts), by the
 * category's name. The category's own name is always recognised too.
 */
const subjectAliases: Record<string, string[]> = {
  Mathématiques: ['maths', 'math', 'mathematique', 'mathematics'],
  Français: ['francais', 'french'],
  Anglais: ['english', 'ang'],
  Espagnol: ['espanol', 'spanish', 'esp'],
  'Physique-Chimie': [
    'pc',
    'pct',
    'physique',
    'chimie',
    'physique chimie',
    'physique et chimie',
    'sciences physiques',
    'science physique',
    'physiques',
  ],
  'Sciences de la vie et de la Terre': [
    'svt',
    'science de la vie et de la terre',
    'sciences naturelles',
    'sciences de la vie',
    'biologie',
  ],
  'Histoire-Géographie': [
    'hg',
    'histoire geo',
    'histo geo',
    'histoire geographie',
    'histoire et geographie',
    'histoire',
    'geographie',
    'geo',
  ],
  'Éducation civique et morale': ['ecm', 'education civique', 'instruction civique', 'civisme', 'morale'],
  Philosophie: ['philo'],
  'Sciences économiques et sociales': ['ses', 'economie', 'eco', 'sciences economiques'],
  Informatique: ['info', 'tic'],
  Lecture: ['lire', 'livre de lecture'],
  "Sciences d'observation": ['sciences d observation'],
};

const levelAliases: Record<string, string[]> = {
  Primaire: ['ecole primaire', 'primary', 'elementaire'],
  Collège: ['college'],
  Lycée: ['lycee'],
  '2nde': ['2nde'],
  '1ère': ['1re'],
  Terminale: ['tle', 'tles', 'term', 'terminal', 'tale', 'terminales'],
};

/**
 * Primary school since the 2003–2004 reform: five years, « 1re année » to « 5e année »
 * (shared/DOMAIN.md), while the catalogue's levels keep the six older names. The cycle ends with
 * the CEP in both, so they are matched from the end: 5e année = CM2, 4e = CM1, 3e = CE2, 2e = CE1,
 * and 1re année covers CP1 and CP2. « 4e année » is never collège's « 4e ».
 */
const primaryYears: Array<[string, string[]]> = [
  ['1re', ['CP1', 'CP2']],
  ['2e', ['CE1']],
  ['2nde', ['CE1']],
  ['3e', ['CE2']],
  ['4e', ['CM1']],
  ['5e', ['CM2']],
];
const primaryPairs: Array<[string, string[]]> = [
  ['cp', ['CP1', 'CP2']],
  ['ce', ['CE1', 'CE2']],
  ['cm', ['CM1', 'CM2']],
];

/** Words that say nothing once a level or a subject is understood (« livre de maths 6e »). */
const fillers = new Set([
  'livre',
  'livres',
  'manuel',
  'manuels',
  'bouquin',
  'bouquins',
  'cahier',
  'de',
  'des',
  'du',
  'd',
  'en',
  'pour',
  'la',
  'le',
  'les',
  'l',
  'et',
  'a',
  'classe',
  'niveau',
  'serie',
  'cours',
]);

/** The vocabulary of the current categories (build it once per category view). */
export function buildVocabulary(categories: VocabularyCategory[]): Vocabulary {
  const byId = new Map(categories.map((c) => [c.id, c]));
  const byFolded = new Map<string, VocabularyCategory>();
  for (const c of categories) if (!byFolded.has(fold(c.name))) byFolded.set(fold(c.name), c);
  const named = (name: string) => byFolded.get(fold(name));
  const phrases: Phrase[] = [];
  const add = (tokens: string[], cats: VocabularyCategory[], label: string, display: string) => {
    if (!tokens.length || !cats.length) return;
    phrases.push({ tokens, ids: cats.map((c) => c.id), kind: cats[0]!.kind, label, display });
  };
  const aliasesOf = (c: VocabularyCategory) => {
    const table = c.kind === 'subject' ? subjectAliases : levelAliases;
    const key = Object.keys(table).find((k) => fold(k) === fold(c.name));
    return [c.name, ...(key ? table[key]! : [])];
  };
  for (const c of categories) {
    const aliases = aliasesOf(c);
    for (const alias of aliases) add(phraseTokens(alias), [c], c.name, c.name);
    // A level's series: « Terminale D » also as « tle d », « term d ».
    if (c.kind === 'level') {
      const own = phraseTokens(c.name);
      for (const childId of c.children) {
        const child = byId.get(childId);
        if (child?.kind !== 'level') continue;
        const childTokens = phraseTokens(child.name);
        if (childTokens.length <= own.length || own.some((t, i) => childTokens[i] !== t)) continue;
        const suffix = childTokens.slice(own.length);
        for (const alias of aliases) add([...phraseTokens(alias), ...suffix], [child], child.name, child.name);
      }
    }
  }
  for (const [ordinal, names] of primaryYears) {
    const cats = names.map(named).filter((c) => c !== undefined);
    if (cats.length !== names.length) continue;
    const year = `${ordinal === '2nde' ? '2e' : ordinal} année`;
    const label = `${year} (${names.join(', ')})`;
    add([ordinal, 'annee'], cats, label, year);
    add([ordinal, 'annee', 'primaire'], cats, label, year);
  }
  for (const [pair, names] of primaryPairs) {
    const cats = names.map(named).filter((c) => c !== undefined);
    if (cats.length === names.length) add([pair], cats, names.join(', '), names.join(', '));
  }
  const byFirst = new Map<string, Phrase[]>();
  for (const phrase of phrases) byFirst.set(phrase.tokens[0]!, [...(byFirst.get(phrase.tokens[0]!) ?? []), phrase]);
  return { phrases, longest: Math.max(1, ...phrases.map((p) => p.tokens.length)), byFirst, categories: byId };
}

function matchAt(tokens: Token[], at: number, vocabulary: Vocabulary): Phrase | null {
  let best: Phrase | null = null;
  for (const phrase of vocabulary.byFirst.get(tokens[at]!.canon) ?? []) {
    if (phrase.tokens.length > tokens.length - at) continue;
    if (best && phrase.tokens.length <= best.tokens.length) continue;
    if (phrase.tokens.every((t, i) => tokens[at + i]!.canon === t)) best = phrase;
  }
  return best;
}

function merge(terms: Phrase[]): UnderstoodTerm | null {
  if (!terms.length) return null;
  const ids = [...new Set(terms.flatMap((t) => t.ids))];
  const names = [...new Set(terms.map((t) => t.label))];
  return { ids, name: names.join(', ') };
}

/** The query as levels, subjects and the remaining text. */
export function parseQuery(query: string, vocabulary: Vocabulary): ParsedQuery {
  const tokens = tokenize(query);
  const levels: Phrase[] = [];
  const subjects: Phrase[] = [];
  const spans: ParsedQuery['spans'] = [];
  const rest: Token[] = [];
  for (let i = 0; i < tokens.length; ) {
    const phrase = matchAt(tokens, i, vocabulary);
    if (!phrase) {
      rest.push(tokens[i]!);
      i++;
      continue;
    }
    (phrase.kind === 'level' ? levels : subjects).push(phrase);
    const last = tokens[i + phrase.tokens.length - 1]!;
    spans.push({ start: tokens[i]!.start, end: last.end, kind: phrase.kind, ids: phrase.ids });
    i += phrase.tokens.length;
  }
  const understood = levels.length + subjects.length > 0;
  const words = rest.filter((t) => !(understood && fillers.has(t.canon))).map((t) => query.slice(t.start, t.end));
  return { level: merge(levels), subject: merge(subjects), text: words.join(' '), spans };
}

/** The typed text as canonical tokens (for suggestions). */
export function queryTokens(query: string): Array<{ canon: string; start: number; end: number }> {
  return tokenize(query);
}

/** Every phrase (for completions and « Vouliez-vous dire »). */
export function vocabularyPhrases(vocabulary: Vocabulary): ReadonlyArray<Readonly<Phrase>> {
  return vocabulary.phrases;
}

/**
 * pg_trgm's similarity in JavaScript (lower case words, padded with two spaces before and one
 * after, trigram sets compared): the same figure PostgreSQL gives, for the in-memory vocabulary.
 */
export function trigramSimilarity(a: string, b: string): number {
  const grams = (s: string) => {
    const set = new Set<string>();
    for (const word of fold(s).match(/[\p{L}\p{N}]+/gu) ?? []) {
      const padded = `  ${word} `;
      for (let i = 0; i + 3 <= padded.length; i++) set.add(padded.slice(i, i + 3));
    }
    return set;
  };
  const x = grams(a);
  const y = grams(b);
  if (!x.size || !y.size) return 0;
  let common = 0;
  for (const g of x) if (y.has(g)) common++;
  return common / (x.size + y.size - common);
}
