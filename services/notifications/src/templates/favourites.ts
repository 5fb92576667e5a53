import { alertUnsubscribe, escapeHtml, layout, type RenderedMail } from './layout.ts';

export type FavouriteAlertKind = 'reserved' | 'sold' | 'price_drop';

export interface FavouriteAlertMail {
  name: string;
  kind: FavouriteAlertKind;
  bookId: number;
  bookTitle: string;
  price: number;
  previousPrice: number | null;
  /** The member's one-click unsubscribe token (absent from mails queued before it existed). */
  unsubscribeToken?: string;
}

/** 4 000 FCFA (French grouping with a plain space, whole FCFA). */
const fcfa = (amount: number) =>
  `${new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 0 }).format(amount).replace(/\s/g, ' ')} FCFA`;

/** The notice centre's title and sentence, and the mail's subject: one wording for both. */
export function favouriteAlertText(alert: Omit<FavouriteAlertMail, 'name'>) {
  switch (alert.kind) {
    case 'reserved':
      return {
        title: 'Un de vos favoris est réservé',
        sentence: `« ${alert.bookTitle} » vient d’être réservé par son vendeur. Il peut redevenir disponible : gardez-le dans vos favoris pour le savoir.`,
      };
    case 'sold':
      return {
        title: 'Un de vos favoris est vendu',
        sentence: `« ${alert.bookTitle} » a été vendu. D’autres annonces du même manuel vous attendent peut-être dans le catalogue.`,
      };
    case 'price_drop':
      return {
        title: 'Baisse de prix sur un de vos favoris',
        sentence: `« ${alert.bookTitle} » passe de ${fcfa(alert.previousPrice ?? alert.price)} à ${alert.price === 0 ? 'un don (gratuit)' : fcfa(alert.price)}.`,
      };
  }
}

/** A member hears that a book in their favourites was reserved, sold or became cheaper. */
export function renderFavouriteAlertMail(publicUrl: string, mail: FavouriteAlertMail): RenderedMail {
  const { title, sentence } = favouriteAlertText(mail);
  const url = new URL(`/books/${mail.bookId}`, publicUrl).toString();
  const settings = new URL('/profile', publicUrl).toString();
  const unsubscribe = mail.unsubscribeToken ? alertUnsubscribe(publicUrl, mail.unsubscribeToken, 'favourites') : null;
  const stop = unsubscribe?.page ?? settings;
  const reason =
    'Vous recevez cet email parce que ce manuel est dans vos favoris. Vous pouvez désactiver ces alertes dans les paramètres de votre profil.';
  return {
    subject: `${title} – Cartable`,
    ...(unsubscribe ? { headers: unsubscribe.headers } : {}),
    html: layout({
      title: `Bonjour ${mail.name},`,
      body: `<p>${escapeHtml(sentence)}</p>
<p style="font-size:13px;color:#555">Ne plus recevoir ces alertes : <a href="${escapeHtml(stop)}" style="color:#3A75C4">${unsubscribe ? 'arrêter les alertes de mes favoris par e-mail' : 'paramètres de votre profil'}</a>.</p>`,
      action: { label: 'Voir l’annonce', url },
      reason,
    }),
    text: `Bonjour ${mail.name},

${sentence}

${url}

Ne plus recevoir ces alertes : ${stop}

L'équipe Cartable`,
  };
}
