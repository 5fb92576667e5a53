import { type ReminderSeason, schoolYearReminderText } from '../templates/school-year.ts';

/**
 * The SMS texts: short French, one link, under 160 characters of the GSM-7 alphabet where
 * possible (one SMS, and no UCS-2 which would cut it to 70): « » ’ ê â î ô û … have no GSM-7
 * code and are written plainly. The sender ID says « Cartable »: alerts do not repeat it.
 */

// GSM 03.38's basic set (the escape table's € [ ] { } ~ ^ \ | count twice: left out here).
const GSM7 = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);
const PLAIN: Record<string, string> = {
  '«': '"',
  '»': '"',
  '’': "'",
  '‘': "'",
  '“': '"',
  '”': '"',
  '…': '...',
  œ: 'oe',
  Œ: 'OE',
  ç: 'c',
  '–': '-',
  '—': '-',
};

/** The text in GSM-7 characters: typographic marks made plain, other accents dropped (ê → e). */
export function toGsm7(text: string): string {
  let out = '';
  for (const ch of text.replace(/[\u00a0\u202f]/g, ' ')) {
    if (GSM7.has(ch)) out += ch;
    else if (PLAIN[ch]) out += PLAIN[ch];
    else {
      const bare = ch.normalize('NFD').replace(/\p{M}/gu, '');
      out += [...bare].every((c) => GSM7.has(c)) ? bare : '?';
    }
  }
  return out;
}

export const SMS_MAX = 160;
const STOP = 'STOP au SMS pour arreter';

/** `head` shortened (its quoted title first) so that the whole holds in one SMS with its link. */
function fitInOneSms(parts: { head: string; title: string; tail: string }): string {
  const build = (title: string) => toGsm7(`${parts.head.replace('{title}', title)}${parts.tail}`);
  let title = parts.title;
  let text = build(title);
  // A few passes at most (the plain rewriting of « … » may lengthen it); when even 12 characters
  // of title do not fit, the SMS goes in two parts rather than lose its link.
  for (let pass = 0; pass < 3 && text.length > SMS_MAX && title.length > 15; pass++) {
    const room = Math.max(12, title.length - (text.length - SMS_MAX) - 3);
    title = `${title.slice(0, room).trimEnd()}...`;
    text = build(title);
  }
  return text;
}

export type SmsMessage =
  | { template: 'phone-code'; data: { code: string } }
  | { template: 'stop-confirmed'; data: Record<string, never> }
  | {
      template: 'class-list-match';
      data: { bookId: number; bookTitle: string; price: number; where: string };
    }
  | { template: 'class-list-review'; data: { listLabel: string; outcome: 'published' | 'rejected' } }
  | { template: 'class-list-changed'; data: { listLabel: string; path: string } }
  | { template: 'class-list-withdrawn'; data: { listLabel: string; bookId: number; bookTitle: string } }
  | { template: 'saved-search-match'; data: { bookId: number; bookTitle: string; price: number; searchName: string } }
  | { template: 'message-waiting'; data: { senderName: string; bookTitle: string; bookId: number; senderId: string } }
  | {
      template: 'deal-step';
      data: {
        event: 'proposed' | 'confirmed' | 'declined' | 'cancelled';
        bookTitle: string;
        transactionId: string | number;
        otherName: string | null;
      };
    }
  | {
      template: 'payment-news';
      data: { event: string; title: string; planName: string; subscriptionId: string | number };
    }
  | { template: 'school-year-reminder'; data: { season: ReminderSeason } };

const DEAL_STEPS = {
  proposed: 'vous propose une transaction pour',
  confirmed: 'a confirme la transaction pour',
  declined: 'a refuse la transaction pour',
  cancelled: 'a annule la transaction pour',
} as const;

const fcfa = (amount: number) =>
  `${new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 0 }).format(amount).replace(/\s/g, ' ')} FCFA`;
const price = (amount: number) => (amount === 0 ? 'a donner' : fcfa(amount));

export function renderSms(message: SmsMessage, publicUrl: string): string {
  const site = publicUrl.replace(/\/+$/, '');
  switch (message.template) {
    case 'phone-code':
      return toGsm7(`Cartable : votre code est ${message.data.code}. Il expire dans 10 min. Ne le donnez a personne.`);
    case 'stop-confirmed':
      return toGsm7(`Cartable : vous ne recevrez plus de SMS. Pour les reactiver : ${site}/profile`);
    case 'class-list-match': {
      const { bookId, bookTitle, price: p, where } = message.data;
      return fitInOneSms({
        head: `Ma liste : "{title}" en vente ${where}, ${price(p)}. `,
        title: bookTitle,
        tail: `${site}/books/${bookId} ${STOP}`,
      });
    }
    case 'class-list-review': {
      const { listLabel, outcome } = message.data;
      return fitInOneSms({
        head:
          outcome === 'published' ? 'Votre liste {title} est publiee. ' : "Votre liste {title} n'a pas ete retenue. ",
        title: listLabel,
        tail: `${site}/ma-liste ${STOP}`,
      });
    }
    case 'class-list-changed': {
      const { listLabel, path } = message.data;
      return fitInOneSms({
        head: 'Ma liste : la liste {title} a change. ',
        title: listLabel,
        tail: `${site}${path} ${STOP}`,
      });
    }
    case 'class-list-withdrawn': {
      const { listLabel, bookId, bookTitle } = message.data;
      return fitInOneSms({
        head: `Votre annonce "{title}" n'est plus sur la liste ${listLabel}. `,
        title: bookTitle,
        tail: `${site}/books/${bookId} ${STOP}`,
      });
    }
    case 'message-waiting': {
      const { senderName, bookTitle, bookId, senderId } = message.data;
      return fitInOneSms({
        head: `${senderName.slice(0, 20)} vous a ecrit pour "{title}". `,
        title: bookTitle,
        tail: `${site}/messages/${bookId}/${senderId} ${STOP}`,
      });
    }
    case 'deal-step': {
      const { event, bookTitle, transactionId, otherName } = message.data;
      return fitInOneSms({
        head: otherName
          ? `${otherName.slice(0, 20)} ${DEAL_STEPS[event]} "{title}". `
          : 'La transaction pour "{title}" est annulee (livre cede). ',
        title: bookTitle,
        tail: `${site}/transactions/${transactionId} ${STOP}`,
      });
    }
    case 'payment-news': {
      const { title, planName, subscriptionId } = message.data;
      return fitInOneSms({
        head: `${title} ({title}). `,
        title: planName,
        tail: `${site}/subscription/details/${subscriptionId} ${STOP}`,
      });
    }
    case 'school-year-reminder': {
      const { sms, path } = schoolYearReminderText(message.data.season);
      return fitInOneSms({ head: `${sms} `, title: '', tail: `${site}${path} ${STOP}` });
    }
    case 'saved-search-match': {
      const { bookId, bookTitle, price: p, searchName } = message.data;
      return fitInOneSms({
        head: `Alerte "${searchName.slice(0, 30)}" : "{title}", ${price(p)}. `,
        title: bookTitle,
        tail: `${site}/books/${bookId} ${STOP}`,
      });
    }
  }
}

/** What stays of a sent SMS's data: a code is never kept once it left. */
export function forgetSecrets(message: SmsMessage): SmsMessage['data'] {
  return message.template === 'phone-code' ? { code: '••••••' } : message.data;
}
