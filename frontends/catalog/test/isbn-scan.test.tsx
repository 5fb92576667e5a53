import type { IsbnLookup } from '@cartable/contracts';
import { apiPath, HttpResponse, http, member, renderScreen, server } from '@cartable/ui/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import BookFormPage from '../src/features/listing-form/BookFormPage';
import { scanMessages } from '../src/features/listing-form/scan/messages';
import { aBookDetail, aCategoryTree } from './fixtures';

/** « Scanner le code-barres » and the ISBN field's look-up on the listing form. */
const LIBREVILLE = { id: 1, name: 'Libreville', province: 'Estuaire', is_major: true, country_id: 266 };
const seller = member({ name: 'Aïcha Mboumba' });
const CIAM = '9782729810429';
const UNKNOWN = '9782070360024';

const found = (isbn: string): IsbnLookup => ({
  isbn,
  isbn10: null,
  found: true,
  title: 'Mathématiques 6e – CIAM',
  author: 'Collectif CIAM',
  publisher: 'EDICEF',
  year: 2018,
  category_ids: [31, 7],
  sources: { class_lists: 1, listings: 2 },
});
const unknown = (isbn: string): IsbnLookup => ({
  isbn,
  isbn10: null,
  found: false,
  title: null,
  author: null,
  publisher: null,
  year: null,
  category_ids: [],
  sources: { class_lists: 0, listings: 0 },
});

let asked: string[];
beforeEach(() => {
  asked = [];
  server.use(
    http.get(apiPath('/categories/hierarchy'), () => HttpResponse.json({ categories: aCategoryTree() })),
    http.get(apiPath('/locations/cities'), () => HttpResponse.json({ cities: [LIBREVILLE] })),
    http.get(apiPath('/class-list-items/search'), () => HttpResponse.json({ suggestions: [] })),
    http.get(apiPath('/books/isbn/:isbn'), ({ params }) => {
      const isbn = String(params.isbn);
      asked.push(isbn);
      return HttpResponse.json(isbn === CIAM ? found(isbn) : unknown(isbn));
    }),
  );
});

/** The browser's camera and detector as a test sets them, put back after each test. */
const saved = {
  mediaDevices: Object.getOwnPropertyDescriptor(navigator, 'mediaDevices'),
  secure: Object.getOwnPropertyDescriptor(window, 'isSecureContext'),
};
function camera(getUserMedia: (() => Promise<MediaStream>) | null) {
  Object.defineProperty(window, 'isSecureContext', { configurable: true, value: true });
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: getUserMedia ? { getUserMedia } : undefined,
  });
}
afterEach(() => {
  for (const [target, key, descriptor] of [
    [navigator, 'mediaDevices', saved.mediaDevices],
    [window, 'isSecureContext', saved.secure],
  ] as const) {
    if (descriptor) Object.defineProperty(target, key, descriptor);
    else delete (target as unknown as Record<string, unknown>)[key];
  }
  delete (window as unknown as Record<string, unknown>).BarcodeDetector;
});

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

