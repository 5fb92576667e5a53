import { useCallback, useEffect, useState } from 'react';

/**
 * A seconds countdown driven by a deadline (exact even when the tab was in the background).
 * `start(seconds)` (re)starts it; `left` is 0 when idle.
 */
export function useCountdown(): { left: number; start: (seconds: number) => void; reset: () => void } {
  const [deadline, setDeadline] = useState<number | null>(null);
  const [left, setLeft] = useState(0);

  useEffect(() => {
    if (deadline === null) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = () => {
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        setLeft(0);
        setDeadline(null);
        return;
      }
      setLeft(Math.ceil(remaining / 1000));
      timer = setTimeout(tick, remaining % 1000 || 1000);
    };
    tick();
    return () => clearTimeout(timer);
  }, [deadline]);

  const start = useCallback((seconds: number) => setDeadline(Date.now() + seconds * 1000), []);
  const reset = useCallback(() => {
    setDeadline(null);
    setLeft(0);
  }, []);
  return { left, start, reset };
}
