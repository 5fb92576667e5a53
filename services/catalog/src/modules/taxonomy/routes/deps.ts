import type { Guards } from '@cartable/service-kit';
import type { Taxonomy } from '../taxonomy.ts';

/** What taxonomy's routes need: the guards, the upload limit, and the module's services. */
export interface TaxonomyRouteDeps {
  guards: Guards;
  config: { BOOK_IMAGE_MAX_BYTES: number };
  taxonomy: Taxonomy;
}
