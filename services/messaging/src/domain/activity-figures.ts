import { periodOf, type StatsWindow } from '@cartable/service-kit';
import { activityFigures } from '../db/queries.ts';
import type { MessagingDeps } from '../deps.ts';

/** Conversations and messages per day for the back office: counts only, no content nor participant. */
export async function messagingFigures({ uow }: Pick<MessagingDeps, 'uow'>, window: StatsWindow) {
  const figures = await activityFigures(uow.db, window);
  return {
    period: periodOf(window),
    conversations: figures.conversations,
    messages: figures.messages,
    conversations_per_day: figures.conversationsPerDay,
    messages_per_day: figures.messagesPerDay,
  };
}
