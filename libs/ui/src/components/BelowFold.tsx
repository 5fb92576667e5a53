import { type ElementType, type ReactNode, startTransition, useEffect, useState } from 'react';
import { cn } from '../cn';

// Every block mounted in one commit is rendered in one transition after the next paint.
let waiting: Array<() => void> = [];
function afterNextPaint(callback: () => void): () => void {
  waiting.push(callback);
  if (waiting.length === 1) {
    // A frame, then a task: the browser has painted the first screen before the blocks render.
    requestAnimationFrame(() =>
      setTimeout(() => {
        const ready = waiting;
        waiting = [];
        startTransition(() => {
          for (const show of ready) show();
        });
      }, 0),
    );
  }
  return () => {
    waiting = waiting.filter((entry) => entry !== callback);
  };
}

/**
 * False in a component's first render, true once the browser has painted it (one transition for
 * every component mounted in that commit): what the first screen does not need waits for it.
 */
export function useAfterPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => afterNextPaint(() => setPainted(true)), []);
  return painted;
}

/**
 * A block well below the first screen. React renders its content only after the page's first
 * paint, in a transition (in slices, between which a tap is answered): on a slow phone it no
 * longer delays the first screen. Until then it is an empty box (of the reserved height while
 * off-screen), and the browser skips its style, layout and paint until it nears the viewport
 * (the `below-fold` utility).
 */
export function BelowFold({
  children,
  as: Tag = 'div',
  className,
  ...rest
}: {
  children: ReactNode;
  as?: ElementType;
  className?: string;
  'aria-label'?: string;
}) {
  const shown = useAfterPaint();
  return (
    <Tag className={cn('below-fold', className)} {...rest}>
      {shown ? children : null}
    </Tag>
  );
}
