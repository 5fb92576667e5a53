import type { SearchInterpretation } from '@cartable/contracts';
import type { ReactNode } from 'react';
import type { CatalogueFilters } from './filters';

/**
 * What /books shows from other features: « Enregistrer cette recherche » under the active
 * filters (the saved searches). The route table (src/routes.tsx) composes it.
 */
export interface BooksPageParts {
  saveSearch: (filters: CatalogueFilters, interpreted: SearchInterpretation | null | undefined) => ReactNode;
}
