import { scriptsHoldingZod, signedInPage, useBrowser } from '@cartable/stack/browser';
import { sharedStack } from '@cartable/stack/shared-stack';
import { call, type TestStack } from '@cartable/stack/test-stack';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The catalogue in Chromium (SPEC section 2): home, search, filters kept in the URL, a book with
 * its zoom viewer, and a member's listing from creation to deletion.
 */
let stack: TestStack;
const browser = useBrowser();
let token: string;

interface Category {
  id: number;
  name: string;
  children?: Category[];
}
interface City {
  id: number;
  name: string;
}

const ids = { college: 0, troisieme: 0, maths: 0, francais: 0, libreville: 0 };
const books = { maths: 0, francais: 0 };

/** A small photo (PNG) of one colour. */
function photo(colour: string, width = 300, height = 400): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

async function createBook(fields: Record<string, string>, images: Buffer[]): Promise<number> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  images.forEach((image, index) => {
    form.set(`image${index + 1}`, new Blob([new Uint8Array(image)], { type: 'image/png' }), `photo${index + 1}.png`);
  });
  const res = await fetch(`${stack.api}/books`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const body = (await res.json()) as { book?: { id: number } };
  if (res.status !== 201 || !body.book) throw new Error(`POST /books ${res.status}: ${JSON.stringify(body)}`);
  return body.book.id;
}

beforeAll(async () => {
  stack = sharedStack();
  const login = await call(`${stack.api}/login`, {
    body: { email: 'admin@cartable.ga', password: 'Cartable2026!' },
  });
  token = login.body.access_token;

  const hierarchy = await call(`${stack.api}/categories/hierarchy`);
  const roots = hierarchy.body.categories as Category[];
  const college = roots.find((c) => c.name === 'Collège');
  const troisieme = college?.children?.find((c) => c.name === '3e');
  ids.college = college?.id ?? 0;
  ids.troisieme = troisieme?.id ?? 0;
  ids.maths = troisieme?.children?.find((c) => c.name === 'Mathématiques')?.id ?? 0;
  ids.francais = troisieme?.children?.find((c) => c.name === 'Français')?.id ?? 0;
  const cities = await call(`${stack.api}/locations/cities?country_id=266`);
  ids.libreville = (cities.body.cities as City[]).find((c) => c.name === 'Libreville')?.id ?? 0;

  const common = { condition: 'bon', city_id: String(ids.libreville), is_negociable: 'true' };
  books.maths = await createBook(
    {
      ...common,
      title: 'Géométrie et algèbre 3e',
      author: 'Collectif CIAM',
      description: 'Manuel de mathématiques de 3e, quelques annotations au crayon.',
      price: '7500',
      category_ids: `${ids.troisieme},${ids.maths}`,
    },
    [await photo('#009e60'), await photo('#3a75c4')],
  );
  books.francais = await createBook(
    {
      ...common,
      title: 'Français 3e – Lectures africaines',
      author: 'IPN',
      price: '2500',
      category_ids: `${ids.troisieme},${ids.francais}`,
    },
    [await photo('#fcd116')],
  );
});

async function newPage(width = 1280): Promise<Page> {
  const context = await browser().newContext({ viewport: { width, height: 800 }, locale: 'fr-FR' });
  const page = await context.newPage();
  return page;
}

/** A page signed in as the admin, who lists the books here (the login form is the accounts journey's subject). */
const adminPage = (width: number) =>
  signedInPage(
    browser(),
    stack.url('gateway'),
    { email: 'admin@cartable.ga', password: 'Cartable2026!' },
    { viewport: { width, height: 800 }, locale: 'fr-FR' },
  );

const results = (page: Page) => page.getByRole('region', { name: /trouvés?$/ });

