// Types only: the conversation list must not load the contracts (and zod); the forms do.
import type {
  Conversation,
  ConversationsResponse,
  ConversationThread,
  MarkReadResponse,
  Message,
  SendMessageRequest,
  SendMessageResponse,
} from '@cartable/contracts';
import { api, isLiveMessagesOpen, queryKeys } from '@cartable/ui';
import {
  type InfiniteData,
  infiniteQueryOptions,
  type QueryClient,
  queryOptions,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import type { Id } from '../../../shared/books';

/** Conversations and messages (services/messaging/API.md; shapes from libs/contracts/src/messaging.ts). */
export type { Conversation, ConversationThread, Message };
export type ThreadPage = ConversationThread;

/**
 * The open thread is polled this often while the page is visible and the live stream
 * (GET /messages/stream, api/live.ts) is not open; while it is, events update the caches.
 */
export const THREAD_POLL_MS = 5_000;
export const THREAD_PER_PAGE = 30;
/** The conversation list is polled this often while the page is visible and the stream is not open (the header badge's rhythm). */
export const LIST_POLL_MS = 30_000;

/**
 * Query keys. `unreadCount` is the prefix of the shell header's key (libs/ui's
 * `queryKeys.messages.unreadCountOf`): both frontends share one QueryClient, so invalidating the
 * prefix refreshes the envelope badge.
 */
export const messageKeys = {
  all: queryKeys.messages.all,
  conversations: ['messages', 'conversations'] as const,
  thread: (bookId: Id, userId: Id) => ['messages', 'thread', String(bookId), String(userId)] as const,
  unreadCount: queryKeys.messages.unreadCount,
};

export async function fetchConversations(signal?: AbortSignal): Promise<Conversation[]> {
  const data = await api.get<ConversationsResponse>('/messages', { signal });
  return Array.isArray(data?.conversations) ? data.conversations : [];
}

/** GET /messages, polled while the list is on screen and the live stream is not open. */
export const conversationsQuery = (poll: boolean) =>
  queryOptions({
    queryKey: messageKeys.conversations,
    queryFn: ({ signal }) => fetchConversations(signal),
    refetchInterval: poll ? LIST_POLL_MS : false,
  });

const threadPath = (bookId: Id, userId: Id) =>
  `/messages/conversation/${encodeURIComponent(String(bookId))}/${encodeURIComponent(String(userId))}`;

/** One page of a thread, oldest message first; without `page`, the page of the latest messages. */
export async function fetchThreadPage(
  bookId: Id,
  userId: Id,
  page: number | undefined,
  signal?: AbortSignal,
): Promise<ThreadPage> {
  const data = await api.get<Partial<ThreadPage>>(threadPath(bookId, userId), {
    query: { page, per_page: THREAD_PER_PAGE },
    signal,
  });
  const list = Array.isArray(data?.data) ? data.data : [];
  return {
    conversation: data?.conversation as ThreadPage['conversation'],
    data: list,
    meta: {
      current_page: data?.meta?.current_page ?? page ?? 1,
      last_page: Math.max(1, data?.meta?.last_page ?? 1),
      total: data?.meta?.total ?? list.length,
    },
  };
}

/** An older page to load, with what the newer pages were numbered against. */
export interface OlderPage {
  page: number;
  /** `meta.total` and `meta.last_page` of the page just after it. */
  total: number;
  lastPage: number;
}

/**
 * A thread as pages, newest first: `pages[0]` is the latest messages (asked without a page) and each
 * next page is the one before it. The messaging service counts pages from the end (no page = the
 * last one; page 1 holds the oldest messages), so the page before page n is n − 1 and there is none
 * before page 1. A refetch (the poll) reloads the pages from the newest, numbering them again from
 * the current total.
 */
export const threadQuery = (bookId: Id, userId: Id) =>
  infiniteQueryOptions({
    queryKey: messageKeys.thread(bookId, userId),
    queryFn: ({ pageParam, signal }) => fetchOlderOrLatest(bookId, userId, pageParam, signal),
    initialPageParam: undefined as OlderPage | undefined,
    getNextPageParam: (oldest): OlderPage | undefined =>
      oldest.meta.current_page > 1
        ? { page: oldest.meta.current_page - 1, total: oldest.meta.total, lastPage: oldest.meta.last_page }
        : undefined,
  });

async function fetchOlderOrLatest(
  bookId: Id,
  userId: Id,
  older: OlderPage | undefined,
  signal: AbortSignal,
): Promise<ThreadPage> {
  if (!older) return fetchThreadPage(bookId, userId, undefined, signal);
  const page = await fetchThreadPage(bookId, userId, older.page, signal);
  const grown = page.meta.total - older.total;
  if (grown <= 0) return page;
  // Messages arrived since the newer pages were read: every page moved towards the end by
  // `grown`. Ask for the page that now holds the message just before the loaded ones.
  const fromEnd = older.lastPage - older.page + Math.floor(grown / THREAD_PER_PAGE);
  return fetchThreadPage(bookId, userId, Math.max(1, page.meta.last_page - fromEnd), signal);
}

export function sendMessage(input: SendMessageRequest, idempotencyKey?: string): Promise<Partial<SendMessageResponse>> {
  return api.post<Partial<SendMessageResponse>>('/messages', input, idempotencyKey ? { idempotencyKey } : {});
}
export type SendResult = Partial<SendMessageResponse>;

/**
 * POST /messages about `bookId` to `receiverId`. The sent message joins the open thread at once
 * (its newest page), then the thread and the conversation list are fetched again.
 */
export function useSendMessage(
  bookId: number,
  receiverId: string,
  handlers: {
    onMutate?: () => void;
    onSettled?: () => void;
    onSuccess: (result: SendResult) => void;
    onError: (error: unknown) => void;
  },
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ content, send_email_copy, idempotencyKey }: SendInput) =>
      sendMessage({ receiver_id: receiverId, book_id: bookId, content, send_email_copy }, idempotencyKey),
    onMutate: handlers.onMutate,
    onSettled: handlers.onSettled,
    onSuccess: (result) => {
      const key = messageKeys.thread(bookId, receiverId);
      const sent = result.data;
      if (sent) {
        queryClient.setQueryData<InfiniteData<ThreadPage, OlderPage | undefined>>(key, (thread) => {
          const [newest, ...older] = thread?.pages ?? [];
          if (!thread || !newest) return thread;
          return { ...thread, pages: [{ ...newest, data: mergeMessages(newest.data, [sent]) }, ...older] };
        });
      }
      // The live stream brings the message to the list (and a new conversation's first line).
      if (!isLiveMessagesOpen()) {
        void queryClient.invalidateQueries({ queryKey: key });
        void queryClient.invalidateQueries({ queryKey: messageKeys.conversations });
      }
      handlers.onSuccess(result);
    },
    onError: handlers.onError,
  });
}

