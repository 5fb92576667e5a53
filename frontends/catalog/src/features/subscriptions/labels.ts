import type { PaymentStatus, Plan, SubscriptionStatus } from '@cartable/contracts';
import { type BadgeTone, formatNumber } from '@cartable/ui';

/** The tones of the statuses' badges (their French labels: @cartable/contracts/labels). */
export const STATUS_TONES = {
  pending_payment: 'accent',
  active: 'success',
  expired: 'neutral',
  cancelled: 'neutral',
  refunded: 'ocean',
} satisfies Record<SubscriptionStatus, BadgeTone>;

export const PAYMENT_STATUS_TONES = {
  pending: 'accent',
  submitted: 'ocean',
  ambiguous: 'accent',
  paid: 'success',
  failed: 'danger',
  expired: 'neutral',
} satisfies Record<PaymentStatus, BadgeTone>;

/**
 * « Paiement refusé : solde insuffisant. » from the aggregator's reason, which comes capitalised and
 * without its full stop; an acronym (« MTN … ») keeps its capitals.
 */
export function refusalSentence(reason: string | null | undefined): string {
  const text = (reason ?? '').trim().replace(/[.\s]+$/, '');
  if (!text) return 'Paiement refusé.';
  const lowered = /^\p{Lu}\p{Ll}/u.test(text) ? text.charAt(0).toLocaleLowerCase('fr') + text.slice(1) : text;
  return `Paiement refusé : ${lowered}.`;
}

/** « 12 jours », « 1 jour ». */
export function days(n: number): string {
  return `${formatNumber(n)} jour${n > 1 ? 's' : ''}`;
}

/** What a plan gives, in a few lines. */
export function planBenefits(
  plan: Pick<Plan, 'kind' | 'duration_days' | 'boost_slots' | 'seller_badge' | 'listings_limit'>,
): string[] {
  const lines: string[] = [];
  if (plan.kind === 'boost') {
    lines.push(`Votre annonce « À la une » pendant ${days(plan.duration_days)}`);
    lines.push('En tête des recherches qui la concernent, avec le badge « Sponsorisé »');
  } else {
    lines.push(
      plan.boost_slots > 1
        ? `Jusqu’à ${plan.boost_slots} annonces « À la une » à la fois`
        : 'Une annonce « À la une » à la fois',
    );
    lines.push(`Pendant ${days(plan.duration_days)}, annonces à changer quand vous voulez`);
    if (plan.seller_badge) lines.push('Badge vendeur sur votre profil et vos annonces');
    lines.push(
      plan.listings_limit === null
        ? 'Annonces en ligne sans limite'
        : `Jusqu’à ${plan.listings_limit} annonces en ligne`,
    );
  }
  lines.push('Aucune commission sur vos ventes');
  return lines;
}
