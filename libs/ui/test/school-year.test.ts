// @vitest-environment jsdom
import { schoolSeasonOf } from '@cartable/contracts/school-year';
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { SchoolYearCard } from '../src/components/SchoolYearCard';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const mounted: (() => void)[] = [];
afterEach(() => {
  for (const unmount of mounted.splice(0)) unmount();
});

describe('the school year', () => {
  it('sells in June and July, buys from August to October, keeps the rest of the year, on Libreville’s clock', () => {
    // 23:30 on 31 May in UTC is already 1 June in Libreville (UTC+1).
    expect(schoolSeasonOf(new Date('2027-05-31T22:59:00Z'))).toBe('garder');
    expect(schoolSeasonOf(new Date('2027-05-31T23:30:00Z'))).toBe('vendre');
    expect(schoolSeasonOf(new Date('2027-07-31T22:59:00Z'))).toBe('vendre');
    expect(schoolSeasonOf(new Date('2027-07-31T23:00:00Z'))).toBe('acheter');
    expect(schoolSeasonOf(new Date('2027-10-31T12:00:00Z'))).toBe('acheter');
    expect(schoolSeasonOf(new Date('2027-11-01T12:00:00Z'))).toBe('garder');
    expect(schoolSeasonOf(new Date('2027-02-15T12:00:00Z'))).toBe('garder');
  });

  it('says what to do now, marks the season among the three, and shows the links for it', () => {
    const container = document.createElement('div');
    document.body.append(container);
    const root = createRoot(container);
    const asked: string[] = [];
    // The links of the season are a function of it, given as the card's children.
    const card = {
      now: new Date('2027-06-15T10:00:00Z'),
      children: (season: string) => {
        asked.push(season);
        return createElement('a', { href: '/books/add' }, 'Ajouter un manuel');
      },
    };
    act(() => root.render(createElement(SchoolYearCard, card)));
    mounted.push(() => {
      act(() => root.unmount());
      container.remove();
    });
    expect(container.querySelector('h2')?.textContent).toBe('C’est le moment de vendre');
    expect(container.querySelector('[aria-current="step"]')?.textContent).toBe('VendreJuin – juillet');
    expect(container.querySelectorAll('li')).toHaveLength(3);
    expect(asked).toEqual(['vendre']);
    expect(container.querySelector('a')?.textContent).toBe('Ajouter un manuel');
  });
});
