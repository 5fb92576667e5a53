import { escapeHtml, layout, type RenderedMail } from './layout.ts';

export type BookModerationAction = 'hidden' | 'unhidden' | 'deleted' | 'status_changed';

const statusLabels: Record<string, string> = { disponible: 'Disponible', réservé: 'Réservé', vendu: 'Vendu' };

/** What happened to the listing, in the sentence the owner reads. */
function what(action: BookModerationAction, status: string | undefined) {
  switch (action) {
    case 'hidden':
      return {
        subject: 'Votre annonce a été masquée',
        sentence: 'a été masquée par l’équipe de modération : elle n’apparaît plus dans le catalogue.',
        after:
          'Vous la retrouvez toujours dans « Mes manuels ». Si vous pensez qu’il s’agit d’une erreur, répondez-nous depuis la page Contact.',
      };
    case 'unhidden':
      return {
        subject: 'Votre annonce est de nouveau visible',
        sentence: 'est de nouveau visible dans le catalogue.',
        after: '',
      };
    case 'deleted':
      return {
        subject: 'Votre annonce a été supprimée',
        sentence: 'a été supprimée par l’équipe de modération.',
        after: 'Si vous pensez qu’il s’agit d’une erreur, écrivez-nous depuis la page Contact.',
      };
    case 'status_changed':
      return {
        subject: 'Le statut de votre annonce a changé',
        sentence: `est passée au statut « ${statusLabels[status ?? ''] ?? status ?? 'inconnu'} » par l’équipe de modération.`,
        after: '',
      };
  }
}

/** The owner of a listing hears of a moderator's action on it, with the reason given. */
export function renderBookModeratedMail(
  publicUrl: string,
  mail: {
    name: string;
    bookTitle: string;
    bookId: number;
    action: BookModerationAction;
    status?: string;
    reason: string | null;
  },
): RenderedMail {
  const { subject, sentence, after } = what(mail.action, mail.status);
  const url = new URL(mail.action === 'unhidden' ? `/books/${mail.bookId}` : '/my-books', publicUrl).toString();
  const reason = mail.reason
    ? `<p style="color:#555;margin-bottom:4px">Motif :</p>
<blockquote style="margin:8px 0 16px;padding:12px 16px;background:#f4f6f5;border-left:4px solid #FCD116;border-radius:6px">${escapeHtml(mail.reason).replace(/\n/g, '<br>')}</blockquote>`
    : '';
  return {
    subject: `${subject} : « ${mail.bookTitle} » – Cartable`,
    html: layout({
      title: `Bonjour ${mail.name},`,
      body: `<p>Votre annonce <strong>${escapeHtml(mail.bookTitle)}</strong> ${escapeHtml(sentence)}</p>
${reason}${after ? `<p style="color:#555">${escapeHtml(after)}</p>` : ''}`,
      ...(mail.action === 'deleted'
        ? {}
        : { action: { label: mail.action === 'unhidden' ? 'Voir l’annonce' : 'Voir mes manuels', url } }),
      reason: 'Vous recevez cet email parce que l’équipe de modération a agi sur une de vos annonces.',
    }),
    text: `Bonjour ${mail.name},

Votre annonce « ${mail.bookTitle} » ${sentence}
${mail.reason ? `\nMotif : ${mail.reason}\n` : ''}${after ? `\n${after}\n` : ''}${mail.action === 'deleted' ? '' : `\n${url}\n`}
L'équipe Cartable`,
  };
}
