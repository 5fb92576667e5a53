import { SEARCH_CATEGORIES_MAX, SEARCH_TEXT_MAX_WORDS } from '@cartable/contracts/limits';
import { apiPath, HttpResponse, http, renderScreen, server } from '@cartable/ui/testing';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import BooksPage from '../src/features/catalogue/BooksPage';
import { CategoryFilter } from '../src/features/catalogue/CategoryFilter';
import { aCategoryTree } from './fixtures';

/**
 * The catalogue never sends a search the server would refuse as too costly: a text past its
 * words is said under the box, a link asking too much is cut to the bounds, and « Tout
 * sélectionner » is no category filter at all.
 */
const EMPTY_PAGE = { data: [], total: 0, per_page: 12, current_page: 1, last_page: 1, sponsored: [] };
let asked: URL[] = [];

beforeEach(() => {
  asked = [];
  server.use(
    http.get(apiPath('/categories/hierarchy'), () => HttpResponse.json({ categories: aCategoryTree() })),
    http.get(apiPath('/locations/cities'), () => HttpResponse.json({ cities: [] })),
    http.get(apiPath('/books/suggestions'), () => HttpResponse.json({ suggestions: [] })),
    http.get(apiPath('/books'), ({ request }) => {
      asked.push(new URL(request.url));
      return HttpResponse.json(EMPTY_PAGE);
    }),
  );
});

const words = (n: number) => Array.from({ length: n }, (_, i) => `mot${i}`).join(' ');

describe('the bounds of a catalogue search', () => {
  it('says a text has too many words and does not send it', async () => {
    renderScreen(<BooksPage saveSearch={() => null} />, { at: '/books', path: '/books' });
    await waitFor(() => expect(asked.length).toBeGreaterThan(0));
    const box = screen.getByRole('combobox', { name: 'Rechercher un manuel' });
    await userEvent.type(box, `${words(SEARCH_TEXT_MAX_WORDS + 1)}{Enter}`);
    expect(
      await screen.findByText(
        `La recherche ne peut pas dépasser ${SEARCH_TEXT_MAX_WORDS} mots : gardez le titre, la matière ou le niveau.`,
      ),
    ).toBeTruthy();
    expect(box.getAttribute('aria-invalid')).toBe('true');
    // One word fewer is searched at once; the text before it never was.
    await userEvent.type(box, `${'{Backspace}'.repeat(` mot${SEARCH_TEXT_MAX_WORDS}`.length)}{Enter}`);
    await waitFor(() =>
      expect(asked.some((url) => url.searchParams.get('query') === words(SEARCH_TEXT_MAX_WORDS))).toBe(true),
    );
    expect(asked.some((url) => url.searchParams.get('query') === words(SEARCH_TEXT_MAX_WORDS + 1))).toBe(false);
  });

  it('cuts a link that asks too much to what a search may hold', async () => {
    const ids = Array.from({ length: SEARCH_CATEGORIES_MAX + 5 }, (_, i) => i + 1).join(',');
    renderScreen(<BooksPage saveSearch={() => null} />, {
      at: `/books?query=${encodeURIComponent(words(SEARCH_TEXT_MAX_WORDS + 3))}&category_ids=${ids}`,
      path: '/books',
    });
    await waitFor(() => expect(asked.length).toBeGreaterThan(0));
    const sent = asked.at(-1)!;
    expect(sent.searchParams.get('query')!.split(' ')).toHaveLength(SEARCH_TEXT_MAX_WORDS);
    expect(sent.searchParams.get('category_ids')!.split(',')).toHaveLength(SEARCH_CATEGORIES_MAX);
  });

  it('sends no category filter when every category is selected', async () => {
    const onChange = vi.fn();
    renderScreen(<CategoryFilter value={[]} onChange={onChange} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Arborescence' }));
    await userEvent.click(await screen.findByRole('button', { name: /Tout sélectionner/ }));
    expect(onChange).toHaveBeenLastCalledWith([]);
    expect(screen.getByText('Toutes les catégories : le catalogue entier est affiché.')).toBeTruthy();
  });
});
