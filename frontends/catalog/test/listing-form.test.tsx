import { apiPath, HttpResponse, http, member, renderScreen, server } from '@cartable/ui/testing';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import BookFormPage from '../src/features/listing-form/BookFormPage';
import { aBookDetail, aCategoryTree } from './fixtures';

/** Publishing and editing a listing: the contract's rules and messages, before anything is sent. */
const LIBREVILLE = { id: 1, name: 'Libreville', province: 'Estuaire', is_major: true, country_id: 266 };
const seller = member({ id: aBookDetail().user_id, name: 'Aïcha Mboumba' });

beforeEach(() => {
  server.use(
    http.get(apiPath('/categories/hierarchy'), () => HttpResponse.json({ categories: aCategoryTree() })),
    http.get(apiPath('/locations/cities'), () => HttpResponse.json({ cities: [LIBREVILLE] })),
    http.get(apiPath('/class-list-items/search'), () => HttpResponse.json({ suggestions: [] })),
    http.get(apiPath('/books/price-guide'), () => HttpResponse.json(guide())),
  );
});

/** A price guide as the server answers it: by default, no sale and no offer. */
const guide = (over: Record<string, unknown> = {}) => ({
  usual: null,
  deals: 0,
  listings: { count: 0, low: null, high: null },
  min_deals: 3,
  months: 24,
  ...over,
});

