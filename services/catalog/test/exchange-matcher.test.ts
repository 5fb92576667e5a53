import { describe, expect, it } from 'vitest';
import {
  findExchanges,
  type MatcherMember,
  type MatcherOffer,
  type MatcherWish,
  suggestionSignature,
} from '../src/modules/exchanges/domain/matcher.ts';

// Libreville (1) and Owendo (2) are in Estuaire (10); Franceville (3) in Haut-Ogooué (20).
const member = (id: string, cityId: number, provinceId: number): MatcherMember => ({ id, cityId, provinceId });
let nextBook = 1;
const offer = (userId: string, title: string, extra: Partial<MatcherOffer> = {}): MatcherOffer => ({
  bookId: nextBook++,
  userId,
  titleKey: title,
  isbnKey: null,
  categoryIds: [],
  cityId: null,
  provinceId: null,
  ...extra,
});
let nextWish = 1;
const wish = (userId: string, title: string | null, extra: Partial<MatcherWish> = {}): MatcherWish => ({
  id: nextWish++,
  userId,
  label: title ?? 'niveau et matière',
  titleKey: title,
  isbnKey: null,
  levelId: null,
  subjectId: null,
  ...extra,
});

describe('exchange matcher', () => {
  it('never puts together two members one of whom blocked the other', () => {
    const members = [member('awa', 1, 10), member('brice', 1, 10), member('chantal', 1, 10)];
    const offers = [offer('awa', 'maths6e'), offer('brice', 'francais5e'), offer('chantal', 'svt4e')];
    const pairWishes = [wish('awa', 'francais5e'), wish('brice', 'maths6e')];
    const blocked = (a: string, b: string) => [a, b].sort().join('|') === 'awa|brice';
    expect(findExchanges(members, offers, pairWishes, { blocked })).toEqual([]);
    // Nor in a cycle of three: awa gets from brice, brice from chantal, chantal from awa.
    const cycleWishes = [wish('awa', 'francais5e'), wish('brice', 'svt4e'), wish('chantal', 'maths6e')];
    expect(findExchanges(members, offers, cycleWishes)).toHaveLength(1);
    expect(findExchanges(members, offers, cycleWishes, { blocked })).toEqual([]);
  });

  it('pairs two members of one town who each hold what the other looks for', () => {
    const members = [member('awa', 1, 10), member('brice', 1, 10)];
    const offers = [offer('awa', 'maths6e'), offer('brice', 'francais5e')];
    const wishes = [wish('awa', 'francais5e'), wish('brice', 'maths6e')];
    const [found, ...rest] = findExchanges(members, offers, wishes);
    expect(rest).toEqual([]);
    expect(found).toMatchObject({ kind: 'pair', sameCity: true, cityId: 1 });
    expect(found!.legs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ from: 'brice', to: 'awa', bookId: offers[1]!.bookId }),
        expect.objectContaining({ from: 'awa', to: 'brice', bookId: offers[0]!.bookId }),
      ]),
    );
  });

  it('matches by ISBN, by a list title that starts the listing’s, and by level + subject', () => {
    const members = [member('a', 1, 10), member('b', 2, 10), member('c', 1, 10), member('d', 1, 10)];
    const offers = [
      offer('a', 'autre', { isbnKey: '9782011111111' }),
      offer('b', 'mathematiquescollectionexcellence6eedition2024'),
      offer('c', 'livre', { categoryIds: [6, 60] }),
      offer('d', 'cahier'),
    ];
    const wishes = [
      wish('b', 'nimportequoi', { isbnKey: '9782011111111' }),
      wish('a', 'mathematiquescollectionexcellence6e'),
      wish('d', null, { levelId: 6, subjectId: 60 }),
      wish('c', 'cahier'),
    ];
    const found = findExchanges(members, offers, wishes);
    expect(found.map((s) => s.kind)).toEqual(['pair', 'pair']);
    // a and b are in two towns of one province: still a pair, not « same town ».
    expect(found.find((s) => s.legs.some((l) => l.from === 'a'))).toMatchObject({ sameCity: false, provinceId: 10 });
  });

  it('never pairs across provinces, nor a member with themselves', () => {
    const members = [member('awa', 1, 10), member('joel', 3, 20), member('solo', 1, 10)];
    const offers = [offer('awa', 'x'), offer('joel', 'y'), offer('solo', 'z')];
    const wishes = [wish('awa', 'y'), wish('joel', 'x'), wish('solo', 'z')];
    expect(findExchanges(members, offers, wishes)).toEqual([]);
  });

  it('finds a cycle of three when no pair exists, and each listing goes to one suggestion', () => {
    const members = [member('a', 1, 10), member('b', 1, 10), member('c', 2, 10)];
    const offers = [offer('a', 'livrea'), offer('b', 'livreb'), offer('c', 'livrec')];
    // a wants b's, b wants c's, c wants a's.
    const wishes = [wish('a', 'livreb'), wish('b', 'livrec'), wish('c', 'livrea')];
    const found = findExchanges(members, offers, wishes);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ kind: 'cycle', sameCity: false });
    expect(found[0]!.legs.map((l) => `${l.from}>${l.to}`).sort()).toEqual(['a>c', 'b>a', 'c>b']);
  });

  it('prefers pairs to cycles, and a pair in one town to one across the province', () => {
    const members = [member('a', 1, 10), member('b', 2, 10), member('c', 1, 10)];
    const offers = [offer('a', 'x'), offer('b', 'y'), offer('c', 'y')];
    const wishes = [wish('a', 'y'), wish('b', 'x'), wish('c', 'x')];
    const [first, ...rest] = findExchanges(members, offers, wishes);
    expect(rest).toEqual([]);
    expect(first).toMatchObject({ kind: 'pair', sameCity: true });
    expect(first!.legs.map((l) => l.from).sort()).toEqual(['a', 'c']);
  });

  it('does not suggest again what was declined, nor listings already promised', () => {
    const members = [member('awa', 1, 10), member('brice', 1, 10)];
    const offers = [offer('awa', 'm'), offer('brice', 'f')];
    const wishes = [wish('awa', 'f'), wish('brice', 'm')];
    const [first] = findExchanges(members, offers, wishes);
    expect(findExchanges(members, offers, wishes, { refused: new Set([first!.signature]) })).toEqual([]);
    expect(findExchanges(members, offers, wishes, { taken: new Set([offers[0]!.bookId]) })).toEqual([]);
    expect(first!.signature).toBe(suggestionSignature([...first!.legs].reverse()));
  });

  it('steps around a declined suggestion with another listing of the same member', () => {
    const members = [member('awa', 1, 10), member('brice', 1, 10)];
    const first = offer('brice', 'f');
    const second = offer('brice', 'f');
    const offers = [offer('awa', 'm'), first, second];
    const wishes = [wish('awa', 'f'), wish('brice', 'm')];
    const [declined] = findExchanges(members, offers, wishes);
    expect(declined!.legs.map((l) => l.bookId)).toContain(first.bookId);
    const [again] = findExchanges(members, offers, wishes, { refused: new Set([declined!.signature]) });
    expect(again!.legs.map((l) => l.bookId)).toContain(second.bookId);
  });
});
