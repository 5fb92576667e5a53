import { type RefObject, useEffect } from 'react';

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
