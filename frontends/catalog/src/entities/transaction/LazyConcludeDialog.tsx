import { useOpenedOnce } from '@cartable/ui';
import { lazy, Suspense } from 'react';
import type { ConcludeDialogProps } from './ConcludeDialog';

const Dialog = lazy(() => import('./ConcludeDialog').then((m) => ({ default: m.ConcludeDialog })));

/**
 * « Conclure avec … », whose form and schema (with zod) load on the first « Conclure », not with
 * /my-books or a conversation that offers it.
 */
export function ConcludeDialog(props: ConcludeDialogProps) {
  if (!useOpenedOnce(props.open)) return null;
  return (
    <Suspense fallback={null}>
      <Dialog {...props} />
    </Suspense>
  );
}
