import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deleteBook, invalidateListsAfterDeletion } from '../../../shared/api/books';
import type { Id } from '../../../shared/books';

/**
 * DELETE /books/{id} from the book's own page: every list is stale afterwards, but the deleted
 * book's page is not fetched again (it would answer 404). The book itself comes from the shared
 * `bookQuery` (shared/api/books.ts), its similar books from `booksQuery`.
 */
export function useDeleteBook(id: Id, handlers: { onSuccess: () => void; onError: (error: unknown) => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteBook(id),
    onSuccess: () => {
      handlers.onSuccess();
      void invalidateListsAfterDeletion(queryClient, id);
    },
    onError: handlers.onError,
  });
}
