import { ApiError, useSession } from '@cartable/ui';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { bookQuery } from '../../../shared/api/books';
import { sameId } from '../../../shared/books';
import { mergeMessages, THREAD_POLL_MS, threadQuery } from '../api/conversations';

/**
 * The thread between the member and `userId` about `bookId`: its pages (newest first, older ones
 * on demand), their messages merged oldest first, and who and what it is about. The loaded pages
 * are polled while `poll` (the tab visible and the live stream not open).
 */
export function useThread(bookId: string, userId: string, poll: boolean) {
  const thread = useInfiniteQuery({
    ...threadQuery(bookId, userId),
    refetchInterval: poll ? THREAD_POLL_MS : false,
    retry: (failures, error) =>
      !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2,
  });
  const pages = thread.data?.pages;
  const newest = pages?.[0];
  const conversation = newest?.conversation ?? null;

  // Without a conversation yet (or without its book), the book page tells title, price and seller.
  const needBook = thread.isSuccess && !conversation?.book;
  const book = useQuery({ ...bookQuery(bookId), enabled: needBook, retry: false });

  const bookInfo = conversation?.book ?? (book.data ? { ...book.data } : null);
  const other =
    conversation?.other_user ??
    (book.data?.seller && sameId(book.data.seller.id, userId)
      ? { id: userId, name: book.data.seller.name, profile_image: book.data.seller.profile_image }
      : null);

  /* Pages overlap when messages arrive between two loads (pages are counted from the end): merged by id. */
  const messages = useMemo(() => mergeMessages(...(pages ?? []).map((page) => page.data)), [pages]);
  const total = newest?.meta.total ?? 0;

  return {
    thread,
    newest,
    messages,
    bookInfo,
    other,
    loadingHeader: thread.isPending || (needBook && book.isPending),
    hasOlder: Boolean(thread.hasNextPage) && messages.length < total,
  };
}

/** The member opened a thread with themselves. */
export function useIsSelf(userId: string): boolean {
  const { user } = useSession();
  return sameId(user?.id, userId);
}
