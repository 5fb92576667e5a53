import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { books, classListItems, classLists } from '../src/db/schema.ts';
import { type CatalogHarness, startCatalog } from './harness.ts';

type Member = { sub: string; token: string };
let h: CatalogHarness;
let seller: Member;
let other: Member;
const ids: Record<string, number> = {};

// A book on a class list (ISBN-13 978-2-7298-1042-9, ISBN-10 2-7298-1042-0), one only members
// listed (0-306-40615-2, 978-0-306-40615-7), and one nobody knows.
const LISTED_ON_A_CLASS_LIST = '978-2-7298-1042-9';
const LISTED_ONLY = '0-306-40615-2';
const UNKNOWN = '9782070360024';

async function listBook(owner: Member, book: { title: string; author: string; isbn: string; categories: string[] }) {
  const res = await h.form(
    'POST',
    '/books',
    {
      title: book.title,
      author: book.author,
      isbn: book.isbn,
      condition: 'bon',
      price: '2500',
      publisher: 'Hachette',
      publication_year: '2019',
      city_id: String(await h.cityId('Libreville')),
      category_ids: book.categories.map((c) => String(ids[c])),
    },
    {},
    owner.token,
  );
  expect(res.status).toBe(201);
  return res.body.book.id as number;
}

const lookUp = (isbn: string, who: Member | undefined = seller) =>
  h.call('GET', `/books/isbn/${encodeURIComponent(isbn)}`, undefined, who?.token);

beforeAll(async () => {
  h = await startCatalog();
  seller = await h.token();
  other = await h.token();
  for (const name of ['6e', '5e', 'Mathématiques', 'Français']) ids[name] = await h.categoryId(name);
  // The class lists store ISBNs compacted; a draft list says nothing yet.
  const [published] = await h.db
    .insert(classLists)
    .values({ schoolYear: '2026-2027', levelId: ids['6e']!, status: 'published' })
    .returning();
  const [draft] = await h.db
    .insert(classLists)
    .values({ schoolYear: '2027-2028', levelId: ids['5e']!, status: 'draft' })
    .returning();
  await h.db.insert(classListItems).values([
    {
      listId: published!.id,
      title: 'Mathématiques 6e – CIAM',
      author: 'Collectif CIAM',
      publisher: 'EDICEF',
      year: 2018,
      isbn: '9782729810429',
      subjectId: ids.Mathématiques!,
    },
    { listId: draft!.id, title: 'Brouillon', author: 'X', isbn: '9782729810429', subjectId: ids.Français! },
  ]);
});
afterAll(() => h?.teardown());

describe('GET /books/isbn/{isbn}', () => {
  it('fills the book from its class list, whichever way its ISBN is spelled', async () => {
    await listBook(other, { title: 'Maths CIAM 6e', author: 'CIAM', isbn: '2-7298-1042-0', categories: ['5e'] });
    for (const spelling of [LISTED_ON_A_CLASS_LIST, '2729810420', '978 2729 810429']) {
      const res = await lookUp(spelling);
      expect(res.status, spelling).toBe(200);
      expect(res.body).toEqual({
        isbn: '9782729810429',
        isbn10: '2729810420',
        found: true,
        // The published list's book, not the draft's nor the listing's words.
        title: 'Mathématiques 6e – CIAM',
        author: 'Collectif CIAM',
        publisher: 'EDICEF',
        year: 2018,
        category_ids: [ids['6e'], ids.Mathématiques],
        sources: { class_lists: 1, listings: 1 },
      });
    }
  });

  it('fills a book no class list has from what most of its listings said, hidden ones aside', async () => {
    await listBook(seller, {
      title: 'Physique 3e',
      author: 'Bréal',
      isbn: LISTED_ONLY,
      categories: ['6e', 'Français'],
    });
    await listBook(other, {
      title: 'Physique 3e',
      author: 'Bréal',
      isbn: '9780306406157',
      categories: ['6e', 'Français'],
    });
    await listBook(other, {
      title: 'Physique (3e)',
      author: 'Breal',
      isbn: '978-0-306-40615-7',
      categories: ['6e', 'Français'],
    });
    const hidden = await listBook(other, {
      title: 'Physique 3e',
      author: 'Inconnu',
      isbn: LISTED_ONLY,
      categories: ['5e'],
    });
    await listBook(other, { title: 'Physique 3e', author: 'Inconnu', isbn: LISTED_ONLY, categories: ['5e'] });
    await h.db.update(books).set({ hiddenAt: new Date(), hiddenReason: 'test' }).where(eq(books.id, hidden));
    const res = await lookUp('9780306406157');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      isbn: '9780306406157',
      isbn10: '0306406152',
      found: true,
      title: 'Physique 3e',
      author: 'Bréal',
      publisher: 'Hachette',
      year: 2019,
      category_ids: [ids['6e'], ids.Français],
      sources: { class_lists: 0, listings: 4 },
    });
  });

  it('answers an unknown ISBN with nothing found, for the member to type the rest', async () => {
    const res = await lookUp(UNKNOWN);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      isbn: UNKNOWN,
      isbn10: '2070360024',
      found: false,
      title: null,
      author: null,
      publisher: null,
      year: null,
      category_ids: [],
      sources: { class_lists: 0, listings: 0 },
    });
  });

  it('refuses an ISBN with a wrong check digit, a wrong length or no book’s prefix, in French, naming the field', async () => {
    for (const [isbn, message] of [
      ['9782729810428', 'ISBN invalide : 10 ou 13 chiffres avec leur clé de contrôle, au dos du livre.'],
      ['12345', 'ISBN invalide : 10 ou 13 chiffres avec leur clé de contrôle, au dos du livre.'],
      ['4006381333931', 'Ce code-barres n’est pas celui d’un livre : l’ISBN commence par 978 ou 979.'],
    ]) {
      const res = await lookUp(isbn!);
      expect(res.status, isbn).toBe(422);
      expect(res.body.errors).toEqual({ isbn: [message] });
      expect(res.body.message).toEqual(expect.any(String));
    }
  });

  it('answers members only', async () => {
    const res = await h.call('GET', `/books/isbn/${UNKNOWN}`);
    expect(res.status).toBe(401);
    expect(res.body.message).toEqual(expect.any(String));
  });
});
