import { describe, expect, it } from 'vitest';
import { vocabularyOf } from '../src/modules/search/domain/planner.ts';
import { fold, parseQuery, trigramSimilarity } from '../src/modules/search/domain/query-parser.ts';
import { highlightRanges } from '../src/modules/search/domain/suggestions.ts';
import { CategoryGraph } from '../src/modules/taxonomy/domain/category-graph.ts';
import { kindOf } from '../src/modules/taxonomy/index.ts';
import { seededGraph } from './fixtures/seeded-graph.ts';

const { graph, id } = seededGraph();
const vocabulary = vocabularyOf(graph);
const parse = (q: string) => {
  const p = parseQuery(q, vocabulary);
  return { level: p.level?.ids ?? [], subject: p.subject?.ids ?? [], text: p.text, levelName: p.level?.name };
};

describe('what a category is', () => {
  it('tells subjects from levels, series and cycles by the graph', () => {
    expect(kindOf(graph, id('Mathématiques'))).toBe('subject');
    expect(kindOf(graph, id('Philosophie'))).toBe('subject');
    expect(kindOf(graph, id('6e'))).toBe('level');
    expect(kindOf(graph, id('Terminale D'))).toBe('level');
    expect(kindOf(graph, id('Collège'))).toBe('level');
  });
});

describe('parsing what parents type', () => {
  it.each([
    ['maths 6e', '6e', 'Mathématiques'],
    ['Maths 6ème', '6e', 'Mathématiques'],
    ['math 6eme', '6e', 'Mathématiques'],
    ['mathématiques sixième', '6e', 'Mathématiques'],
    ['MATHS 6è', '6e', 'Mathématiques'],
    ['maths 6 ème', '6e', 'Mathématiques'],
    ['svt 3eme', '3e', 'Sciences de la vie et de la Terre'],
    ['SVT troisième', '3e', 'Sciences de la vie et de la Terre'],
    ['hg terminale', 'Terminale', 'Histoire-Géographie'],
    ['histoire-géo tle', 'Terminale', 'Histoire-Géographie'],
    ['histoire géographie 3e', '3e', 'Histoire-Géographie'],
    ['anglais cm2', 'CM2', 'Anglais'],
    ['anglais CM 2', 'CM2', 'Anglais'],
    ['physique chimie seconde', '2nde', 'Physique-Chimie'],
    ['physique-chimie 2nde', '2nde', 'Physique-Chimie'],
    ['pc 2nd', '2nde', 'Physique-Chimie'],
    ['PC terminale D', 'Terminale D', 'Physique-Chimie'],
    ['maths tle d', 'Terminale D', 'Mathématiques'],
    ['maths Tle C', 'Terminale C', 'Mathématiques'],
    ['svt 1ère D', '1ère D', 'Sciences de la vie et de la Terre'],
    ['francais 1re', '1ère', 'Français'],
    ['français première', '1ère', 'Français'],
    ['ecm 5e', '5e', 'Éducation civique et morale'],
    ['éducation civique cinquième', '5e', 'Éducation civique et morale'],
    ['philo terminale', 'Terminale', 'Philosophie'],
    ['lecture CP1', 'CP1', 'Lecture'],
    ['espagnol 4e', '4e', 'Espagnol'],
  ])('« %s » is level %s and subject %s, no text left', (q, level, subject) => {
    const p = parse(q);
    expect(p.level).toEqual([id(level)]);
    expect(p.subject).toEqual([id(subject)]);
    expect(p.text).toBe('');
  });

  it('reads primary school years as the primary levels, never as collège (DOMAIN.md)', () => {
    expect(parse('maths 4e année').level).toEqual([id('CM1')]);
    expect(parse('maths 4e').level).toEqual([id('4e')]);
    expect(parse('français 5ème année').level).toEqual([id('CM2')]);
    expect(parse('français 5e').level).toEqual([id('5e')]);
    expect(parse('lecture 1ère année').level).toEqual([id('CP1'), id('CP2')]);
    expect(parse('1re').level).toEqual([id('1ère')]);
    expect(parse('maths deuxième année').level).toEqual([id('CE1')]);
    expect(parse('maths 3e annee').level).toEqual([id('CE2')]);
    expect(parse('maths 3e').level).toEqual([id('3e')]);
    expect(parse('4e année').levelName).toBe('4e année (CM1)');
  });

  it('keeps the other words as the text, as typed', () => {
    expect(parse('maths 6e Collection Excellence')).toMatchObject({
      level: [id('6e')],
      subject: [id('Mathématiques')],
      text: 'Collection Excellence',
    });
    expect(parse('annales svt tle d')).toMatchObject({ level: [id('Terminale D')], text: 'annales' });
    expect(parse('livre de maths pour la 6e').text).toBe('');
  });

  it('leaves a text with neither level nor subject alone', () => {
    expect(parse('Réussir le CEP')).toEqual({ level: [], subject: [], text: 'Réussir le CEP', levelName: undefined });
    expect(parse('de la')).toMatchObject({ text: 'de la' });
    expect(parse('2e').level).toEqual([]);
  });

  it('recognises cycles and pairs of primary levels', () => {
    expect(parse('maths collège').level).toEqual([id('Collège')]);
    expect(parse('lycée').level).toEqual([id('Lycée')]);
    expect(parse('lecture cp').level).toEqual([id('CP1'), id('CP2')]);
  });

  it('follows the categories, not a fixed list: a new category is recognised by its name', () => {
    const g = new CategoryGraph(
      [
        { id: 1, name: 'Collège', order: 0 },
        { id: 2, name: '6e', order: 1 },
        { id: 3, name: 'Musique', order: 2 },
      ],
      [
        { categoryId: 2, parentId: 1 },
        { categoryId: 3, parentId: 2 },
      ],
    );
    const p = parseQuery('musique 6ème', vocabularyOf(g));
    expect(p.subject?.ids).toEqual([3]);
    expect(p.level?.ids).toEqual([2]);
    // Mathématiques is not a category here: « maths » stays text.
    expect(parseQuery('maths', vocabularyOf(g)).text).toBe('maths');
  });

  it('says where each term sits in the query', () => {
    const q = 'Maths 6ème';
    const p = parseQuery(q, vocabulary);
    expect(p.spans.map((s) => q.slice(s.start, s.end))).toEqual(['Maths', '6ème']);
  });
});

describe('folding and similarity', () => {
  it('folds accents, case and ligatures', () => {
    expect(fold('Éducation Œuvre CÉ1')).toBe('education oeuvre ce1');
  });
  it('computes pg_trgm similarity', () => {
    expect(trigramSimilarity('philosofie', 'philosophie')).toBeGreaterThan(0.5);
    expect(trigramSimilarity('maths', 'maths')).toBe(1);
    expect(trigramSimilarity('xyz', 'maths')).toBe(0);
  });
  it('marks what was typed in a label', () => {
    expect(highlightRanges('Mathématiques 6e – Collection Excellence', 'maths 6')).toEqual([
      [0, 4],
      [14, 15],
    ]);
    expect(highlightRanges('Français 6e', 'francais')).toEqual([[0, 8]]);
  });
});
