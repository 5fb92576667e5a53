import { useCallback, useLayoutEffect, useRef } from 'react';
import type { Message } from '../api/conversations';

/**
 * Scrolling of the message list: to the bottom on arrival and on new messages (when already near
 * it or when the message is mine); kept in place when older messages are added above.
 */
export function useScrollAnchor(messages: Message[]) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const nearBottom = useRef(true);
  const previous = useRef<{ first?: string; last?: string; height: number }>({ height: 0 });
  const firstId = messages[0] ? String(messages[0].id) : undefined;
  const lastMessage = messages[messages.length - 1];
  const lastId = lastMessage ? String(lastMessage.id) : undefined;

  useLayoutEffect(() => {
    const box = scrollRef.current;
    if (!box) return;
    const before = previous.current;
    if (lastId !== before.last) {
      if (before.last === undefined || nearBottom.current || lastMessage?.is_mine) box.scrollTop = box.scrollHeight;
    } else if (firstId !== before.first && before.height > 0) {
      box.scrollTop += box.scrollHeight - before.height;
    }
    previous.current = { first: firstId, last: lastId, height: box.scrollHeight };
  }, [firstId, lastId, lastMessage?.is_mine]);

  const onScroll = useCallback(() => {
    const box = scrollRef.current;
    if (box) nearBottom.current = box.scrollHeight - box.scrollTop - box.clientHeight < 120;
  }, []);

  /** The member just sent a message: follow it down. */
  const stickToBottom = useCallback(() => {
    nearBottom.current = true;
  }, []);

  return { scrollRef, onScroll, stickToBottom };
}
