import { escapeHtml, layout, type RenderedMail } from './layout.ts';

export interface VerificationMail {
  name: string;
  email: string;
  token: string;
  expiresAt: string;
}

/** The link opens the shell's /verify-email page (SPEC.md section 2) with token and e-mail. */
export function verificationLink(publicUrl: string, { token, email }: Pick<VerificationMail, 'token' | 'email'>) {
  const url = new URL('/verify-email', publicUrl);
  url.searchParams.set('token', token);
  url.searchParams.set('email', email);
  return url.toString();
}

export function renderVerificationMail(publicUrl: string, mail: VerificationMail): RenderedMail {
  const link = verificationLink(publicUrl, mail);
  const expires = new Intl.DateTimeFormat('fr-FR', {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'Africa/Libreville',
  }).format(new Date(mail.expiresAt));
  const subject = 'Confirmez votre adresse email – Cartable';
  const html = layout({
    title: `Bienvenue sur Cartable, ${mail.name} !`,
    body: `<p>Merci pour votre inscription. Pour publier vos manuels et contacter les vendeurs, confirmez votre adresse email.</p>
<p style="color:#555">Ce lien est valable jusqu'au ${escapeHtml(expires)} et ne peut servir qu'une fois.</p>`,
    action: { label: 'Confirmer mon adresse email', url: link },
  });
  const text = `Bienvenue sur Cartable, ${mail.name} !

Merci pour votre inscription. Pour publier vos manuels et contacter les vendeurs, confirmez votre adresse email en ouvrant ce lien :

${link}

Ce lien est valable jusqu'au ${expires} et ne peut servir qu'une fois.
Si vous n'êtes pas à l'origine de cette inscription, ignorez cet email.

L'équipe Cartable`;
  return { subject, html, text };
}
