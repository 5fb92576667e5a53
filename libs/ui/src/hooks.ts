import { type RefObject, useEffect, useRef } from 'react';

/**
 * Closes a popup (menu, drawer) on Escape and on a pointer press outside `refs`.
 * Active only while `open` is true.
 */
export function useDismiss(
  open: boolean,
  refs: ReadonlyArray<RefObject<HTMLElement | null>>,
  onDismiss: (reason: 'escape' | 'outside') => void,
) {
  useEffect(() => {
    if (!open) return;
    function onPointerDown(event: PointerEvent) {
      const target = event.target as Node | null;
      if (target && refs.some((ref) => ref.current?.contains(target))) return;
      onDismiss('outside');
    }
    function onKeyDown(event: KeyboardEvent) {
      if (event.key === 'Escape') onDismiss('escape');
    }
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open, refs, onDismiss]);
}

/** A random key; crypto.randomUUID exists only on https and localhost, getRandomValues everywhere. */
function randomKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * One Idempotency-Key per form submission: the same key while the submission is retried (after
 * a timeout or a lost connection, the server answers the first attempt's result instead of
 * creating twice), a new one once it succeeded.
 */
export function useSubmissionKey() {
  const key = useRef<string | null>(null);
  return {
    current: () => {
      key.current ??= randomKey();
      return key.current;
    },
    renew: () => {
      key.current = null;
    },
  };
}
