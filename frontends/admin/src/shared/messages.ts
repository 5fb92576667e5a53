/** French messages several back-office screens share. */
export const LOAD_ERROR = 'Erreur lors du chargement des données';

const fcfaFormat = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'XOF', maximumFractionDigits: 0 });
/** An amount of money, zero included (« 0 F CFA »; formatPrice reads 0 as a gift). */
export const fcfa = (amount: number) => fcfaFormat.format(amount);
