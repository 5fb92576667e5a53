import type { BookWriteResponse } from '@cartable/contracts';
import { api } from '@cartable/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { bookKeys } from '../../../shared/api/books';
import type { Book, Id } from '../../../shared/books';

/** Multipart create (POST /books) or update (POST /books/{id}). */
export function saveBook(form: FormData, id?: Id, idempotencyKey?: string): Promise<{ message?: string; book: Book }> {
  const path = id === undefined ? '/books' : `/books/${encodeURIComponent(String(id))}`;
  return api.post<BookWriteResponse>(path, form, idempotencyKey ? { idempotencyKey } : {});
}

/** Saves the listing; every list is stale afterwards and the saved book's page is known at once. */
export function useSaveBook(
  id: Id | undefined,
  handlers: { onSuccess: (answer: { message?: string; book: Book }) => void; onError: (error: unknown) => void },
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ form, idempotencyKey }: { form: FormData; idempotencyKey: string }) =>
      saveBook(form, id, idempotencyKey),
    onSuccess: (data) => {
      void queryClient.invalidateQueries({ queryKey: bookKeys.all });
      if (data.book) queryClient.setQueryData(bookKeys.detail(data.book.id), data.book);
      handlers.onSuccess(data);
    },
    onError: handlers.onError,
  });
}
