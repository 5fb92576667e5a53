/**
 * The enumerations the API speaks and their French labels, as the screens show them, in a module
 * without zod (`@cartable/contracts/labels`): a page that shows a status or a condition does not
 * load the schemas (and zod, 96 KiB compressed) for it. The schemas build their enums from these.
 */

// ── a listing ──

export const bookConditions = ['neuf', 'très bon', 'bon', 'acceptable', 'mauvais'] as const;
export type BookCondition = (typeof bookConditions)[number];
/** SPEC.md section 3. */
export const conditionLabels: Record<BookCondition, string> = {
  neuf: 'Neuf',
  'très bon': 'Très bon état',
  bon: 'Bon état',
  acceptable: 'État acceptable',
  mauvais: 'Mauvais état',
};

/**
 * What the condition alone does not tell a buyer of school books: the seller ticks each that
 * applies, the card and the page show them, and the catalogue can leave them out.
 */
export const bookConditionFlags = ['annotated', 'filled_in', 'stamped', 'pages_missing', 'cover_damaged'] as const;
export type BookConditionFlag = (typeof bookConditionFlags)[number];
export const conditionFlagLabels: Record<BookConditionFlag, string> = {
  annotated: 'Annoté ou surligné',
  filled_in: 'Exercices déjà remplis',
  stamped: 'Tampon d’école ou de bibliothèque',
  pages_missing: 'Pages manquantes',
  cover_damaged: 'Couverture abîmée',
};
/** On a card, two columns wide on a phone. */
export const conditionFlagShortLabels: Record<BookConditionFlag, string> = {
  annotated: 'Annoté',
  filled_in: 'Exercices remplis',
  stamped: 'Tampon',
  pages_missing: 'Pages manquantes',
  cover_damaged: 'Couverture abîmée',
};
/** The catalogue's filter says what the buyer wants, not what they avoid. */
export const conditionFlagFilterLabels: Record<BookConditionFlag, string> = {
  annotated: 'Sans annotations',
  filled_in: 'Exercices vierges',
  stamped: 'Sans tampon',
  pages_missing: 'Aucune page manquante',
  cover_damaged: 'Couverture intacte',
};

export const bookStatuses = ['disponible', 'réservé', 'vendu'] as const;
export type BookStatus = (typeof bookStatuses)[number];
/** SPEC.md section 4: any other value shows as Vendu. */
export const statusLabel = (status: string) =>
  status === 'disponible' ? 'Disponible' : status === 'réservé' ? 'Réservé' : 'Vendu';

// ── a seller’s reply time ──

export const replyTimeBuckets = ['hour', 'day', 'days'] as const;
export type ReplyTimeBucket = (typeof replyTimeBuckets)[number];
export const replyTimeLabels: Record<ReplyTimeBucket, string> = {
  hour: 'répond en général en moins d’une heure',
  day: 'répond en général dans la journée',
  days: 'répond en général en quelques jours',
};

// ── class book lists ──

export const classListKinds = ['official', 'school'] as const;
export type ClassListKind = (typeof classListKinds)[number];
export const classListKindLabels: Record<ClassListKind, string> = {
  official: 'Liste officielle (IPN)',
  school: 'Liste de l’établissement',
};

export const classListStatuses = ['draft', 'proposed', 'published', 'rejected'] as const;
export type ClassListStatus = (typeof classListStatuses)[number];
export const classListStatusLabels: Record<ClassListStatus, string> = {
  draft: 'Brouillon',
  proposed: 'Proposée',
  published: 'Publiée',
  rejected: 'Refusée',
};

export const classListRequirements = ['required', 'recommended'] as const;
export type ClassListRequirement = (typeof classListRequirements)[number];
export const classListRequirementLabels: Record<ClassListRequirement, string> = {
  required: 'Obligatoire',
  recommended: 'Conseillé',
};

/** How a listing answers a book of the list: same ISBN, same title, or same subject and level. */
export const classListMatchKinds = ['isbn', 'title', 'subject'] as const;
export type ClassListMatchKind = (typeof classListMatchKinds)[number];
/** Where a listing is, from the chosen town. */
export const proximities = ['city', 'province', 'elsewhere'] as const;
export type Proximity = (typeof proximities)[number];
export const proximityLabels: Record<Proximity, string> = {
  city: 'Dans votre ville',
  province: 'Dans votre province',
  elsewhere: 'Ailleurs au Gabon',
};

// ── subscriptions and payments ──

export const planKinds = ['member', 'boost'] as const;
export type PlanKind = (typeof planKinds)[number];
export const planKindLabels: Record<PlanKind, string> = {
  member: 'Abonnement vendeur',
  boost: 'Mise en avant d’une annonce',
};

export const subscriptionStatuses = ['pending_payment', 'active', 'expired', 'cancelled', 'refunded'] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];
export const subscriptionStatusLabels: Record<SubscriptionStatus, string> = {
  pending_payment: 'En attente de paiement',
  active: 'Actif',
  expired: 'Expiré',
  cancelled: 'Annulé',
  refunded: 'Remboursé',
};

export const paymentProviders = ['manual', 'simulated', 'ebilling', 'mypvit'] as const;
export type PaymentProviderName = (typeof paymentProviders)[number];
export const paymentProviderLabels: Record<string, string> = {
  manual: 'Déclaration manuelle',
  simulated: 'Agrégateur (simulé)',
  ebilling: 'eBilling (Airtel Money, Moov Money)',
  mypvit: 'MyPVit (Airtel Money, Moov Money)',
};

