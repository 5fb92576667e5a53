import { escapeHtml, layout, type RenderedMail } from './layout.ts';

const excerpt = (text: string) => (text.length > 280 ? `${text.slice(0, 277)}…` : text);

export function renderNewMessageMail(
  publicUrl: string,
  mail: { name: string; senderName: string; bookTitle: string; bookId: number; senderId: string; content: string },
): RenderedMail {
  const url = new URL(`/messages/${mail.bookId}/${mail.senderId}`, publicUrl).toString();
  return {
    subject: `${mail.senderName} vous a écrit au sujet de « ${mail.bookTitle} » – Cartable`,
    html: layout({
      title: `Bonjour ${mail.name},`,
      body: `<p>${escapeHtml(mail.senderName)} vous a écrit au sujet de <strong>${escapeHtml(mail.bookTitle)}</strong> :</p>
<blockquote style="margin:16px 0;padding:12px 16px;background:#f4f6f5;border-left:4px solid #009E60;border-radius:6px">${escapeHtml(excerpt(mail.content))}</blockquote>
<p style="color:#555">Répondez depuis Cartable : vos coordonnées restent privées tant que vous ne les donnez pas.</p>`,
      action: { label: 'Répondre', url },
      reason:
        'Vous recevez cet email parce qu’un membre vous a écrit sur Cartable (un email au plus toutes les 15 minutes par conversation).',
    }),
    text: `Bonjour ${mail.name},

${mail.senderName} vous a écrit au sujet de « ${mail.bookTitle} » :

${excerpt(mail.content)}

Répondre : ${url}

L'équipe Cartable`,
  };
}

export function renderMessageCopyMail(
  publicUrl: string,
  mail: { name: string; receiverName: string; bookTitle: string; bookId: number; receiverId: string; content: string },
): RenderedMail {
  const url = new URL(`/messages/${mail.bookId}/${mail.receiverId}`, publicUrl).toString();
  return {
    subject: `Copie de votre message à ${mail.receiverName} – Cartable`,
    html: layout({
      title: `Bonjour ${mail.name},`,
      body: `<p>Voici la copie du message que vous avez envoyé à ${escapeHtml(mail.receiverName)} au sujet de <strong>${escapeHtml(mail.bookTitle)}</strong> :</p>
<blockquote style="margin:16px 0;padding:12px 16px;background:#f4f6f5;border-left:4px solid #3A75C4;border-radius:6px">${escapeHtml(mail.content)}</blockquote>`,
      action: { label: 'Voir la conversation', url },
      reason: 'Vous recevez cet email parce que vous avez demandé une copie de votre message.',
    }),
    text: `Bonjour ${mail.name},

Voici la copie du message que vous avez envoyé à ${mail.receiverName} au sujet de « ${mail.bookTitle} » :

${mail.content}

La conversation : ${url}

L'équipe Cartable`,
  };
}
