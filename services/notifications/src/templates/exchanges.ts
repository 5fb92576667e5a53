import { escapeHtml, layout, type RenderedMail } from './layout.ts';

export interface ExchangeSuggestedMail {
  name: string;
  kind: 'pair' | 'cycle';
  area: string;
  /** The book the member would give, and to whom. */
  give: { title: string; to: string } | null;
  /** The book the member would receive, and from whom. */
  receive: { title: string; from: string } | null;
}

/** The notice's title and sentence and the mail's subject: one wording for both. */
export function exchangeSuggestedText(mail: Omit<ExchangeSuggestedMail, 'name'>) {
  const parts = [
    mail.receive ? `vous recevez « ${mail.receive.title} » de ${mail.receive.from}` : null,
    mail.give ? `vous donnez « ${mail.give.title} » à ${mail.give.to}` : null,
  ].filter(Boolean);
  const who = mail.kind === 'cycle' ? 'un échange à trois' : 'un échange';
  return {
    title: 'Un échange de manuels vous est proposé',
    sentence: `Cartable a trouvé ${who} près de chez vous (${mail.area}) : ${parts.join(', et ')}. Acceptez-le ou refusez-le depuis la page Échanges ; une fois que tout le monde a accepté, vos conversations s’ouvrent.`,
  };
}

/** A pair or a cycle of three was found for the member's wishes and listings. */
export function renderExchangeSuggestedMail(publicUrl: string, mail: ExchangeSuggestedMail): RenderedMail {
  const { title, sentence } = exchangeSuggestedText(mail);
  const url = new URL('/echanges', publicUrl).toString();
  return {
    subject: `${title} – Cartable`,
    html: layout({
      title: `Bonjour ${mail.name},`,
      body: `<p>${escapeHtml(sentence)}</p>`,
      action: { label: 'Voir la proposition', url },
      reason: 'Vous recevez cet email parce que vous recherchez des manuels à échanger sur Cartable.',
    }),
    text: `Bonjour ${mail.name},

${sentence}

Voir la proposition : ${url}

L'équipe Cartable`,
  };
}
