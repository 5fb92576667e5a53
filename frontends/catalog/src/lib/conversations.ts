import { api } from '@cartable/ui';
import type { QueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import type { Id } from './books';

/** Messaging API shapes (services/messaging/API.md). */
export interface Message {
  id: number | string;
  conversation_id: number | string | null;
  book_id: number;
  sender_id: string;
  receiver_id: string;
  content: string;
  read_at: string | null;
  created_at: string;
  is_mine: boolean;
}

export interface ConversationBook {
  id: number;
  title: string;
  thumbnail: string | null;
  price: number;
  status: string;
}

export interface OtherUser {
  id: string;
  name: string;
  username?: string | null;
  profile_image: string | null;
}

export interface Conversation {
  id: number | string;
  book: ConversationBook | null;
  other_user: OtherUser;
  last_message: Message | null;
  unread_count: number;
  updated_at: string;
}

export interface ThreadPage {
  conversation: Conversation | null;
  data: Message[];
  meta: { current_page: number; last_page: number; total: number };
}

export interface MessageInput {
  receiver_id: string;
  book_id: number;
  content: string;
  send_email_copy: boolean;
}

export interface SendResult {
  message?: string;
  data?: Message;
  email_copy_sent?: boolean;
}

/** Longest message the API accepts. */
export const MESSAGE_MAX = 2000;
/** The open thread is polled this often while the page is visible. */
export const THREAD_POLL_MS = 5_000;
export const THREAD_PER_PAGE = 30;

/**
 * Query keys. `unreadCount` is the prefix of the shell header's key
 * (['messages', 'unread-count', userId] in frontends/shell/src/layout/Header.tsx): both frontends
 * share one QueryClient, so invalidating the prefix refreshes the envelope badge.
 */
export const messageKeys = {
  all: ['messages'] as const,
  conversations: ['messages', 'conversations'] as const,
  thread: (bookId: Id, userId: Id) => ['messages', 'thread', String(bookId), String(userId)] as const,
  unreadCount: ['messages', 'unread-count'] as const,
};

export async function fetchConversations(signal?: AbortSignal): Promise<Conversation[]> {
  const data = await api.get<{ conversations?: Conversation[] }>('/messages', { signal });
  return Array.isArray(data?.conversations) ? data.conversations : [];
}

export async function fetchThreadPage(
  bookId: Id,
  userId: Id,
  page: number | undefined,
  signal?: AbortSignal,
): Promise<ThreadPage> {
  const data = await api.get<Partial<ThreadPage>>(
    `/messages/conversation/${encodeURIComponent(String(bookId))}/${encodeURIComponent(String(userId))}`,
    { query: { page, per_page: THREAD_PER_PAGE }, signal },
  );
  const list = Array.isArray(data?.data) ? data.data : [];
  return {
    conversation: data?.conversation ?? null,
    data: list,
    meta: {
      current_page: data?.meta?.current_page ?? page ?? 1,
      last_page: Math.max(1, data?.meta?.last_page ?? 1),
      total: data?.meta?.total ?? list.length,
    },
  };
}

export function sendMessage(input: MessageInput, idempotencyKey?: string): Promise<SendResult> {
  return api.post<SendResult>('/messages', input, idempotencyKey ? { idempotencyKey } : {});
}

export function markThreadRead(bookId: Id, userId: Id): Promise<{ marked?: number }> {
  return api.post<{ marked?: number }>(
    `/messages/conversation/${encodeURIComponent(String(bookId))}/${encodeURIComponent(String(userId))}/mark-read`,
  );
}

/** After reading or sending: the header badge and the conversation list are stale. */
export function refreshUnread(queryClient: QueryClient) {
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

/* ------------------------------------------------------------------------------------------ */
/* Dates                                                                                       */
/* ------------------------------------------------------------------------------------------ */

const relative = new Intl.RelativeTimeFormat('fr', { numeric: 'auto' });
const dayMonth = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'short' });
const dayMonthYear = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'short', year: 'numeric' });
const timeOfDay = new Intl.DateTimeFormat('fr-FR', { hour: '2-digit', minute: '2-digit' });
const longDay = new Intl.DateTimeFormat('fr-FR', { weekday: 'long', day: 'numeric', month: 'long' });
const longDayYear = new Intl.DateTimeFormat('fr-FR', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});

function startOfDay(date: Date): number {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
}

/** "à l'instant", "il y a 5 minutes", "il y a 3 heures", "hier", "il y a 3 jours", "12 mars". */
export function relativeTime(value: string, now = Date.now()): string {
  const date = new Date(value);
  const time = date.getTime();
  if (Number.isNaN(time)) return '';
  const seconds = Math.round((now - time) / 1000);
  if (seconds < 60) return "à l'instant";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return relative.format(-minutes, 'minute');
  const hours = Math.round(minutes / 60);
  if (hours < 24) return relative.format(-hours, 'hour');
  const days = Math.round((startOfDay(new Date(now)) - startOfDay(date)) / 86_400_000);
  if (days < 7) return relative.format(-Math.max(1, days), 'day');
  return date.getFullYear() === new Date(now).getFullYear() ? dayMonth.format(date) : dayMonthYear.format(date);
}

/** "14:05". */
export function clockTime(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : timeOfDay.format(date);
}

/** Day separator: "Aujourd'hui", "Hier", "lundi 3 mars" (year when not this year). */
export function dayLabel(value: string, now = Date.now()): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const days = Math.round((startOfDay(new Date(now)) - startOfDay(date)) / 86_400_000);
  if (days === 0) return "Aujourd'hui";
  if (days === 1) return 'Hier';
  const label = (date.getFullYear() === new Date(now).getFullYear() ? longDay : longDayYear).format(date);
  return label.charAt(0).toUpperCase() + label.slice(1);
}

export function dayKey(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : `${date.getFullYear()}-${date.getMonth()}-${date.getDate()}`;
}

/* ------------------------------------------------------------------------------------------ */
/* Page visibility                                                                             */
/* ------------------------------------------------------------------------------------------ */

function subscribeVisibility(callback: () => void) {
  document.addEventListener('visibilitychange', callback);
  return () => document.removeEventListener('visibilitychange', callback);
}

/** True while the tab is shown: polling stops in a background tab (mobile data is precious). */
export function usePageVisible(): boolean {
  return useSyncExternalStore(
    subscribeVisibility,
    () => document.visibilityState === 'visible',
    () => true,
  );
}
