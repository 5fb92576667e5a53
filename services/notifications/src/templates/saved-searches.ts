import {
  SAVED_SEARCH_UNSUBSCRIBE_PAGE,
  SAVED_SEARCH_UNSUBSCRIBE_PATH,
  SAVED_SEARCHES_PAGE,
  type SavedSearchFrequency,
} from '@cartable/contracts';
import { fcfa } from './deals.ts';
import { escapeHtml, layout, type RenderedMail } from './layout.ts';

export interface SavedSearchMailBook {
  id: number;
  title: string;
  price: number;
  city_name: string | null;
  thumbnail: string | null;
}

export interface SavedSearchMail {
  name: string;
  searchName: string;
  summary: string;
  /** The /books query string that reopens the search. */
  queryString: string;
  frequency: SavedSearchFrequency;
  /** The newest first, at most SAVED_SEARCH_MAIL_BOOKS_MAX. */
  books: SavedSearchMailBook[];
  /** Matches not listed (past the maximum). */
  more: number;
  unsubscribeToken: string;
}

const priceText = (price: number) => (price === 0 ? 'offert (don)' : fcfa(price));
const bookLine = (b: SavedSearchMailBook) =>
  `« ${b.title} » · ${priceText(b.price)}${b.city_name ? ` · ${b.city_name}` : ''}`;

/** The notice's title and sentence for one match: one wording for the bell and the mail. */
export function savedSearchMatchText(searchName: string, book: SavedSearchMailBook) {
  return {
    title: `Nouvelle annonce pour « ${searchName} »`,
    sentence: `${bookLine(book)} vient d’être mis en ligne.`,
  };
}

/** Where the one-click unsubscribe (API) and its page (frontend) are, for a token. */
export function unsubscribeUrls(publicUrl: string, token: string) {
  const api = new URL(`/api${SAVED_SEARCH_UNSUBSCRIBE_PATH}`, publicUrl);
  api.searchParams.set('token', token);
  const page = new URL(SAVED_SEARCH_UNSUBSCRIBE_PAGE, publicUrl);
  page.searchParams.set('token', token);
  return { api: api.toString(), page: page.toString() };
}

function subjectOf(mail: SavedSearchMail) {
  const count = mail.books.length + mail.more;
  const period = mail.frequency === 'daily' ? ' aujourd’hui' : mail.frequency === 'weekly' ? ' cette semaine' : '';
  return count === 1
    ? `Nouvelle annonce pour « ${mail.searchName} »${period}`
    : `${count} nouvelles annonces pour « ${mail.searchName} »${period}`;
}

/**
 * A saved search's new matches (one for an instant alert, several when batched or in a digest),
 * with the one-click unsubscribe of RFC 8058 in the headers and a link to its page in the body.
 */
export function renderSavedSearchMail(publicUrl: string, mail: SavedSearchMail): RenderedMail {
  const subject = subjectOf(mail);
  const search = new URL(`/books${mail.queryString ? `?${mail.queryString}` : ''}`, publicUrl).toString();
  const manage = new URL(SAVED_SEARCHES_PAGE, publicUrl).toString();
  const unsubscribe = unsubscribeUrls(publicUrl, mail.unsubscribeToken);
  const items = mail.books.map((b) => ({ line: bookLine(b), url: new URL(`/books/${b.id}`, publicUrl).toString() }));
  const more =
    mail.more > 0 ? `et ${mail.more} autre${mail.more > 1 ? 's' : ''} annonce${mail.more > 1 ? 's' : ''}` : '';
  const intro = `De nouvelles annonces correspondent à votre recherche « ${mail.searchName} » (${mail.summary}) :`;
  return {
    subject: `${subject} – Cartable`,
    html: layout({
      title: `Bonjour ${mail.name},`,
      body: `<p>${escapeHtml(intro)}</p>
<ul style="padding-left:18px">${items
        .map(
          (i) =>
            `<li style="margin:6px 0"><a href="${escapeHtml(i.url)}" style="color:#3A75C4">${escapeHtml(i.line)}</a></li>`,
        )
        .join('')}${more ? `<li style="margin:6px 0">${escapeHtml(more)}</li>` : ''}</ul>
<p style="font-size:13px;color:#555">Gérer vos recherches enregistrées : <a href="${escapeHtml(manage)}" style="color:#3A75C4">${escapeHtml(manage)}</a><br>
Ne plus recevoir ces alertes : <a href="${escapeHtml(unsubscribe.page)}" style="color:#3A75C4">se désabonner de « ${escapeHtml(mail.searchName)} »</a></p>`,
      action: { label: 'Voir toutes les annonces', url: search },
      reason: 'Vous recevez cet email parce que vous avez enregistré cette recherche sur Cartable.',
    }),
    text: `Bonjour ${mail.name},

${intro}

${items.map((i) => `- ${i.line}\n  ${i.url}`).join('\n')}${more ? `\n- ${more}` : ''}

Toutes les annonces : ${search}
Gérer vos recherches enregistrées : ${manage}
Ne plus recevoir ces alertes : ${unsubscribe.page}

L'équipe Cartable`,
    headers: {
      'List-Unsubscribe': `<${unsubscribe.api}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
