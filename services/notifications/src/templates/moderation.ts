import { escapeHtml, layout, type RenderedMail } from './layout.ts';

export function renderNewCommentMail(
  publicUrl: string,
  mail: { name: string; authorName: string; bookTitle: string; bookId: number; content: string; pending: boolean },
): RenderedMail {
  const url = new URL(`/books/${mail.bookId}#commentaires`, publicUrl).toString();
  const pending = mail.pending
    ? '<p style="color:#555">Il attend votre validation : vous pouvez l’approuver ou le rejeter depuis la page du manuel.</p>'
    : '';
  return {
    subject: `Nouveau commentaire sur « ${mail.bookTitle} » – Cartable`,
    html: layout({
      title: `Bonjour ${mail.name},`,
      body: `<p>${escapeHtml(mail.authorName)} a commenté votre annonce <strong>${escapeHtml(mail.bookTitle)}</strong> :</p>
<blockquote style="margin:16px 0;padding:12px 16px;background:#f4f6f5;border-left:4px solid #FCD116;border-radius:6px">${escapeHtml(mail.content)}</blockquote>${pending}`,
      action: { label: 'Voir le commentaire', url },
      reason: 'Vous recevez cet email parce qu’un membre a commenté une de vos annonces.',
    }),
    text: `Bonjour ${mail.name},

${mail.authorName} a commenté votre annonce « ${mail.bookTitle} » :

${mail.content}
${mail.pending ? '\nIl attend votre validation : vous pouvez l’approuver ou le rejeter depuis la page du manuel.\n' : ''}
${url}

L'équipe Cartable`,
  };
}

export function renderContactAnswerMail(mail: {
  name: string;
  subject: string;
  message: string;
  response: string;
}): RenderedMail {
  return {
    subject: `Re : ${mail.subject} – Cartable`,
    html: layout({
      title: `Bonjour ${mail.name},`,
      body: `<p>${escapeHtml(mail.response).replace(/\n/g, '<br>')}</p>
<p style="color:#777;font-size:13px;margin-top:24px">Votre message :</p>
<blockquote style="margin:8px 0;padding:12px 16px;background:#f4f6f5;border-radius:6px;color:#555">${escapeHtml(mail.message)}</blockquote>`,
      reason: 'Vous recevez cet email en réponse au message envoyé depuis la page Contact de Cartable.',
    }),
    text: `Bonjour ${mail.name},

${mail.response}

— Votre message —
${mail.message}

L'équipe Cartable`,
  };
}

/** After reports, an administrator warns a member: what was reported, why, and the rules. */
export function renderMemberWarnedMail(
  publicUrl: string,
  mail: { name: string; reason: string; targetLabel: string; note: string | null },
): RenderedMail {
  const terms = new URL('/terms', publicUrl).toString();
  const note = mail.note ? `<p>Précision de l’équipe : ${escapeHtml(mail.note)}</p>` : '';
  return {
    subject: 'Avertissement concernant votre compte – Cartable',
    html: layout({
      title: `Bonjour ${mail.name},`,
      body: `<p>Des membres ont signalé un de vos contenus pour le motif <strong>${escapeHtml(mail.reason)}</strong> :</p>
<blockquote style="margin:16px 0;padding:12px 16px;background:#f4f6f5;border-left:4px solid #FCD116;border-radius:6px">${escapeHtml(mail.targetLabel)}</blockquote>${note}
<p>Après examen, notre équipe vous adresse cet avertissement. Merci de respecter les conditions d’utilisation : en cas de récidive, votre compte pourra être désactivé.</p>`,
      action: { label: 'Lire les conditions d’utilisation', url: terms },
      reason: 'Vous recevez cet email à la suite de signalements examinés par l’équipe Cartable.',
    }),
    text: `Bonjour ${mail.name},

Des membres ont signalé un de vos contenus pour le motif « ${mail.reason} » :

${mail.targetLabel}
${mail.note ? `\nPrécision de l’équipe : ${mail.note}\n` : ''}
Après examen, notre équipe vous adresse cet avertissement. Merci de respecter les conditions d’utilisation : en cas de récidive, votre compte pourra être désactivé.

${terms}

L'équipe Cartable`,
  };
}
