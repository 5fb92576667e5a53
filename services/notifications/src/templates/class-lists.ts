import { fcfa } from './deals.ts';
import { alertUnsubscribe, escapeHtml, layout, type RenderedMail } from './layout.ts';

export interface ClassListMatchMail {
  name: string;
  /** « 6e · 2026-2027 » (and the school when the list is a school's). */
  listLabel: string;
  itemTitle: string;
  bookId: number;
  bookTitle: string;
  price: number;
  exchange: boolean;
  /** « à Libreville », « dans votre province (Franceville) », « à Port-Gentil ». */
  where: string;
  /** The member's one-click unsubscribe token (absent from mails queued before it existed). */
  unsubscribeToken?: string;
}

export interface ClassListReviewMail {
  name: string;
  listLabel: string;
  outcome: 'published' | 'rejected';
  reason: string | null;
  listId: number;
}

/** The notice's title and sentence and the mail's subject: one wording for both. */
export function classListMatchText(mail: Omit<ClassListMatchMail, 'name'>) {
  const price = mail.price === 0 ? 'offert (don)' : fcfa(mail.price);
  // The list's book is named only when the listing's title does not already say it.
  const sameBook = mail.bookTitle.toLocaleLowerCase('fr').includes(mail.itemTitle.toLocaleLowerCase('fr'));
  const which = sameBook ? `liste ${mail.listLabel}` : `${mail.itemTitle}, liste ${mail.listLabel}`;
  return {
    title: 'Un manuel de votre liste est disponible',
    sentence: `« ${mail.bookTitle} » (${which}) vient d’être mis en ligne ${mail.where} : ${price}${mail.exchange ? ', échange possible' : ''}.`,
  };
}

/** A member's saved class list: a book still missing was listed near them. */
export function renderClassListMatchMail(publicUrl: string, mail: ClassListMatchMail): RenderedMail {
  const { title, sentence } = classListMatchText(mail);
  const url = new URL(`/books/${mail.bookId}`, publicUrl).toString();
  const settings = new URL('/profile', publicUrl).toString();
  const unsubscribe = mail.unsubscribeToken ? alertUnsubscribe(publicUrl, mail.unsubscribeToken, 'class_list') : null;
  const stop = unsubscribe?.page ?? settings;
  return {
    subject: `${title} – Cartable`,
    ...(unsubscribe ? { headers: unsubscribe.headers } : {}),
    html: layout({
      title: `Bonjour ${mail.name},`,
      body: `<p>${escapeHtml(sentence)}</p>
<p style="font-size:13px;color:#555">Ne plus recevoir ces alertes : <a href="${escapeHtml(stop)}" style="color:#3A75C4">${unsubscribe ? 'arrêter les alertes de « Ma liste » par e-mail' : 'paramètres de votre profil'}</a>, ou retirez la liste de « Ma liste ».</p>`,
      action: { label: 'Voir l’annonce', url },
      reason: 'Vous recevez cet email parce que vous avez enregistré cette liste de manuels sur Cartable.',
    }),
    text: `Bonjour ${mail.name},

${sentence}

${url}

Ne plus recevoir ces alertes : ${stop}

L'équipe Cartable`,
  };
}

/** The author of a proposed list hears whether it was published. */
export function renderClassListReviewMail(publicUrl: string, mail: ClassListReviewMail): RenderedMail {
  const published = mail.outcome === 'published';
  const sentence = published
    ? `Merci : la liste de manuels que vous avez proposée (${mail.listLabel}) est publiée. Les familles la retrouvent dans « Ma liste ».`
    : `La liste de manuels que vous avez proposée (${mail.listLabel}) n’a pas été retenue.${mail.reason ? ` Motif : ${mail.reason}` : ''}`;
  const url = new URL('/ma-liste', publicUrl).toString();
  return {
    subject: `${published ? 'Votre liste de manuels est publiée' : 'Votre liste de manuels n’a pas été retenue'} – Cartable`,
    html: layout({
      title: `Bonjour ${mail.name},`,
      body: `<p>${escapeHtml(sentence)}</p>`,
      action: { label: 'Ouvrir Ma liste', url },
      reason: 'Vous recevez cet email parce que vous avez proposé une liste de manuels sur Cartable.',
    }),
    text: `Bonjour ${mail.name},

${sentence}

${url}

L'équipe Cartable`,
  };
}
