import type { MobileMoneyOperator, PaymentStatus, PlanKind, SubscriptionStatus } from '@cartable/contracts';
import { type BadgeTone, formatNumber } from '@cartable/ui';

/**
 * The French labels of libs/contracts/src/subscriptions.ts, copied so that the pages do not load
 * the contracts module (and zod) on a phone; `satisfies` keeps the keys in step with the contract.
 */
export const KIND_LABELS = {
  member: 'Abonnement vendeur',
  boost: 'Mise en avant d’une annonce',
} satisfies Record<PlanKind, string>;

export const STATUS_LABELS = {
  pending_payment: 'En attente de paiement',
  active: 'Actif',
  expired: 'Expiré',
  cancelled: 'Annulé',
  refunded: 'Remboursé',
} satisfies Record<SubscriptionStatus, string>;

export const STATUS_TONES = {
  pending_payment: 'accent',
  active: 'success',
  expired: 'neutral',
  cancelled: 'neutral',
  refunded: 'ocean',
} satisfies Record<SubscriptionStatus, BadgeTone>;

export const PAYMENT_STATUS_LABELS = {
  pending: 'En attente',
  submitted: 'À valider',
  paid: 'Payé',
  failed: 'Échoué',
  expired: 'Expiré',
} satisfies Record<PaymentStatus, string>;

export const PAYMENT_STATUS_TONES = {
  pending: 'accent',
  submitted: 'ocean',
  paid: 'success',
  failed: 'danger',
  expired: 'neutral',
} satisfies Record<PaymentStatus, BadgeTone>;

export const OPERATORS = ['airtel_money', 'moov_money'] as const satisfies readonly MobileMoneyOperator[];
export const OPERATOR_LABELS = {
  airtel_money: 'Airtel Money',
  moov_money: 'Moov Money',
} satisfies Record<MobileMoneyOperator, string>;

export const PROVIDER_LABELS: Record<string, string> = {
  manual: 'Déclaration manuelle',
  simulated: 'Agrégateur (simulé)',
};

/** « 12 jours », « 1 jour ». */
export function days(n: number): string {
  return `${formatNumber(n)} jour${n > 1 ? 's' : ''}`;
}

/** What a plan gives, in a few lines. */
export function planBenefits(plan: {
  kind: PlanKind;
  duration_days: number;
  boost_slots: number;
  seller_badge: boolean;
  listings_limit: number | null;
}): string[] {
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
