import type { Book, BookDetail, Category, Transaction } from '@cartable/contracts';

/**
 * Answers as the catalog service sends them, typed by the contracts: a change to a schema that
 * these do not follow fails the type check of the tests too.
 */
export function aBook(overrides: Partial<Book> = {}): Book {
  return {
    id: 12,
    title: 'Mathématiques 6e – Collection Excellence',
    author: 'IPN',
    isbn: null,
    description: 'Très peu servi, sans annotations.',
    publisher: 'EDICEF',
    publication_year: 2021,
    condition: 'bon',
    condition_label: 'Bon état',
    condition_flags: [],
    price: 4500,
    status: 'disponible',
    status_label: 'Disponible',
    is_negociable: true,
    is_negotiable: true,
    is_exchange_possible: false,
    city: { id: 1, name: 'Libreville', province: 'Estuaire' },
    city_id: 1,
    category: { id: 31, name: '6e' },
    categories: [{ id: 31, name: '6e' }],
    category_ids: [31],
    image1: null,
    image2: null,
    image3: null,
    thumbnail: null,
    images: [],
    user_id: '5a3c1f0e-7b8d-4e2a-9c6b-1d2e3f4a5b6c',
    views: 3,
    created_at: '2026-11-20T09:00:00.000Z',
    updated_at: '2026-11-20T09:00:00.000Z',
    hidden: false,
    hidden_at: null,
    hidden_reason: null,
    lot: null,
    ...overrides,
  };
}

export function aBookDetail(overrides: Partial<BookDetail> = {}): BookDetail {
  return {
    ...aBook(),
    seller: {
      id: '5a3c1f0e-7b8d-4e2a-9c6b-1d2e3f4a5b6c',
      name: 'Aïcha Mboumba',
      username: 'aicha_m',
      profile_image: null,
      city: 'Libreville',
      province: 'Estuaire',
      created_at: '2026-09-01T08:00:00.000Z',
      show_email: false,
      email: null,
      show_phone: false,
      phone: null,
      rating: { average: 0, count: 0 },
      badge: null,
    },
    usual_price: null,
    ...overrides,
  };
}

/** The category tree: the secondary cycle, its 6e and the subject Mathématiques. */
export function aCategoryTree(): Category[] {
  const leaf = (id: number, name: string, depth: number): Category => ({
    id,
    name,
    parent_id: null,
    order: 0,
    depth,
    book_count: 0,
    books_count: 0,
    parents: [],
  });
  return [
    { ...leaf(3, 'Secondaire', 0), children: [{ ...leaf(31, '6e', 1), parent_id: 3 }] },
    leaf(7, 'Mathématiques', 0),
  ];
}

/** A confirmed sale between the member (the buyer) and the seller, not yet rated. */
export function aDeal(overrides: Partial<Transaction> = {}): Transaction {
  const seller = { id: aBook().user_id, name: 'Aïcha Mboumba', username: 'aicha_m', profile_image: null };
  const buyer = { id: '0b8f9c5e-1d2a-4c3b-9e8f-7a6b5c4d3e2f', name: 'Awa Nzé', username: 'awa', profile_image: null };
  return {
    id: '9e1d7c3a-5b2f-4a6e-8d0c-3f4b5a6c7d8e',
    kind: 'sale',
    kind_label: 'Vente',
    status: 'confirmed',
    status_label: 'Confirmée',
    price: 4000,
    book: { id: 12, title: aBook().title, thumbnail: null, price: 4500, status: 'vendu', exists: true },
    exchange_book: null,
    seller,
    buyer,
    role: 'buyer',
    created_at: '2026-11-25T09:00:00.000Z',
    updated_at: '2026-11-26T09:00:00.000Z',
    confirmed_at: '2026-11-26T09:00:00.000Z',
    declined_at: null,
    cancelled_at: null,
    cancelled_by: null,
    conversation_url: `/messages/12/${seller.id}`,
    rating: { can_rate: true, mine: null, theirs: null },
    ...overrides,
  };
}
