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
  );
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

  it('refuses to edit someone else’s listing', async () => {
    const book = aBookDetail();
    server.use(http.get(apiPath(`/books/${book.id}`), () => HttpResponse.json({ book })));
    renderScreen(<BookFormPage />, { at: `/books/edit/${book.id}`, path: '/books/edit/:id', as: member() });
    expect(await screen.findByText('Vous ne pouvez pas modifier cette annonce')).toBeTruthy();
  });
});