describe('catalogue', () => {
  it('searches from the home page, filters by category and price in the URL, opens a book and zooms', async () => {
    const page = await newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(stack.url('gateway'));

    // Home: carousel (built-in banners), « À la une » (boosted listings first), recent books, quick search.
    await page.getByRole('region', { name: 'Actualités' }).waitFor();
    await page.getByRole('region', { name: 'À la une' }).waitFor();
    const recent = page.getByRole('region', { name: 'Derniers manuels ajoutés' });
    await recent.getByRole('link', { name: 'Géométrie et algèbre 3e' }).waitFor();
    await page.getByRole('heading', { name: 'Villes du Gabon' }).waitFor();

    await page.getByLabel('Quel manuel cherchez-vous ?').fill('géométrie');
    await page.getByRole('button', { name: 'Rechercher', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/books' && url.searchParams.get('query') === 'géométrie');
    await results(page).getByRole('link', { name: 'Géométrie et algèbre 3e' }).waitFor();

    // Category cascade: Collège › 3e › Mathématiques, all in the URL.
    await page.goto(`${stack.url('gateway')}/books`);
    await results(page).getByRole('link', { name: 'Français 3e – Lectures africaines' }).waitFor();
    await page.getByLabel('Cycle').selectOption({ label: 'Collège' });
    await page.getByLabel('Niveau').selectOption({ label: '3e' });
    await page.getByLabel('Matière').selectOption({ label: 'Mathématiques' });
    await page.waitForURL(
      (url) => url.searchParams.get('category_ids') === `${ids.college},${ids.troisieme},${ids.maths}`,
    );
    await expect
      .poll(() => results(page).getByRole('link', { name: 'Français 3e – Lectures africaines' }).count())
      .toBe(0);
    await results(page).getByRole('link', { name: 'Géométrie et algèbre 3e' }).waitFor();

    // Price: a minimum above the book's price empties the list; the back button brings it back.
    await page.getByLabel('Minimum').fill('8000');
    await page.waitForURL((url) => url.searchParams.get('min_price') === '8000');
    await page.getByText('Aucun manuel trouvé').waitFor();
    await page.goBack();
    await page.waitForURL((url) => !url.searchParams.has('min_price') && url.searchParams.has('category_ids'));
    await results(page).getByRole('link', { name: 'Géométrie et algèbre 3e' }).waitFor();

    // The book, its two photos and the zoom viewer (keys +, -, 0, arrows, Escape).
    await results(page).getByRole('link', { name: 'Géométrie et algèbre 3e' }).click();
    await page.waitForURL(`**/books/${books.maths}`);
    await page.getByRole('heading', { level: 1, name: 'Géométrie et algèbre 3e' }).waitFor();
    await page.getByRole('heading', { name: 'Caractéristiques' }).waitFor();
    await page.getByRole('button', { name: 'Afficher la photo 2' }).waitFor();
    await page.getByRole('button', { name: /^Agrandir la photo 1/ }).click();
    const viewer = page.getByRole('dialog', { name: "Visionneuse d'images" });
    await viewer.waitFor();
    const image = viewer.getByTestId('zoom-image');
    await page.keyboard.press('+');
    await expect.poll(() => image.getAttribute('data-scale')).toBe('1.5');
    await page.keyboard.press('+');
    await expect.poll(() => image.getAttribute('data-scale')).toBe('2.25');
    await page.keyboard.press('-');
    await expect.poll(() => image.getAttribute('data-scale')).toBe('1.5');
    await page.keyboard.press('0');
    await expect.poll(() => image.getAttribute('data-scale')).toBe('1');
    await viewer.getByRole('button', { name: 'Zoom avant' }).click();
    await expect.poll(() => image.getAttribute('data-scale')).toBe('1.5');
    await page.keyboard.press('ArrowRight');
    await viewer.getByText(/^Image 2 sur 2/).waitFor();
    await expect.poll(() => image.getAttribute('data-scale')).toBe('1');
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });

    expect(await page.evaluate("JSON.parse(localStorage.getItem('recentlyViewedBooks') || '[]')")).toEqual([
      books.maths,
    ]);
    expect(errors).toEqual([]);
  });

  it('sends a visitor who wants to contact the seller to login, and keeps favourites for members only', async () => {
    const page = await newPage(390);
    await page.goto(`${stack.url('gateway')}/books/${books.francais}`);
    await page.getByRole('heading', { level: 1, name: 'Français 3e – Lectures africaines' }).waitFor();
    await page.getByRole('button', { name: /Ajouter « Français 3e – Lectures africaines » aux favoris/ }).click();
    await page.getByText('Connectez-vous pour ajouter des manuels à vos favoris.').waitFor();
    await page.getByRole('button', { name: 'Contacter le vendeur' }).click();
    await page.waitForURL(
      (url) => url.pathname === '/login' && url.searchParams.get('return_url') === `/books/${books.francais}#contact`,
    );
  });

  it('shares a listing (its link carries a preview) and says plainly when a listing is gone', async () => {
    const page = await newPage(1280);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto(`${stack.url('gateway')}/books/${books.francais}`);
    await page.getByRole('heading', { level: 1, name: 'Français 3e – Lectures africaines' }).waitFor();
    await page.getByRole('button', { name: 'Partager' }).click();
    const menu = page.getByRole('menu', { name: 'Partager cette annonce' });
    const whatsapp = await menu.getByRole('menuitem', { name: 'WhatsApp' }).getAttribute('href');
    expect(whatsapp).toContain('https://wa.me/?text=');
    expect(decodeURIComponent(whatsapp ?? '')).toContain(`/books/${books.francais}`);
    await menu.getByRole('menuitem', { name: 'Copier le lien' }).click();
    await page.getByText('Lien copié').waitFor();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(
      `${stack.url('gateway')}/books/${books.francais}`,
    );
    // What WhatsApp's crawler reads: the tags are in the HTML, without JavaScript.
    const html = await (await fetch(`${stack.url('gateway')}/books/${books.francais}`)).text();
    expect(html).toContain('<meta property="og:title" content="Français 3e – Lectures africaines — Cartable">');

    const phone = await newPage(360);
    await phone.goto(`${stack.url('gateway')}/books/987654`);
    await phone.getByRole('heading', { name: "Cette annonce n'est plus disponible" }).waitFor();
    await phone.getByRole('heading', { name: 'D’autres manuels récents' }).waitFor();
    expect(phone.url()).toContain('/books/987654');
    expect(await phone.getByText('Erreur lors du chargement des détails du manuel').count()).toBe(0);
  });

  it('lets a member list a book with two photos, find it, reserve it and delete it', async () => {
    const page = await adminPage(390);
    const title = 'Physique-Chimie 3e Zébulon';
    const zod = scriptsHoldingZod(page);

    await page.goto(`${stack.url('gateway')}/books/add`);
    await page.getByRole('heading', { name: 'Ajouter un manuel' }).waitFor();
    await page.getByLabel('Titre *').waitFor();
    // The form is drawn before its checks: the contract's schema, with zod, loads on the first touch.
    expect(await zod.loaded()).toEqual([]);
    // Empty form: French messages, nothing sent.
    await page.getByRole('button', { name: "Publier l'annonce" }).click();
    await page.getByText('Le titre est obligatoire').waitFor();
    await page.getByText('Choisissez au moins une catégorie').waitFor();
    expect((await zod.loaded()).length).toBeGreaterThan(0);

    await page.getByLabel('Titre *').fill(title);
    await page.getByLabel('Auteur *').fill('Collectif Eurêka');
    const categories = page.getByRole('combobox', { name: /^Catégories/ });
    await categories.fill('3e');
    await page.getByRole('option', { name: /^3e/ }).first().click();
    await categories.fill('physique');
    await page
      .getByRole('option', { name: /^Physique-Chimie/ })
      .first()
      .click();
    await page.keyboard.press('Escape');
    await page.getByLabel('État *').selectOption({ label: 'Très bon état' });
    await page.getByLabel('Prix (FCFA) *').fill('3500');
    await page.getByLabel('Ville *').selectOption({ label: 'Libreville' });
    await page.getByLabel('Échange possible').check();
    await page.getByLabel('Photo 1 (principale)').setInputFiles({
      name: 'couverture.png',
      mimeType: 'image/png',
      buffer: await photo('#009e60'),
    });
    await page.getByLabel('Photo 2', { exact: true }).setInputFiles({
      name: 'dos.png',
      mimeType: 'image/png',
      buffer: await photo('#fcd116'),
    });
    await page.getByRole('img', { name: 'Aperçu 2' }).waitFor();
    await page.getByRole('button', { name: "Publier l'annonce" }).click();

    await page.getByText('Annonce publiée avec succès').waitFor();
    await page.waitForURL(/\/books\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.getByRole('button', { name: 'Afficher la photo 2' }).waitFor();
    // The owner manages the listing instead of contacting.
    await page.getByRole('link', { name: "Modifier l'annonce" }).waitFor();
    expect(await page.getByRole('button', { name: 'Contacter le vendeur' }).count()).toBe(0);
    const created = await call(`${stack.api}/books/${id}`);
    expect(created.body.book.images).toHaveLength(2);
    expect(created.body.book.category_ids).toHaveLength(2);
    expect(created.body.book.category_ids).toContain(ids.troisieme);

    // In the member's books, then marked reserved. A fresh page: /my-books loads no zod either, its
    // « Conclure une vente » dialog brings its own form and schema when it first opens.
    const myBooks = await adminPage(390);
    const myBooksZod = scriptsHoldingZod(myBooks);
    await myBooks.goto(`${stack.url('gateway')}/my-books`);
    await myBooks.getByLabel(`Statut de « ${title} »`).waitFor();
    expect(await myBooksZod.loaded()).toEqual([]);
    await myBooks.getByRole('button', { name: `Conclure une vente pour « ${title} »` }).click();
    await myBooks.getByRole('dialog', { name: 'Conclure une vente' }).waitFor();
    expect((await myBooksZod.loaded()).length).toBeGreaterThan(0);
    await myBooks.context().close();

    await page.goto(`${stack.url('gateway')}/my-books`);
    const status = page.getByLabel(`Statut de « ${title} »`);
    await status.waitFor();
    await status.selectOption('réservé');
    await page.getByText('Statut mis à jour').waitFor();
    await expect.poll(async () => (await call(`${stack.api}/books/${id}`)).body.book.status).toBe('réservé');

    // Still found by the search (reserved books are listed), shown as reserved.
    await page.goto(`${stack.url('gateway')}/books?query=${encodeURIComponent('Zébulon')}`);
    const card = results(page).getByRole('listitem').filter({ hasText: title });
    await card.getByText('Réservé').waitFor();

    // Deleted after a confirmation.
    await page.goto(`${stack.url('gateway')}/my-books`);
    await page.getByRole('button', { name: `Supprimer « ${title} »` }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Supprimer cette annonce ?' });
    await confirm.getByRole('button', { name: "Supprimer l'annonce" }).click();
    await page.getByText('Annonce supprimée avec succès').waitFor();
    await expect.poll(() => page.getByLabel(`Statut de « ${title} »`).count()).toBe(0);
    expect((await call(`${stack.api}/books/${id}`)).status).toBe(404);
  });
});
