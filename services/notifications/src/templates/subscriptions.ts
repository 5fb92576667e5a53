import { fcfa } from './deals.ts';
import { escapeHtml, layout, type RenderedMail } from './layout.ts';

export type SubscriptionMailEvent =
  | 'activated'
  | 'renewed'
  | 'extended'
  | 'expiring'
  | 'expired'
  | 'cancelled'
  | 'refunded'
  | 'payment_failed'
  | 'payment_expired';

export interface SubscriptionMail {
  name: string;
  event: SubscriptionMailEvent;
  subscriptionId: string;
  planName: string;
  endsAt: string | null;
  bookTitles: string[];
  /** An operator's reason (cancel, extension, refund) or the operator's failure reason. */
  reason: string | null;
  /** Refunds and failed payments. */
  amount: number | null;
}

const day = (iso: string) =>
  new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeZone: 'Africa/Libreville' }).format(new Date(iso));

function what(mail: SubscriptionMail) {
  const plan = `« ${mail.planName} »`;
  const until = mail.endsAt ? ` jusqu’au ${day(mail.endsAt)}` : '';
  const books = mail.bookTitles.length ? ` (${mail.bookTitles.map((t) => `« ${t} »`).join(', ')})` : '';
  switch (mail.event) {
    case 'activated':
      return {
        subject: `Votre abonnement ${plan} est actif`,
        sentence: `Votre paiement est confirmé : l’abonnement ${plan} est actif${until}. Vos annonces mises en avant${books} apparaissent « À la une » et en tête des recherches, avec la mention Sponsorisé.`,
        label: 'Voir mon abonnement',
      };
    case 'renewed':
      return {
        subject: `Votre abonnement ${plan} est renouvelé`,
        sentence: `Votre paiement est confirmé : l’abonnement ${plan} est prolongé${until}.`,
        label: 'Voir mon abonnement',
      };
    case 'extended':
      return {
        subject: `Votre abonnement ${plan} est prolongé`,
        sentence: `L’équipe Cartable a prolongé votre abonnement ${plan}${until}.${mail.reason ? ` Motif : ${mail.reason}` : ''}`,
        label: 'Voir mon abonnement',
      };
    case 'expiring':
      return {
        subject: `Votre abonnement ${plan} se termine bientôt`,
        sentence: `Votre abonnement ${plan} se termine${mail.endsAt ? ` le ${day(mail.endsAt)}` : ' dans quelques jours'}. Renouvelez-le pour que vos annonces${books} restent « À la une ».`,
        label: 'Renouveler',
      };
    case 'expired':
      return {
        subject: `Votre abonnement ${plan} est terminé`,
        sentence: `Votre abonnement ${plan} est arrivé à son terme : vos annonces${books} restent en ligne, sans mise en avant. Vous pouvez le renouveler à tout moment.`,
        label: 'Renouveler',
      };
    case 'cancelled':
      return {
        subject: `Votre abonnement ${plan} a été annulé`,
        sentence: `L’équipe Cartable a annulé votre abonnement ${plan}.${mail.reason ? ` Motif : ${mail.reason}` : ''} Vos annonces restent en ligne, sans mise en avant.`,
        label: 'Voir mon abonnement',
      };
    case 'refunded':
      return {
        subject: `Remboursement de votre abonnement ${plan}`,
        sentence: `Nous vous avons remboursé ${fcfa(mail.amount ?? 0)} pour l’abonnement ${plan}, qui prend fin.${mail.reason ? ` Motif : ${mail.reason}` : ''} Le montant arrive sur votre compte mobile money sous quelques jours.`,
        label: 'Voir le détail',
      };
    case 'payment_failed':
      return {
        subject: `Votre paiement pour ${plan} n’a pas abouti`,
        sentence: `Le paiement de ${fcfa(mail.amount ?? 0)} pour l’abonnement ${plan} n’a pas abouti${mail.reason ? ` (${mail.reason})` : ''}. Aucun montant n’a été encaissé ; vous pouvez réessayer depuis votre abonnement.`,
        label: 'Réessayer',
      };
    case 'payment_expired':
      return {
        subject: `Votre paiement pour ${plan} a expiré`,
        sentence: `Nous n’avons pas reçu la confirmation du paiement de ${fcfa(mail.amount ?? 0)} pour l’abonnement ${plan} dans les délais. Si vous avez payé, répondez à ce message avec la référence de l’opérateur ; sinon, vous pouvez réessayer.`,
        label: 'Voir mon abonnement',
      };
  }
}

/** A subscription changed, was refunded, or its payment did not go through. */
export function renderSubscriptionMail(publicUrl: string, mail: SubscriptionMail): RenderedMail {
  const { subject, sentence, label } = what(mail);
  const url = new URL(`/subscription/details/${mail.subscriptionId}`, publicUrl).toString();
  return {
    subject: `${subject} – Cartable`,
    html: layout({
      title: `Bonjour ${mail.name},`,
      body: `<p>${escapeHtml(sentence)}</p><p style="color:#555">Cartable ne prélève aucune commission sur les ventes entre membres : l’abonnement n’achète que de la visibilité.</p>`,
      action: { label, url },
      reason: 'Vous recevez cet email parce que vous avez souscrit un abonnement sur Cartable.',
    }),
    text: `Bonjour ${mail.name},

${sentence}

${label} : ${url}

L'équipe Cartable`,
  };
}
