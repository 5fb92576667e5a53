import { SUPPORT_REPLY } from '../../shared/company';

/** SPEC section 2: the contact page states its own phone hours. */
export const CONTACT_PHONE_HOURS = 'Du lundi au vendredi, de 9h à 18h';

/** SPEC sections 5 and 8: the contact form's messages. */
export const contactMessages = {
  name: 'Le nom est requis',
  email: "L'email est requis",
  emailFormat: 'Veuillez entrer une adresse email valide',
  subject: 'Le sujet est requis',
  message: 'Le message est requis',
  captcha: "Veuillez résoudre correctement l'opération mathématique",
  failure: (email: string) =>
    `Une erreur est survenue lors de l'envoi du message. Veuillez réessayer ou nous contacter directement à ${email}`,
  success: `Votre message a bien été envoyé. Notre équipe vous répond sous ${SUPPORT_REPLY}.`,
} as const;