describe('listing form', () => {
  it('names every required field in French and sends nothing', async () => {
    let sent = 0;
    server.use(
      http.post(apiPath('/books'), () => {
        sent++;
        return HttpResponse.json({});
      }),
    );
    // A member who gave no town: nothing is prefilled.
    renderScreen(<BookFormPage />, { at: '/books/add', path: '/books/add', as: { ...seller, city_id: null } });
    await userEvent.click(await screen.findByRole('button', { name: "Publier l'annonce" }));
    for (const message of [
      'Le titre est obligatoire',
      "L'auteur est obligatoire",
      'Choisissez au moins une catégorie',
      "Choisissez l'état du manuel",
      'Le prix est obligatoire (0 pour un don)',
      'La ville est obligatoire',
    ]) {
      expect(await screen.findByText(message)).toBeTruthy();
    }
    expect(sent).toBe(0);
  });

  it('starts a new listing in the member’s own town', async () => {
    renderScreen(<BookFormPage />, { at: '/books/add', path: '/books/add', as: seller });
    const town = (await screen.findByLabelText(/^Ville/)) as HTMLSelectElement;
    await waitFor(() => expect(town.value).toBe(String(seller.city_id)));
    expect(town.selectedOptions[0]?.textContent).toBeTruthy();
  });

  it('refuses a price that is not a whole number of FCFA, a malformed ISBN and a year to come', async () => {
    renderScreen(<BookFormPage />, { at: '/books/add', path: '/books/add', as: seller });
    await userEvent.type(await screen.findByLabelText('Titre *'), 'Mathématiques 6e');
    await userEvent.type(screen.getByLabelText('Prix (FCFA) *'), '-5');
    await userEvent.type(screen.getByLabelText('ISBN'), '12345');
    await userEvent.type(screen.getByLabelText('Année de publication'), String(new Date().getFullYear() + 2));
    await userEvent.click(screen.getByRole('button', { name: "Publier l'annonce" }));
    expect(await screen.findByText('Le prix doit être un nombre entier de FCFA')).toBeTruthy();
    expect(screen.getByText('ISBN invalide (10 ou 13 chiffres)')).toBeTruthy();
    expect(screen.getByText('Année invalide')).toBeTruthy();
  });

  it('opens an owner’s listing with its values', async () => {
    const book = aBookDetail();
    server.use(http.get(apiPath(`/books/${book.id}`), () => HttpResponse.json({ book })));
    renderScreen(<BookFormPage />, { at: `/books/edit/${book.id}`, path: '/books/edit/:id', as: seller });
    expect(((await screen.findByLabelText('Titre *')) as HTMLInputElement).value).toBe(book.title);
    expect((screen.getByLabelText('Prix (FCFA) *') as HTMLInputElement).value).toBe('4500');
    expect(screen.getByRole('button', { name: 'Enregistrer les modifications' })).toBeTruthy();
  });

  it('leaves the form for « Mes manuels » when the listing is kept on the phone to be sent later', async () => {
    const book = aBookDetail();
    server.use(
      http.get(apiPath(`/books/${book.id}`), () => HttpResponse.json({ book })),
      // The service worker's answer to a write it keeps while offline.
      http.post(apiPath(`/books/${book.id}`), () =>
        HttpResponse.json(
          { queued: true, message: 'Hors ligne : c’est gardé sur ce téléphone.' },
          { status: 202, headers: { 'x-cartable-queued': '1' } },
        ),
      ),
    );
    renderScreen(<BookFormPage />, { at: `/books/edit/${book.id}`, path: '/books/edit/:id', as: seller });
    await userEvent.click(await screen.findByRole('button', { name: 'Enregistrer les modifications' }));
    expect(await screen.findByText('Autre page')).toBeTruthy();
    expect(screen.queryByText('Veuillez corriger les erreurs dans le formulaire')).toBeNull();
  });

  it('refuses to edit someone else’s listing', async () => {
    const book = aBookDetail();
    server.use(http.get(apiPath(`/books/${book.id}`), () => HttpResponse.json({ book })));
    renderScreen(<BookFormPage />, { at: `/books/edit/${book.id}`, path: '/books/edit/:id', as: member() });
    expect(await screen.findByText('Vous ne pouvez pas modifier cette annonce')).toBeTruthy();
  });

  it('suggests the usual price of the same book and condition, and takes it in one tap', async () => {
    const asked: URLSearchParams[] = [];
    server.use(
      http.get(apiPath('/books/price-guide'), ({ request }) => {
        asked.push(new URL(request.url).searchParams);
        return HttpResponse.json(
          guide({
            usual: { median: 3000, low: 2500, high: 4000, deals: 5 },
            deals: 5,
            listings: { count: 2, low: 3500, high: 4500 },
          }),
        );
      }),
    );
    renderScreen(<BookFormPage />, { at: '/books/add', path: '/books/add', as: seller });
    expect(await screen.findByText(/Indiquez le titre \(ou l’ISBN\) et l’état/)).toBeTruthy();
    await userEvent.type(await screen.findByLabelText('Titre *'), 'Mathématiques 6e');
    await userEvent.selectOptions(screen.getByLabelText('État *'), 'bon');
    expect(await screen.findByText('Prix habituel : 3 000 F CFA')).toBeTruthy();
    expect(screen.getByText(/5 ventes conclues en « Bon état » ces 24 derniers mois/)).toBeTruthy();
    expect(screen.getByText(/En vente en ce moment : 2 annonces de 3 500 F CFA à 4 500 F CFA/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Utiliser ce prix' }));
    expect((screen.getByLabelText('Prix (FCFA) *') as HTMLInputElement).value).toBe('3000');
    expect(asked.at(-1)?.get('title')).toBe('Mathématiques 6e');
    expect(asked.at(-1)?.get('condition')).toBe('bon');
  });

  it('says when too few sales allow no suggestion, and leaves the listing being edited out of the offers', async () => {
    const book = aBookDetail();
    const asked: URLSearchParams[] = [];
    server.use(
      http.get(apiPath(`/books/${book.id}`), () => HttpResponse.json({ book })),
      http.get(apiPath('/books/price-guide'), ({ request }) => {
        asked.push(new URL(request.url).searchParams);
        return HttpResponse.json(guide({ deals: 1 }));
      }),
    );
    renderScreen(<BookFormPage />, { at: `/books/edit/${book.id}`, path: '/books/edit/:id', as: seller });
    expect(
      await screen.findByText(/Pas encore assez de ventes de ce manuel .* \(1 vente conclue, il en faut 3\)/),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Utiliser ce prix' })).toBeNull();
    expect(asked.at(-1)?.get('exclude_id')).toBe(String(book.id));
  });
});
