import { apiPath, errorAnswer, HttpResponse, http, member, renderScreen, server } from '@cartable/ui/testing';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import BooksPage from '../src/features/catalogue/BooksPage';
import MyListPage from '../src/features/class-lists/MyListPage';
import MessagesPage from '../src/features/conversations/MessagesPage';
import MyBooksPage from '../src/features/my-books/MyBooksPage';
import TransactionsPage from '../src/features/transactions/TransactionsPage';
import { aBook, aCategoryTree } from './fixtures';

/**
 * The empty and the failed states of the lists a member reads: the catalogue, « Ma liste », the
 * conversations and the deals. Each failure says what could not be loaded and offers to try again;
 * each empty list says why it is empty and where to go.
 */
const EMPTY_PAGE = { data: [], total: 0, per_page: 12, current_page: 1, last_page: 1, sponsored: [] };
const LIBREVILLE = { id: 1, name: 'Libreville', province: 'Estuaire', is_major: true, country_id: 266 };

beforeEach(() => {
  server.use(
    http.get(apiPath('/categories/hierarchy'), () => HttpResponse.json({ categories: aCategoryTree() })),
    http.get(apiPath('/locations/cities'), () => HttpResponse.json({ cities: [LIBREVILLE] })),
  );
});

/** Answers `failures` times with a 503, then `then`. */
function failingThen(failures: number, then: () => Response) {
  let left = failures;
  return () => (left-- > 0 ? errorAnswer(503, 'Service temporairement indisponible.') : then());
}

const booksSaveSearch = { saveSearch: () => null };