export const mobileMoneyOperators = ['airtel_money', 'moov_money'] as const;
export type MobileMoneyOperator = (typeof mobileMoneyOperators)[number];
export const operatorLabels: Record<MobileMoneyOperator, string> = {
  airtel_money: 'Airtel Money',
  moov_money: 'Moov Money',
};

export const paymentStatuses = ['pending', 'submitted', 'ambiguous', 'paid', 'failed', 'expired'] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];
export const paymentStatusLabels: Record<PaymentStatus, string> = {
  pending: 'En attente',
  submitted: 'À valider',
  ambiguous: 'À vérifier',
  paid: 'Payé',
  failed: 'Échoué',
  expired: 'Expiré',
};

// ── reports of abuse ──

export const reportTargetTypes = ['book', 'user', 'comment', 'message'] as const;
export type ReportTargetType = (typeof reportTargetTypes)[number];

export const reportReasons = [
  'arnaque',
  'contenu_inapproprie',
  'deja_vendu',
  'doublon',
  'appartient_ecole',
  'autre',
] as const;
export type ReportReason = (typeof reportReasons)[number];
export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  arnaque: 'Arnaque',
  contenu_inapproprie: 'Contenu inapproprié',
  deja_vendu: 'Manuel déjà vendu',
  doublon: 'Doublon',
  appartient_ecole: 'Ce livre appartient à une école',
  autre: 'Autre',
};
/**
 * Reasons that concern a listing only: a school's stamp or a library's label says the book was
 * lent to a pupil, not given, and cannot be sold.
 */
export const LISTING_ONLY_REPORT_REASONS: readonly ReportReason[] = ['appartient_ecole'];

/**
 * `applying`: decided, waiting for the owning service (catalog hides a listing, auth deactivates
 * an account) to say the action is done; then `actioned`.
 */
export const reportStatuses = ['open', 'applying', 'dismissed', 'actioned'] as const;
export type ReportStatus = (typeof reportStatuses)[number];
export const reportStatusLabels: Record<ReportStatus, string> = {
  open: 'À traiter',
  applying: 'Action en cours',
  dismissed: 'Classé sans suite',
  actioned: 'Traité',
};
export const reportDecisions = ['dismissed', 'hidden', 'warned', 'deactivated'] as const;
export type ReportDecision = (typeof reportDecisions)[number];

// ── saved searches ──

export const savedSearchFrequencies = ['instant', 'daily', 'weekly'] as const;
export type SavedSearchFrequency = (typeof savedSearchFrequencies)[number];
export const savedSearchFrequencyLabels: Record<SavedSearchFrequency, string> = {
  instant: 'Dès qu’une annonce paraît',
  daily: 'Une fois par jour',
  weekly: 'Une fois par semaine',
};

// ── deals between members ──

export const transactionKinds = ['sale', 'exchange', 'gift'] as const;
export type TransactionKind = (typeof transactionKinds)[number];
export const transactionKindLabels: Record<TransactionKind, string> = {
  sale: 'Vente',
  exchange: 'Échange',
  gift: 'Don',
};

export const transactionStatuses = ['proposed', 'confirmed', 'declined', 'cancelled'] as const;
export type TransactionStatus = (typeof transactionStatuses)[number];
export const transactionStatusLabels: Record<TransactionStatus, string> = {
  proposed: 'Proposée',
  confirmed: 'Confirmée',
  declined: 'Refusée',
  cancelled: 'Annulée',
};

// ── exchange matching ──

export const exchangeWishKinds = ['item', 'subject'] as const;
export const exchangeSuggestionKinds = ['pair', 'cycle'] as const;
export type ExchangeSuggestionKind = (typeof exchangeSuggestionKinds)[number];
export const exchangeSuggestionStatuses = ['open', 'accepted', 'declined', 'lapsed'] as const;
export type ExchangeSuggestionStatus = (typeof exchangeSuggestionStatuses)[number];
export const exchangeSuggestionStatusLabels: Record<ExchangeSuggestionStatus, string> = {
  open: 'En attente des réponses',
  accepted: 'Acceptée par tous',
  declined: 'Refusée',
  lapsed: 'Expirée',
};

/** The kinds of alert mail a link can stop; saved searches have their own (one per search). */
export const alertMailKinds = ['favourites', 'class_list', 'school_year'] as const;
export type AlertMailKind = (typeof alertMailKinds)[number];
export const alertMailKindLabels: Record<AlertMailKind, string> = {
  favourites: 'Alertes de mes favoris',
  class_list: 'Alertes de « Ma liste »',
  school_year: 'Rappels du calendrier scolaire',
};
/** The API of RFC 8058's `List-Unsubscribe` (POST) and the page a mail's link opens. */
export const ALERTS_UNSUBSCRIBE_PATH = '/notifications/unsubscribe';
export const ALERTS_UNSUBSCRIBE_PAGE = '/alertes/desabonnement';

/** A class list as its alerts and a listing's page name it (« 6e 2026-2027 (Lycée des Manguiers) »). */
export interface ClassListRefLike {
  id: number;
  level_id: number;
  school_year: string;
  level_name: string;
  school_name: string | null;
}
export const classListRefLabel = (l: Pick<ClassListRefLike, 'level_name' | 'school_year' | 'school_name'>) =>
  `${l.level_name} ${l.school_year}${l.school_name ? ` (${l.school_name})` : ''}`;
/** « Ma liste » opened on this list (the link of its notices and mails). */
export const classListRefPath = (l: Pick<ClassListRefLike, 'id' | 'level_id'>) =>
  `/ma-liste?level=${l.level_id}&list=${l.id}`;
