/** French messages several back-office screens share. */
export const LOAD_ERROR = 'Erreur lors du chargement des données';
