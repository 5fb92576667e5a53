import { escapeHtml, layout, type RenderedMail } from './layout.ts';

export type DealMailEvent = 'proposed' | 'confirmed' | 'declined' | 'cancelled';

export interface DealMail {
  /** The recipient. */
  name: string;
  /** The other party; null when catalog cancelled the proposal (the book went to someone else). */
  otherName: string | null;
  event: DealMailEvent;
  transactionId: string;
  bookTitle: string;
  kind: 'sale' | 'exchange' | 'gift';
  price: number | null;
  exchangeBookTitle: string | null;
}

/** 4 000 FCFA (French grouping with a plain space, whole FCFA). */
export const fcfa = (amount: number) =>
  `${new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 0 }).format(amount).replace(/\s/g, ' ')} FCFA`;

/** « une vente à 4 000 FCFA », « un échange contre « … » », « un don ». */
function terms(mail: DealMail) {
  switch (mail.kind) {
    case 'sale':
      return `une vente à ${fcfa(mail.price ?? 0)}`;
    case 'exchange':
      return mail.exchangeBookTitle ? `un échange contre « ${mail.exchangeBookTitle} »` : 'un échange';
    case 'gift':
      return 'un don';
  }
}

function what(mail: DealMail) {
  const other = mail.otherName ?? 'Un membre';
  const book = `« ${mail.bookTitle} »`;
  switch (mail.event) {
    case 'proposed':
      return {
        subject: `${other} vous propose une transaction pour ${book}`,
        sentence: `${other} a enregistré ${terms(mail)} pour le manuel ${book}. Confirmez-la si vous êtes d’accord, ou refusez-la.`,
        after: 'Une fois confirmée, la transaction est définitive et l’annonce passe au statut Vendu.',
        label: 'Répondre à la proposition',
      };
    case 'confirmed':
      return {
        subject: `${other} a confirmé la transaction pour ${book}`,
        sentence: `${other} a confirmé ${terms(mail)} pour le manuel ${book}. L’annonce est maintenant marquée Vendu.`,
        after: 'Vous pouvez maintenant évaluer ce membre depuis la page de la transaction.',
        label: 'Voir la transaction',
      };
    case 'declined':
      return {
        subject: `${other} a refusé la transaction pour ${book}`,
        sentence: `${other} a refusé ${terms(mail)} pour le manuel ${book}. Votre annonce reste disponible.`,
        after: '',
        label: 'Voir la transaction',
      };
    case 'cancelled':
      return mail.otherName
        ? {
            subject: `${other} a annulé la transaction pour ${book}`,
            sentence: `${other} a annulé ${terms(mail)} pour le manuel ${book}.`,
            after: '',
            label: 'Voir la transaction',
          }
        : {
            subject: `La proposition pour ${book} a été annulée`,
            sentence: `La proposition (${terms(mail)}) pour le manuel ${book} a été annulée : ce manuel a été cédé dans une autre transaction.`,
            after: '',
            label: 'Voir la transaction',
          };
  }
}

/** A deal was proposed to the member, or its other party answered or cancelled it. */
export function renderDealMail(publicUrl: string, mail: DealMail): RenderedMail {
  const { subject, sentence, after, label } = what(mail);
  const url = new URL(`/transactions/${mail.transactionId}`, publicUrl).toString();
  return {
    subject: `${subject} – Cartable`,
    html: layout({
      title: `Bonjour ${mail.name},`,
      body: `<p>${escapeHtml(sentence)}</p>${after ? `<p style="color:#555">${escapeHtml(after)}</p>` : ''}`,
      action: { label, url },
      reason: 'Vous recevez cet email parce que vous êtes partie à une transaction sur Cartable.',
    }),
    text: `Bonjour ${mail.name},

${sentence}
${after ? `\n${after}\n` : ''}
${label} : ${url}

L'équipe Cartable`,
  };
}