describe('the catalogue', () => {
  it('says when nothing is for sale, and when nothing matches the filters, with a way back to every book', async () => {
    server.use(http.get(apiPath('/books'), () => HttpResponse.json(EMPTY_PAGE)));
    renderScreen(<BooksPage {...booksSaveSearch} />, { at: '/books', path: '/books' });
    expect(await screen.findByText('Aucun manuel trouvé')).toBeTruthy();
    expect(screen.getByText('Aucun manuel n’est en vente pour le moment. Revenez bientôt !')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Afficher tous les manuels' })).toBeTruthy();
  });

  it('suggests what the search could have meant', async () => {
    server.use(
      http.get(apiPath('/books'), () => HttpResponse.json({ ...EMPTY_PAGE, did_you_mean: 'mathématiques' })),
      http.get(apiPath('/books/suggestions'), () => HttpResponse.json({ suggestions: [] })),
    );
    renderScreen(<BooksPage {...booksSaveSearch} />, { at: '/books?query=mathematiqes', path: '/books' });
    expect(
      await screen.findByText(
        'Aucun manuel ne correspond à ces critères. Essayez d’autres mots-clés ou retirez des filtres.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'mathématiques' })).toBeTruthy();
  });

  it('says the books could not be loaded, and shows them after « Réessayer »', async () => {
    server.use(
      http.get(
        apiPath('/books'),
        failingThen(1, () => HttpResponse.json({ ...EMPTY_PAGE, data: [aBook()], total: 1 })),
      ),
    );
    renderScreen(<BooksPage {...booksSaveSearch} />, { at: '/books', path: '/books' });
    expect(await screen.findByText('Erreur lors du chargement des manuels')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await screen.findByRole('link', { name: /Mathématiques 6e/ })).toBeTruthy();
  });
});

describe('« Ma liste »', () => {
  it('says the classes could not be loaded, and offers them after « Réessayer »', async () => {
    server.use(
      http.get(
        apiPath('/categories/hierarchy'),
        failingThen(1, () => HttpResponse.json({ categories: aCategoryTree() })),
      ),
    );
    renderScreen(<MyListPage />, { at: '/ma-liste', path: '/ma-liste' });
    expect(await screen.findByText('Les classes n’ont pas pu être chargées')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Réessayer' }));
    expect((await screen.findByRole('link', { name: '6e' })).getAttribute('href')).toBe('/ma-liste?level=31');
  });

  it('says a class has no list yet, with the books of that class', async () => {
    server.use(
      http.get(apiPath('/class-lists'), () =>
        HttpResponse.json({ data: [], meta: { current_page: 1, last_page: 1, total: 0 } }),
      ),
    );
    renderScreen(<MyListPage />, { at: '/ma-liste?level=31', path: '/ma-liste' });
    expect(await screen.findByText('Pas encore de liste pour la 6e')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Voir les manuels' }).getAttribute('href')).toBe('/books?category_ids=31');
  });

  it('says the lists of a class could not be loaded', async () => {
    server.use(http.get(apiPath('/class-lists'), () => errorAnswer(503, 'Service temporairement indisponible.')));
    renderScreen(<MyListPage />, { at: '/ma-liste?level=31', path: '/ma-liste' });
    expect(await screen.findByText('Les listes de cette classe n’ont pas pu être chargées')).toBeTruthy();
    expect(screen.getByText('Service temporairement indisponible.')).toBeTruthy();
  });
});

describe('the conversations', () => {
  // The live stream of new messages is not the list: it is refused here, and the list polls.
  beforeEach(() => {
    server.use(http.get(apiPath('/messages/stream'), () => errorAnswer(503, 'Indisponible')));
  });

  it('says there is none yet and leads to the books', async () => {
    server.use(http.get(apiPath('/messages'), () => HttpResponse.json({ conversations: [] })));
    renderScreen(<MessagesPage />, { at: '/messages', path: '/messages', as: member() });
    expect(await screen.findByText("Aucune conversation pour l'instant")).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Parcourir les manuels' }).getAttribute('href')).toBe('/books');
  });

  it('says they could not be loaded, and reads them again on « Réessayer »', async () => {
    let asked = 0;
    server.use(
      http.get(apiPath('/messages'), () => {
        asked++;
        return errorAnswer(503, 'Service temporairement indisponible.');
      }),
    );
    renderScreen(<MessagesPage />, { at: '/messages', path: '/messages', as: member() });
    expect(await screen.findByText('Impossible de charger vos conversations')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Réessayer' }));
    await waitFor(() => expect(asked).toBe(2));
  });
});

describe('the deals', () => {
  it('says there is none yet', async () => {
    server.use(
      http.get(apiPath('/transactions'), () =>
        HttpResponse.json({ data: [], meta: { current_page: 1, last_page: 1, total: 0 } }),
      ),
    );
    renderScreen(<TransactionsPage />, { at: '/transactions', path: '/transactions', as: member() });
    expect(await screen.findByText('Aucune transaction pour l’instant')).toBeTruthy();
  });

  it('says none matches the filters', async () => {
    server.use(
      http.get(apiPath('/transactions'), () =>
        HttpResponse.json({ data: [], meta: { current_page: 1, last_page: 1, total: 0 } }),
      ),
    );
    renderScreen(<TransactionsPage />, { at: '/transactions?role=seller', path: '/transactions', as: member() });
    expect(await screen.findByText('Aucune transaction avec ces critères')).toBeTruthy();
  });

  it('says they could not be loaded, and why', async () => {
    server.use(http.get(apiPath('/transactions'), () => errorAnswer(503, 'Service temporairement indisponible.')));
    renderScreen(<TransactionsPage />, { at: '/transactions', path: '/transactions', as: member() });
    expect(await screen.findByText('Impossible de charger vos transactions')).toBeTruthy();
    expect(screen.getByText('Service temporairement indisponible.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Réessayer' })).toBeTruthy();
  });
});

describe('« Mes manuels »', () => {
  it('offers to put back on sale a listing unsold since last school year, and only that one', async () => {
    const lastYear = new Date(Date.now() - 330 * 24 * 3600_000).toISOString();
    const old = aBook({ id: 41, title: 'Histoire 3e – l’an dernier', created_at: lastYear });
    const recent = aBook({ id: 42, title: 'Anglais 3e – ce mois-ci' });
    let relisted = 0;
    server.use(
      http.get(apiPath('/user/books'), () => HttpResponse.json({ data: [old, recent] })),
      http.post(apiPath('/books/41/relist'), () => {
        relisted++;
        return HttpResponse.json({
          message: 'Annonce remise en vente : elle apparaît de nouveau parmi les récentes.',
          book: { ...old, created_at: new Date().toISOString() },
        });
      }),
    );
    renderScreen(<MyBooksPage />, { at: '/my-books', path: '/my-books', as: member({ id: old.user_id }) });
    const button = await screen.findByRole('button', { name: `Remettre en vente « ${old.title} »` });
    expect(screen.queryByRole('button', { name: `Remettre en vente « ${recent.title} »` })).toBeNull();
    await userEvent.click(button);
    await waitFor(() => expect(relisted).toBe(1));
    expect(
      await screen.findByText('Annonce remise en vente : elle apparaît de nouveau parmi les récentes.'),
    ).toBeTruthy();
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: `Remettre en vente « ${old.title} »` })).toBeNull(),
    );
  });
});
