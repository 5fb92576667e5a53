/**
 * The kinds of alert and their channels, without zod (`@cartable/contracts/alert-kinds`), for the
 * settings screen; alert-channels.ts holds the schemas.
 */

/** The kinds of alert a member chooses channels for. */
export const alertKinds = ['saved_searches', 'class_list', 'messages', 'deals', 'payments', 'school_year'] as const;
export type AlertKind = (typeof alertKinds)[number];
export const alertKindLabels: Record<AlertKind, { label: string; hint: string }> = {
  saved_searches: { label: 'Recherches enregistrées', hint: 'Un nouveau manuel correspond à une de vos recherches.' },
  class_list: { label: '« Ma liste »', hint: 'Un manuel qui manque à votre liste est en vente près de chez vous.' },
  messages: { label: 'Messages', hint: 'Un message vous attend dans une conversation.' },
  deals: { label: 'Transactions', hint: 'Une transaction proposée, confirmée ou annulée.' },
  payments: { label: 'Paiements', hint: 'Un paiement confirmé ou refusé, un abonnement qui se termine.' },
  school_year: { label: 'Calendrier scolaire', hint: 'Deux rappels par an : vendre en juin, acheter en août.' },
};
export const alertChannelNames = ['email', 'sms', 'in_app'] as const;
export type AlertChannelName = (typeof alertChannelNames)[number];
/**
 * Channels that stay on whatever the choice: a message waiting always shows on the envelope's
 * badge; a payment's or a subscription's news is transactional (e-mail and notice centre).
 */
export const fixedAlertChannels: Partial<Record<AlertKind, readonly AlertChannelName[]>> = {
  messages: ['in_app'],
  payments: ['email', 'in_app'],
};
/**
 * The channels of a kind before the member chooses: e-mail and in-app for the alerts they asked
 * for (a search, a list, a deal); the school year's reminders, which nobody asked for, only in
 * the notice centre until e-mail or SMS is chosen.
 */
export const defaultAlertChannels = (kind: AlertKind): Record<AlertChannelName, boolean> =>
  kind === 'school_year' ? { email: false, sms: false, in_app: true } : { email: true, sms: false, in_app: true };
export const alertChannelLabels: Record<AlertChannelName, string> = {
  email: 'E-mail',
  sms: 'SMS',
  in_app: 'Dans Cartable',
};
