import { type LiveMessagesEvent, useLiveMessageEvents, useLiveMessages, useSession } from '@cartable/ui';
import { type InfiniteData, type QueryClient, useQueryClient } from '@tanstack/react-query';
import {
  type Conversation,
  type Message,
  mergeMessages,
  messageKeys,
  type OlderPage,
  type ThreadPage,
} from './conversations';

type Thread = InfiniteData<ThreadPage, OlderPage | undefined>;

const sameId = (a: unknown, b: unknown) => String(a) === String(b);

/** A new message joins its thread's newest page (when that thread is cached) and tops the list. */
function applyMessage(queryClient: QueryClient, conversationId: string, message: Message) {
  const other = message.is_mine ? message.receiver_id : message.sender_id;
  queryClient.setQueryData<Thread>(messageKeys.thread(message.book_id, other), (thread) => {
    const [newest, ...older] = thread?.pages ?? [];
    if (!thread || !newest) return thread;
    if (thread.pages.some((page) => page.data.some((m) => sameId(m.id, message.id)))) return thread;
    return {
      ...thread,
      pages: [
        {
          ...newest,
          // The first message creates the conversation.
          conversation: { ...newest.conversation, id: newest.conversation.id ?? conversationId },
          data: mergeMessages(newest.data, [message]),
          meta: { ...newest.meta, total: newest.meta.total + 1 },
        },
        ...older,
      ],
    };
  });

  let unknown = false;
  queryClient.setQueryData<Conversation[]>(messageKeys.conversations, (list) => {
    if (!list) return list;
    const index = list.findIndex((c) => sameId(c.id, conversationId));
    const current = list[index];
    if (!current) {
      unknown = true;
      return list;
    }
    const last = current.last_message;
    if (sameId(last.id, message.id) || Date.parse(last.created_at) > Date.parse(message.created_at)) return list;
    const updated: Conversation = {
      ...current,
      last_message: message,
      updated_at: message.created_at,
      unread_count: current.unread_count + (message.is_mine ? 0 : 1),
    };
    return [updated, ...list.filter((_, i) => i !== index)];
  });
  // A new conversation: its book and the other member come from the server.
  if (unknown) void queryClient.invalidateQueries({ queryKey: messageKeys.conversations });
}

/** A read receipt: the member's own (another tab: the list's count drops) or the other's (« Lu »). */
function applyRead(queryClient: QueryClient, me: string, event: Extract<LiveMessagesEvent, { type: 'read' }>['data']) {
  const mine = sameId(event.reader_id, me);
  const markRead = (m: Message) => (m.is_mine !== mine && !m.read_at ? { ...m, read_at: event.read_at } : m);
  if (!mine) {
    queryClient.setQueryData<Thread>(messageKeys.thread(event.book_id, event.reader_id), (thread) =>
      thread ? { ...thread, pages: thread.pages.map((page) => ({ ...page, data: page.data.map(markRead) })) } : thread,
    );
  }
  queryClient.setQueryData<Conversation[]>(messageKeys.conversations, (list) =>
    list?.map((c) =>
      sameId(c.id, event.conversation_id)
        ? { ...c, last_message: markRead(c.last_message), unread_count: mine ? 0 : c.unread_count }
        : c,
    ),
  );
}

/** Applies one event of the live stream to the conversation caches (exported for tests). */
export function applyLiveEvent(queryClient: QueryClient, me: string, event: LiveMessagesEvent) {
  if (event.type === 'message') applyMessage(queryClient, event.data.conversation_id, event.data.message);
  else if (event.type === 'read') applyRead(queryClient, me, event.data);
}

/**
 * Keeps the live stream open (the tab's one stream, shared with the header's envelope) and the
 * conversation list and threads current from its events, instead of fetching them again.
 * Returns whether it is open: the screens poll only while it is not.
 */
export function useLiveConversations(): boolean {
  const { user } = useSession();
  const queryClient = useQueryClient();
  const live = useLiveMessages(user?.id);
  useLiveMessageEvents((event) => {
    if (user) applyLiveEvent(queryClient, user.id, event);
  });
  return live;
}
