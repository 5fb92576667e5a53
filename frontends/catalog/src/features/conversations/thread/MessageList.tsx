import { cn, Skeleton } from '@cartable/ui';
import { ReportButton } from '../../../entities/report/ReportButton';

import type { Message } from '../api/conversations';
import { clockTime, dayKey, dayLabel } from '../dates';

/** The messages, oldest first, grouped by day under a separator. */
export function MessageList({ messages, otherName }: { messages: Message[]; otherName: string }) {
  const items: Array<{ day: string; label: string; messages: Message[] }> = [];
  for (const message of messages) {
    const key = dayKey(message.created_at);
    const group = items[items.length - 1];
    if (group && group.day === key) group.messages.push(message);
    else items.push({ day: key, label: dayLabel(message.created_at), messages: [message] });
  }
  return (
    <div className="space-y-4">
      {items.map((group) => (
        <section key={group.day} aria-label={group.label}>
          <div className="my-2 flex items-center gap-3" aria-hidden="true">
            <span className="h-px flex-1 bg-slate-200" />
            <span className="rounded-full bg-white px-3 py-0.5 text-xs font-medium text-slate-500 shadow-sm ring-1 ring-slate-200">
              {group.label}
            </span>
            <span className="h-px flex-1 bg-slate-200" />
          </div>
          <ol className="space-y-1.5">
            {group.messages.map((message) => (
              <Bubble key={String(message.id)} message={message} otherName={otherName} />
            ))}
          </ol>
        </section>
      ))}
    </div>
  );
}

function Bubble({ message, otherName }: { message: Message; otherName: string }) {
  const mine = message.is_mine;
  return (
    <li className={cn('flex items-end gap-1', mine ? 'justify-end' : 'justify-start')} data-testid="message">
      <div
        className={cn(
          'max-w-[85%] rounded-2xl px-3.5 py-2 shadow-sm sm:max-w-[70%]',
          mine
            ? 'rounded-br-md bg-primary-700 text-white'
            : 'rounded-bl-md bg-white text-slate-900 ring-1 ring-slate-200',
        )}
      >
        <p className="sr-only">{mine ? 'Vous :' : `${otherName} :`}</p>
        <p className="text-[15px] leading-snug break-words whitespace-pre-wrap">{message.content}</p>
        <p className={cn('mt-1 text-right text-[11px]', mine ? 'text-white' : 'text-slate-600')}>
          <time dateTime={message.created_at}>{clockTime(message.created_at)}</time>
          {mine && message.read_at ? <span> · Lu</span> : null}
        </p>
      </div>
      {mine ? null : <ReportButton target={{ type: 'message', id: message.id }} compact className="self-end" />}
    </li>
  );
}

export function ThreadSkeleton() {
  return (
    <div className="space-y-3" data-testid="thread-loading">
      <span className="sr-only" role="status">
        Chargement de la conversation…
      </span>
      {['w-2/3', 'ml-auto w-1/2', 'w-3/5', 'ml-auto w-2/5', 'w-1/2'].map((width) => (
        <Skeleton key={width} className={cn('h-12 rounded-2xl', width)} />
      ))}
    </div>
  );
}
