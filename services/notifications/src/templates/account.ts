import { escapeHtml, layout, type RenderedMail } from './layout.ts';

const when = (iso: string) =>
  new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Africa/Libreville' }).format(
    new Date(iso),
  );

const link = (publicUrl: string, path: string, params: Record<string, string>) => {
  const url = new URL(path, publicUrl);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
};

const signature = "\n\nL'équipe Cartable";

export function renderPasswordResetMail(
  publicUrl: string,
  mail: { name: string; email: string; token: string; expiresAt: string },
): RenderedMail {
  const url = link(publicUrl, '/reset-password', { token: mail.token, email: mail.email });
  return {
    subject: 'Réinitialisation de votre mot de passe – Cartable',
    html: layout({
      title: `Bonjour ${mail.name},`,
      body: `<p>Vous avez demandé à réinitialiser le mot de passe de votre compte Cartable.</p>
<p style="color:#555">Ce lien est valable jusqu'au ${escapeHtml(when(mail.expiresAt))} et ne peut servir qu'une fois. Si vous n'êtes pas à l'origine de cette demande, ignorez cet email : votre mot de passe reste inchangé.</p>`,
      action: { label: 'Choisir un nouveau mot de passe', url },
      reason: 'Vous recevez cet email suite à une demande de réinitialisation de mot de passe.',
    }),
    text: `Bonjour ${mail.name},

Vous avez demandé à réinitialiser le mot de passe de votre compte Cartable. Ouvrez ce lien pour en choisir un nouveau :

${url}

Ce lien est valable jusqu'au ${when(mail.expiresAt)} et ne peut servir qu'une fois.
Si vous n'êtes pas à l'origine de cette demande, ignorez cet email : votre mot de passe reste inchangé.${signature}`,
  };
}

const codePurposes = {
  login: { subject: 'Votre code de connexion', intro: 'Voici le code pour terminer votre connexion à Cartable :' },
  enable: {
    subject: 'Activez la vérification en deux étapes',
    intro: 'Voici le code pour activer la vérification en deux étapes sur votre compte :',
  },
  disable: {
    subject: 'Désactivez la vérification en deux étapes',
    intro: 'Voici le code pour désactiver la vérification en deux étapes sur votre compte :',
  },
} as const;

export function renderTwoFactorCodeMail(mail: {
  name: string;
  code: string;
  purpose: keyof typeof codePurposes;
  expiresAt: string;
}): RenderedMail {
  const { subject, intro } = codePurposes[mail.purpose];
  return {
    subject: `${subject} : ${mail.code} – Cartable`,
    html: layout({
      title: `Bonjour ${mail.name},`,
      body: `<p>${escapeHtml(intro)}</p>
<p style="font-size:32px;letter-spacing:8px;font-weight:700;margin:20px 0;color:#1c2b22">${escapeHtml(mail.code)}</p>
<p style="color:#555">Ce code expire le ${escapeHtml(when(mail.expiresAt))} et ne sert qu'une fois. Ne le communiquez à personne : l'équipe Cartable ne vous le demandera jamais.</p>`,
      reason: 'Vous recevez cet email parce que la vérification en deux étapes protège votre compte.',
    }),
    text: `Bonjour ${mail.name},

${intro}

    ${mail.code}

Ce code expire le ${when(mail.expiresAt)} et ne sert qu'une fois. Ne le communiquez à personne : l'équipe Cartable ne vous le demandera jamais.${signature}`,
  };
}

export function renderPasswordChangedMail(
  publicUrl: string,
  mail: { name: string; email: string; changedAt: string },
): RenderedMail {
  const forgot = new URL('/forgot-password', publicUrl).toString();
  return {
    subject: 'Votre mot de passe a été modifié – Cartable',
    html: layout({
      title: `Bonjour ${mail.name},`,
      body: `<p>Le mot de passe de votre compte Cartable a été modifié le ${escapeHtml(when(mail.changedAt))}. Vos autres sessions ont été fermées.</p>
<p style="color:#555">Si ce n'est pas vous, réinitialisez votre mot de passe tout de suite et écrivez-nous à contact@cartable.ga.</p>`,
      action: { label: 'Réinitialiser mon mot de passe', url: forgot },
      reason: 'Vous recevez cet email pour la sécurité de votre compte.',
    }),
    text: `Bonjour ${mail.name},

Le mot de passe de votre compte Cartable a été modifié le ${when(mail.changedAt)}. Vos autres sessions ont été fermées.

Si ce n'est pas vous, réinitialisez votre mot de passe tout de suite : ${forgot}
et écrivez-nous à contact@cartable.ga.${signature}`,
  };
}

export function renderAccountDeletedMail(mail: { name: string; deletedAt: string }): RenderedMail {
  return {
    subject: 'Votre compte Cartable a été supprimé',
    html: layout({
      title: `Au revoir ${mail.name}`,
      body: `<p>Votre compte Cartable a été supprimé le ${escapeHtml(when(mail.deletedAt))}, avec vos informations de profil.</p>
<p style="color:#555">Merci d'avoir fait circuler vos manuels. Vous pouvez créer un nouveau compte à tout moment. Si vous n'êtes pas à l'origine de cette suppression, écrivez-nous à contact@cartable.ga.</p>`,
      reason: 'Vous recevez ce dernier email pour confirmer la suppression de votre compte.',
    }),
    text: `Au revoir ${mail.name},

Votre compte Cartable a été supprimé le ${when(mail.deletedAt)}, avec vos informations de profil.
Merci d'avoir fait circuler vos manuels. Vous pouvez créer un nouveau compte à tout moment.
Si vous n'êtes pas à l'origine de cette suppression, écrivez-nous à contact@cartable.ga.${signature}`,
  };
}
