import { ApiError, errorMessage } from '@cartable/ui';
import { useQueryClient } from '@tanstack/react-query';
import { saveBook } from '../../../entities/listing/api/listing';
import { bookKeys } from '../../../shared/api/books';

/**
 * « Vendre ma liste » publishes its listings one POST /books at a time (a book alone, or the lot
 * with `lot_items`), each under its own Idempotency-Key, so that a retried one is never listed twice.
 */

/** What became of one POST /books: the listing, or the reason in French and whether it was refused. */
export type PublishOutcome = { ok: true; bookId: number } | { ok: false; error: string; refused: boolean };

/** The server's answer as one sentence (its message, then the fields' messages). */
function failure(error: unknown): string {
  if (error instanceof ApiError) {
    const fields = Object.values(error.errors).flat().filter(Boolean);
    return [errorMessage(error, 'La publication a échoué.'), ...fields].join(' ');
  }
  return 'La publication a échoué. Vérifiez votre connexion internet.';
}

/** POST /books of one listing under `key`; never throws. */
export async function publishListing(form: FormData, key: string): Promise<PublishOutcome> {
  try {
    const answer = await saveBook(form, undefined, key);
    return { ok: true, bookId: Number(answer.book.id) };
  } catch (error) {
    // A 4xx was refused: nothing was created, so an edited retry is a new request.
    const refused = error instanceof ApiError && error.status >= 400 && error.status < 500;
    return { ok: false, error: failure(error), refused };
  }
}

/** After a round of publications: every list of books is stale (the catalogue, « Mes manuels »…). */
export function useListingsPublished() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: bookKeys.all });
}
