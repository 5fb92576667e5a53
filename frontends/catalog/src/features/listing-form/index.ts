import { lazy } from 'react';

/** Publishing and editing a listing (photos, categories, the contract's rules). */
export const BookFormPage = lazy(() => import('./BookFormPage'));
/** POST /books (multipart, Idempotency-Key) and the photo rules, for the lists' bulk listing. */
export { saveBook } from './api/listing';
/** « Choisir dans les listes de classe »: a combobox over the books of the published class lists. */
export { ClassListAutofill } from './ClassListAutofill';
export { ACCEPTED_TYPES, MAX_IMAGE_BYTES, shrinkPhoto } from './photo';