describe('the ISBN typed by hand', () => {
  it('fills title, author, publisher and year when the member leaves the field, whatever the spelling', async () => {
    renderScreen(<BookFormPage />, { at: '/books/add', path: '/books/add', as: seller });
    await userEvent.type(await screen.findByLabelText('ISBN'), '2-7298-1042-0');
    await userEvent.tab();
    await waitFor(() => expect(field('Titre *').value).toBe('Mathématiques 6e – CIAM'));
    expect(field('Auteur *').value).toBe('Collectif CIAM');
    expect(field('Éditeur').value).toBe('EDICEF');
    expect(field('Année de publication').value).toBe('2018');
    // The categories of the class list: the level and the subject are chosen.
    expect(await screen.findByRole('button', { name: /Retirer 6e/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Retirer Mathématiques/ })).toBeTruthy();
    expect(screen.getAllByText(/« Mathématiques 6e – CIAM » : champs remplis\. Vérifiez-les/).length).toBeGreaterThan(
      0,
    );
    // The ISBN-10 was looked up as its ISBN-13.
    expect(asked).toEqual([CIAM]);
  });

  it('says an unknown ISBN in French and keeps what the member typed', async () => {
    renderScreen(<BookFormPage />, { at: '/books/add', path: '/books/add', as: seller });
    await userEvent.type(await screen.findByLabelText('Titre *'), 'Mon livre de lecture');
    await userEvent.type(field('ISBN'), UNKNOWN);
    await userEvent.click(screen.getByRole('button', { name: 'Rechercher ce manuel par son ISBN' }));
    expect(await screen.findByText(`ISBN ${UNKNOWN} lu, manuel inconnu : complétez les champs.`)).toBeTruthy();
    expect(field('Titre *').value).toBe('Mon livre de lecture');
    expect(field('ISBN').value).toBe(UNKNOWN);
  });

  it('says a wrong check digit when asked to search, and asks nothing of the server', async () => {
    renderScreen(<BookFormPage />, { at: '/books/add', path: '/books/add', as: seller });
    await userEvent.type(await screen.findByLabelText('ISBN'), '9782729810428');
    await userEvent.click(screen.getByRole('button', { name: 'Rechercher ce manuel par son ISBN' }));
    expect(
      await screen.findByText('ISBN invalide : 10 ou 13 chiffres avec leur clé de contrôle, au dos du livre.'),
    ).toBeTruthy();
    expect(asked).toEqual([]);
  });

  it('replaces a field the member typed only when they say so', async () => {
    renderScreen(<BookFormPage />, { at: '/books/add', path: '/books/add', as: seller });
    await userEvent.type(await screen.findByLabelText('Titre *'), 'Maths');
    await userEvent.type(field('ISBN'), CIAM);
    await userEvent.tab();
    // The empty fields are filled at once; the typed title waits for a yes.
    await waitFor(() => expect(field('Auteur *').value).toBe('Collectif CIAM'));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remplacer ce que vous avez saisi ?' });
    expect(within(dialog).getByText(/Titre diffère de ce que vous avez tapé/)).toBeTruthy();
    expect(field('Titre *').value).toBe('Maths');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Annuler' }));
    expect(field('Titre *').value).toBe('Maths');
    await userEvent.click(screen.getByRole('button', { name: 'Rechercher ce manuel par son ISBN' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Remplacer' }));
    expect(field('Titre *').value).toBe('Mathématiques 6e – CIAM');
  });

  it('looks nothing up when the ISBN of a listing being edited is left unchanged', async () => {
    const book = { ...aBookDetail(), isbn: '978-2-7298-1042-9' };
    server.use(
      http.get(apiPath(`/books/${book.id}`), () => HttpResponse.json({ book })),
      http.get(apiPath('/books/price-guide'), () =>
        HttpResponse.json({
          usual: null,
          deals: 0,
          listings: { count: 0, low: null, high: null },
          min_deals: 3,
          months: 24,
        }),
      ),
    );
    renderScreen(<BookFormPage />, {
      at: `/books/edit/${book.id}`,
      path: '/books/edit/:id',
      as: member({ id: book.user_id }),
    });
    await userEvent.click(await screen.findByLabelText('ISBN'));
    await userEvent.tab();
    expect(field('Titre *').value).toBe(book.title);
    await userEvent.clear(field('ISBN'));
    await userEvent.type(field('ISBN'), UNKNOWN);
    await userEvent.tab();
    await waitFor(() => expect(asked).toEqual([UNKNOWN]));
  });
});

describe('« Scanner le code-barres »', () => {
  it('says in French that the camera was refused, and the form stays usable', async () => {
    camera(() => Promise.reject(new DOMException('Permission denied', 'NotAllowedError')));
    renderScreen(<BookFormPage />, { at: '/books/add', path: '/books/add', as: seller });
    await userEvent.click(await screen.findByRole('button', { name: 'Scanner le code-barres' }));
    const dialog = await screen.findByRole('dialog', { name: 'Scanner le code-barres' });
    expect(await within(dialog).findByText(scanMessages.refused)).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Prendre une photo du code-barres' })).toBeTruthy();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await userEvent.type(field('Titre *'), 'Mathématiques 6e');
    expect(field('Titre *').value).toBe('Mathématiques 6e');
  });

  it('says so when the phone has no camera or the page is not secure', async () => {
    camera(null);
    renderScreen(<BookFormPage />, { at: '/books/add', path: '/books/add', as: seller });
    await userEvent.click(await screen.findByRole('button', { name: 'Scanner le code-barres' }));
    expect(await screen.findByText(scanMessages.absent)).toBeTruthy();
  });

  it('reads a photo of the barcode with the browser’s detector, fills the ISBN and the book', async () => {
    camera(() => Promise.reject(new DOMException('No camera', 'NotFoundError')));
    const detected: unknown[] = [];
    // The Shape Detection API as Chrome on Android has it: what it sees is the test's to say.
    Object.assign(window, {
      BarcodeDetector: class {
        static async getSupportedFormats() {
          return ['qr_code', 'ean_13'];
        }
        async detect(image: unknown) {
          detected.push(image);
          return [{ rawValue: CIAM, format: 'ean_13' }];
        }
      },
      createImageBitmap: async (file: File) => ({ from: file.name }),
    });
    renderScreen(<BookFormPage />, { at: '/books/add', path: '/books/add', as: seller });
    await userEvent.click(await screen.findByRole('button', { name: 'Scanner le code-barres' }));
    expect(await screen.findByText(scanMessages.absent)).toBeTruthy();
    const photo = new File([new Uint8Array([1, 2, 3])], 'code-barres.jpg', { type: 'image/jpeg' });
    await userEvent.upload(screen.getByLabelText('Photo du code-barres'), photo);
    await waitFor(() => expect(field('ISBN').value).toBe(CIAM));
    await waitFor(() => expect(field('Titre *').value).toBe('Mathématiques 6e – CIAM'));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(detected).toEqual([{ from: 'code-barres.jpg' }]);
  });

  it('says when the barcode read is another product’s, and goes on', async () => {
    camera(() => Promise.reject(new DOMException('No camera', 'NotFoundError')));
    Object.assign(window, {
      BarcodeDetector: class {
        static async getSupportedFormats() {
          return ['ean_13'];
        }
        detect = async () => [{ rawValue: '4006381333931' }];
      },
      createImageBitmap: async () => ({}),
    });
    renderScreen(<BookFormPage />, { at: '/books/add', path: '/books/add', as: seller });
    await userEvent.click(await screen.findByRole('button', { name: 'Scanner le code-barres' }));
    await userEvent.upload(
      await screen.findByLabelText('Photo du code-barres'),
      new File([new Uint8Array([1])], 'x.jpg', { type: 'image/jpeg' }),
    );
    expect(await screen.findByText(scanMessages.notABook('4006381333931'))).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(asked).toEqual([]);
  });
});
