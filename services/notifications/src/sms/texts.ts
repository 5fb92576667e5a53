/**
 * The SMS texts: short French, one link, under 160 characters of the GSM-7 alphabet where
 * possible (one SMS, and no UCS-2 which would cut it to 70): « » ’ ê â î ô û … have no GSM-7
 * code and are written plainly.
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
  while (text.length > SMS_MAX && title.length > 12) {
    title = `${title.slice(0, Math.max(12, title.length - (text.length - SMS_MAX) - 3)).trimEnd()}...`;
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
  | { template: 'saved-search-match'; data: { bookId: number; bookTitle: string; price: number; searchName: string } }
  | { template: 'message-waiting'; data: { senderName: string; bookTitle: string; bookId: number; senderId: string } };

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
          outcome === 'published'
            ? 'Cartable : votre liste {title} est publiee. '
            : "Cartable : votre liste {title} n'a pas ete retenue. ",
        title: listLabel,
        tail: `${site}/ma-liste ${STOP}`,
      });
    }
    case 'message-waiting': {
      const { senderName, bookTitle, bookId, senderId } = message.data;
      return fitInOneSms({
        head: `Cartable : ${senderName.slice(0, 20)} vous a ecrit pour "{title}". `,
        title: bookTitle,
        tail: `${site}/messages/${bookId}/${senderId} ${STOP}`,
      });
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
