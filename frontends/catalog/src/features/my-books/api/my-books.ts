import type { BookWriteResponse } from '@cartable/contracts';
import { RELIST_AFTER_MONTHS } from '@cartable/contracts/limits';
import { api } from '@cartable/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { bookKeys, deleteBook, myBooksQuery, updateBookStatus } from '../../../shared/api/books';
import type { Book, BookStatus } from '../../../shared/books';

/** The member's listings, every status (GET /api/user/books), and what they change on them. */
export const useMyBooks = () => useQuery(myBooksQuery());

/** The public lists are stale after a change (this list is updated in place). */
function useRefreshLists() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: bookKeys.all, predicate: (q) => q.queryKey[1] !== 'mine' });
}

/** PUT /books/{id}/status; the listing changes in place. */
export function useUpdateStatus(handlers: {
  onSuccess: (answer: { message?: string; book?: Book }, next: BookStatus) => void;
  onError: (error: unknown) => void;
}) {
  const queryClient = useQueryClient();
  const refreshLists = useRefreshLists();
  return useMutation({
    mutationFn: ({ book, next }: { book: Book; next: BookStatus }) => updateBookStatus(book.id, next),
    onSuccess: (data, { book, next }) => {
      queryClient.setQueryData<Book[]>(bookKeys.mine, (list) =>
        list?.map((b) => (b.id === book.id ? { ...b, ...(data.book ?? {}), status: data.book?.status ?? next } : b)),
      );
      void refreshLists();
      handlers.onSuccess(data, next);
    },
    onError: handlers.onError,
  });
}

/** DELETE /books/{id}; the listing leaves the list at once. */
export function useDeleteMyBook(handlers: { onSuccess: () => void; onError: () => void }) {
  const queryClient = useQueryClient();
  const refreshLists = useRefreshLists();
  return useMutation({
    mutationFn: (book: Book) => deleteBook(book.id),
    onSuccess: (_data, book) => {
      queryClient.setQueryData<Book[]>(bookKeys.mine, (list) => list?.filter((b) => b.id !== book.id));
      void refreshLists();
      handlers.onSuccess();
    },
    onError: handlers.onError,
  });
}

/**
 * Whether the listing may be put back on sale as new: still available RELIST_AFTER_MONTHS months
 * after it was published (the server holds to the same rule).
 */
export function relistable(book: Book, now = new Date()) {
  if (book.status !== 'disponible' || book.hidden || !book.created_at) return false;
  const due = new Date(book.created_at);
  due.setMonth(due.getMonth() + RELIST_AFTER_MONTHS);
  return due <= now;
}

/** POST /books/{id}/relist: « Remettre en vente »; the listing, dated anew, changes in place. */
export function useRelist(handlers: { onSuccess: (message: string) => void; onError: (error: unknown) => void }) {
  const queryClient = useQueryClient();
  const refreshLists = useRefreshLists();
  return useMutation({
    mutationFn: (book: Book) => api.post<BookWriteResponse>(`/books/${encodeURIComponent(String(book.id))}/relist`),
    onSuccess: (data, book) => {
      queryClient.setQueryData<Book[]>(bookKeys.mine, (list) =>
        list?.map((b) => (b.id === book.id ? { ...b, ...data.book } : b)),
      );
      void refreshLists();
      handlers.onSuccess(data.message);
    },
    onError: handlers.onError,
  });
}
