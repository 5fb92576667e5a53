/** The hierarchy's French messages (SPEC section 8, "Hierarchy" and "Successes"). */
export const messages = {
  hierarchyError: 'Erreur lors du chargement de la hiérarchie',
  detailsError: 'Erreur lors du chargement des détails',
  addParentError: "Erreur lors de l'ajout du parent",
  addParentSuccess: 'Parent ajouté avec succès',
  removeParentError: 'Erreur lors de la suppression du parent',
  removeParentSuccess: 'Parent supprimé avec succès',
  noRoots: 'Aucune catégorie racine trouvée. Créez des catégories pour commencer.',
} as const;
