import type { ConfirmDialogProps, DialogProps } from '@cartable/ui/overlays';
import { lazy, Suspense, useState } from 'react';

// The overlays module (Radix, about 30 KiB compressed) loads the first time a dialog opens, not
// with the page (or the shared module, like the category tree) that may open one: a page on a
// phone draws sooner without it.
const Dialog = lazy(() => import('@cartable/ui/overlays').then((m) => ({ default: m.Dialog })));
const ConfirmDialog = lazy(() => import('@cartable/ui/overlays').then((m) => ({ default: m.ConfirmDialog })));

/**
 * Whether a dialog was ever opened: render nothing (and load nothing) until then; then the dialog,
 * kept mounted so that it can close as usual. For a dialog whose own module is loaded lazily.
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened;
}

export function LazyDialog(props: DialogProps) {
  if (!useOpenedOnce(props.open)) return null;
  return (
    <Suspense fallback={null}>
      <Dialog {...props} />
    </Suspense>
  );
}

export function LazyConfirmDialog(props: ConfirmDialogProps) {
  if (!useOpenedOnce(props.open)) return null;
  return (
    <Suspense fallback={null}>
      <ConfirmDialog {...props} />
    </Suspense>
  );
}
