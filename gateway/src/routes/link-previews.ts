import { BOOK_PHOTO_SIZES, type BookDetail, bookPhotoSrcSet } from '@cartable/contracts';
import { DATA_SAVER_COOKIE } from '@cartable/contracts/book-page';
import escapeHtml from 'escape-html';
import type { FastifyPluginAsync } from 'fastify';

/**
 * What a link to a listing shows when pasted into WhatsApp or Facebook (Open Graph and Twitter
 * meta tags in the HTML itself: their crawlers run no JavaScript). The gateway asks catalog for
 * the book, briefly (catalog keeps a visitor's book page in memory); if catalog is slow or away
 * the page is served with the site's generic tags, never late.
 */
export interface PreviewMeta {
  title: string;
  description: string;
  url: string;
  image?: string | undefined;
  /** Whole FCFA; absent for a removed listing. */
  price?: number | undefined;
  /** The page's main photo (first slot), preloaded so that it loads beside the JavaScript. */
  photo?: { url: string; thumbnail_url?: string | null | undefined } | undefined;
}

const LOOKUP_TIMEOUT_MS = 800;
const price = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'XOF', maximumFractionDigits: 0 });
const CONDITIONS: Record<string, string> = {
  neuf: 'Neuf',
  'très bon': 'Très bon état',
  bon: 'Bon état',
  acceptable: 'État acceptable',
  mauvais: 'Mauvais état',
};

export const REMOVED_TITLE = "Cette annonce n'est plus disponible";

/** One line for the preview: price (or « Don »), condition, city, then the description. */
export function describeBook(book: BookDetail): string {
  const head = [
    book.price === 0 ? 'Don' : price.format(book.price).replace(/\u202f|\u00a0/g, ' '),
    CONDITIONS[book.condition] ?? book.condition,
    book.city?.name,
  ].filter(Boolean);
  const text = `${head.join(' · ')}${book.description ? ` — ${book.description}` : ''}`;
  // SPEC section 9: the meta description is the first 160 characters.
  return text.length > 160 ? `${text.slice(0, 159)}…` : text;
}

export function createBookPreviews(catalogUrl: string) {
  return async function bookPreview(id: number, origin: string): Promise<PreviewMeta | null> {
    const url = `${origin}/books/${id}`;
    const response = await fetch(`${catalogUrl}/books/${id}`, { signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS) }).catch(
      () => null,
    );
    if (!response) return null; // catalog away or slow: the generic tags
    if (response.status === 404) {
      return {
        title: `${REMOVED_TITLE} — Cartable`,
        description: 'Trouvez d’autres manuels d’occasion sur Cartable.',
        url,
      };
    }
    if (!response.ok) return null;
    const { book } = (await response.json().catch(() => ({}))) as { book?: BookDetail };
    if (!book) return null;
    const image = book.image1 && !/^https?:/.test(book.image1) ? `${origin}${book.image1}` : book.image1;
    return {
      title: `${book.title} — Cartable`,
      description: describeBook(book),
      url,
      image: image ?? undefined,
      price: book.price,
      photo: [...(book.images ?? [])].sort((a, b) => a.slot - b.slot)[0],
    };
  };
}

export type BookPreview = ReturnType<typeof createBookPreviews>;

/**
 * GET /books/{id}, a listing's page: the shell's HTML (routes/frontends.ts) with the listing's
 * preview in it.
 */
export const linkPreviewRoutes: FastifyPluginAsync<{ bookPreview: BookPreview }> = async (app, { bookPreview }) => {
  app.get('/books/:id', async (request, reply) => {
    const id = (request.params as { id: string }).id;
    const path = `/books/${id}`;
    if (!/^\d{1,9}$/.test(id)) return app.sendPage(reply, path);
    const filtered = request.url.includes('?');
    const found = await bookPreview(Number(id), `${request.protocol}://${request.host}`);
    // A phone saving data (the browser's Save-Data, or the member's own choice, which the pages
    // say in a cookie) shows the thumbnail until a tap: the large photo is not preloaded.
    const saving =
      request.headers['save-data'] === 'on' ||
      new RegExp(`(?:^|;\\s*)${DATA_SAVER_COOKIE}=1(?:;|$)`).test(request.headers.cookie ?? '');
    const meta = found && saving ? { ...found, photo: undefined } : found;
    return app.sendPage(reply, path, { filtered, ...(meta ? { edit: (html) => withPreview(html, meta) } : {}) });
  });
};

/** The page's <title> and description replaced, and the Open Graph and Twitter tags added. */
export function withPreview(html: string, meta: PreviewMeta): string {
  const e = escapeHtml;
  const tags = [
    `<meta property="og:site_name" content="Cartable">`,
    `<meta property="og:locale" content="fr_FR">`,
    `<meta property="og:type" content="${meta.price === undefined ? 'website' : 'product'}">`,
    `<meta property="og:title" content="${e(meta.title)}">`,
    `<meta property="og:description" content="${e(meta.description)}">`,
    `<meta property="og:url" content="${e(meta.url)}">`,
    meta.image ? `<meta property="og:image" content="${e(meta.image)}">` : '',
    meta.price === undefined ? '' : `<meta property="product:price:amount" content="${meta.price}">`,
    meta.price === undefined ? '' : `<meta property="product:price:currency" content="XOF">`,
    `<meta name="twitter:card" content="${meta.image ? 'summary_large_image' : 'summary'}">`,
    `<meta name="twitter:title" content="${e(meta.title)}">`,
    `<meta name="twitter:description" content="${e(meta.description)}">`,
    meta.image ? `<meta name="twitter:image" content="${e(meta.image)}">` : '',
    `<link rel="canonical" href="${e(meta.url)}">`,
    // The largest paint of a book page is its photo: ask for it now rather than after the
    // shell, the remote and the book's JSON (same srcset and sizes as the page's image).
    meta.photo ? photoPreload(meta.photo) : '',
  ].join('');
  return html
    .replace(/<title>[^<]*<\/title>/, `<title>${e(meta.title)}</title>`)
    .replace(/<meta name="description" content="[^"]*">/, `<meta name="description" content="${e(meta.description)}">`)
    .replace('</head>', `${tags}</head>`);
}

function photoPreload(photo: NonNullable<PreviewMeta['photo']>): string {
  const e = escapeHtml;
  const srcset = bookPhotoSrcSet(photo.url, photo.thumbnail_url);
  return `<link rel="preload" as="image" href="${e(photo.url)}"${
    srcset ? ` imagesrcset="${e(srcset)}" imagesizes="${e(BOOK_PHOTO_SIZES)}"` : ''
  } fetchpriority="high">`;
}
