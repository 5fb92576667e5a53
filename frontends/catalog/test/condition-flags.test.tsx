import { apiPath, HttpResponse, http, member, renderScreen, server } from '@cartable/ui/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { BookCard } from '../src/entities/book/BookCard';
import BooksPage from '../src/features/catalogue/BooksPage';
import BookFormPage from '../src/features/listing-form/BookFormPage';
import { aBook, aBookDetail, aCategoryTree } from './fixtures';

/**
 * What the condition does not say: the seller ticks it with advice on what to photograph, the
 * card shows it, and a buyer leaves such listings out of the catalogue.
 */
const LIBREVILLE = { id: 1, name: 'Libreville', province: 'Estuaire', is_major: true, country_id: 266 };
const EMPTY_PAGE = { data: [], total: 0, per_page: 12, current_page: 1, last_page: 1, sponsored: [] };
let asked: URL[] = [];

beforeEach(() => {
  asked = [];
  server.use(
    http.get(apiPath('/categories/hierarchy'), () => HttpResponse.json({ categories: aCategoryTree() })),
    http.get(apiPath('/locations/cities'), () => HttpResponse.json({ cities: [LIBREVILLE] })),
    http.get(apiPath('/class-list-items/search'), () => HttpResponse.json({ suggestions: [] })),
    http.get(apiPath('/books/suggestions'), () => HttpResponse.json({ suggestions: [] })),
    http.get(apiPath('/books/price-guide'), () =>
      HttpResponse.json({
        usual: null,
        deals: 0,
        listings: { count: 0, low: null, high: null },
        min_deals: 3,
        months: 24,
      }),
    ),
    http.get(apiPath('/books'), ({ request }) => {
      asked.push(new URL(request.url));
      return HttpResponse.json(EMPTY_PAGE);
    }),
  );
});

describe('condition flags', () => {
  it('opens a listing with its flags ticked, asks for a photo of each defect, and sends the flags', async () => {
    const book = aBookDetail({ condition_flags: ['annotated'] });
    const seller = member({ id: book.user_id });
    let sent: FormData | null = null;
    server.use(
      http.get(apiPath(`/books/${book.id}`), () => HttpResponse.json({ book })),
      http.post(apiPath(`/books/${book.id}`), async ({ request }) => {
        sent = await request.formData();
        return HttpResponse.json({ message: 'Annonce mise à jour avec succès', book });
      }),
    );
    renderScreen(<BookFormPage />, { at: `/books/edit/${book.id}`, path: '/books/edit/:id', as: seller });
    const flags = within(await screen.findByRole('group', { name: 'Précisions sur l’état' }));
    expect((flags.getByLabelText('Annoté ou surligné') as HTMLInputElement).checked).toBe(true);
    expect((flags.getByLabelText('Pages manquantes') as HTMLInputElement).checked).toBe(false);
    const guidance = screen.getByTestId('photo-guidance');
    expect(guidance.textContent).toContain('Photographiez la couverture, la page de garde et une page intérieure');
    expect(guidance.textContent).toContain('montrez aussi une page annotée ou surlignée.');

    await userEvent.click(flags.getByLabelText('Pages manquantes'));
    expect(guidance.textContent).toContain(
      'montrez aussi une page annotée ou surlignée et l’endroit où des pages manquent.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Enregistrer les modifications' }));
    await waitFor(() => expect(sent).not.toBeNull());
    expect(sent!.get('condition_flags')).toBe('annotated,pages_missing');
  });

  it('sends no flag when none is ticked, so that an edit clears them', async () => {
    const book = aBookDetail({ condition_flags: ['stamped'] });
    let sent: FormData | null = null;
    server.use(
      http.get(apiPath(`/books/${book.id}`), () => HttpResponse.json({ book })),
      http.post(apiPath(`/books/${book.id}`), async ({ request }) => {
        sent = await request.formData();
        return HttpResponse.json({ book });
      }),
    );
    renderScreen(<BookFormPage />, {
      at: `/books/edit/${book.id}`,
      path: '/books/edit/:id',
      as: member({ id: book.user_id }),
    });
    await userEvent.click(await screen.findByLabelText('Tampon d’école ou de bibliothèque'));
    await userEvent.click(screen.getByRole('button', { name: 'Enregistrer les modifications' }));
    await waitFor(() => expect(sent).not.toBeNull());
    expect(sent!.get('condition_flags')).toBe('');
  });

  it('shows the flags on the card, the full wording on hover', () => {
    renderScreen(<BookCard book={aBook({ condition_flags: ['filled_in', 'stamped'] })} />);
    const shown = screen.getAllByTestId('condition-flag');
    expect(shown.map((badge) => badge.textContent)).toEqual(['Exercices remplis', 'Tampon']);
    expect(shown[1]!.getAttribute('title')).toBe('Tampon d’école ou de bibliothèque');
  });

  it('leaves flagged listings out of the catalogue, from the URL and back, with a chip to remove each', async () => {
    renderScreen(<BooksPage saveSearch={() => null} />, { at: '/books?without_flags=pages_missing', path: '/books' });
    await waitFor(() => expect(asked.at(-1)?.searchParams.get('without_flags')).toBe('pages_missing'));
    // A phone's catalogue: the filters are in a sheet, and the button counts the one asked.
    await userEvent.click(screen.getByRole('button', { name: 'Filtres (1)' }));
    const panel = within(await screen.findByRole('group', { name: 'Précisions sur l’état' }));
    expect((panel.getByLabelText('Aucune page manquante') as HTMLInputElement).checked).toBe(true);
    await userEvent.click(panel.getByLabelText('Sans annotations'));
    // In the order the flags are listed, whatever the order of the clicks.
    await waitFor(() => expect(asked.at(-1)?.searchParams.get('without_flags')).toBe('annotated,pages_missing'));
    await userEvent.keyboard('{Escape}');
    await userEvent.click(await screen.findByRole('button', { name: 'Retirer le filtre Aucune page manquante' }));
    await waitFor(() => expect(asked.at(-1)?.searchParams.get('without_flags')).toBe('annotated'));
  });
});