interface SendInput {
  content: string;
  send_email_copy: boolean;
  idempotencyKey: string;
}

export function markThreadRead(bookId: Id, userId: Id): Promise<{ marked?: number }> {
  return api.post<MarkReadResponse>(`${threadPath(bookId, userId)}/mark-read`);
}

/** POST …/mark-read for messages that arrived while the thread was open; the badge and list follow. */
export function useMarkThreadRead(bookId: Id, userId: Id) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => markThreadRead(bookId, userId),
    onSettled: () => refreshUnread(queryClient),
  });
}

/**
 * After reading or sending: the header badge and the conversation list are stale, unless the
 * live stream is open (it sends the new count and the read receipt itself).
 */
export function refreshUnread(queryClient: QueryClient) {
  if (isLiveMessagesOpen()) return;
  void queryClient.invalidateQueries({ queryKey: messageKeys.unreadCount });
  void queryClient.invalidateQueries({ queryKey: messageKeys.conversations });
}

/** Messages by id, oldest first (pages can overlap when new messages shift them). */
export function mergeMessages(...lists: Message[][]): Message[] {
  const byId = new Map<string, Message>();
  for (const list of lists) for (const message of list) byId.set(String(message.id), message);
  return [...byId.values()].sort((a, b) => {
    const diff = Date.parse(a.created_at) - Date.parse(b.created_at);
    if (diff !== 0 && !Number.isNaN(diff)) return diff;
    return String(a.id).localeCompare(String(b.id), undefined, { numeric: true });
  });
}
