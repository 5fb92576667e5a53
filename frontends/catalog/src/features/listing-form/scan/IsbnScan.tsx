import { Button, CameraIcon, cn, LazyConfirmDialog, useOpenedOnce } from '@cartable/ui';
import { lazy, Suspense, useState } from 'react';
import { filledFieldLabels, type IsbnAutofill } from './useIsbnAutofill';

// The camera, the detector and the WebAssembly reader load when the button is pressed: the
// listing page's first load carries this button alone.
const ScanDialog = lazy(() => import(/* webpackChunkName: "barcode-scan" */ './ScanDialog'));

const TONES = {
  info: 'text-slate-700',
  success: 'text-emerald-800',
  warning: 'text-amber-800',
  error: 'text-red-700',
} as const;

/** « Scanner le code-barres » at the top of the listing form, and what the ISBN look-up said. */
export function IsbnScan({ autofill }: { autofill: IsbnAutofill }) {
  const [open, setOpen] = useState(false);
  const opened = useOpenedOnce(open);
  const { status, replacing } = autofill;
  return (
    <div className="space-y-2">
      <Button
        variant="outline"
        fullWidth
        leftIcon={<CameraIcon size={18} />}
        onClick={() => setOpen(true)}
        loading={autofill.looking}
      >
        Scanner le code-barres
      </Button>
      <p role="status" className={cn('text-sm', status ? TONES[status.tone] : 'sr-only')}>
        {status?.text ?? ''}
      </p>
      {opened ? (
        <Suspense fallback={null}>
          <ScanDialog
            open={open}
            onClose={() => setOpen(false)}
            onIsbn={(isbn13) => {
              setOpen(false);
              autofill.fromScan(isbn13);
            }}
          />
        </Suspense>
      ) : null}
      <LazyConfirmDialog
        open={replacing !== null}
        tone="primary"
        title="Remplacer ce que vous avez saisi ?"
        description={
          replacing
            ? `« ${replacing.title} » : ${Object.keys(replacing.filling)
                .map((field) => filledFieldLabels[field as keyof typeof filledFieldLabels])
                .join(', ')} diffère de ce que vous avez tapé.`
            : undefined
        }
        confirmLabel="Remplacer"
        onConfirm={autofill.confirmReplace}
        onCancel={autofill.keepTyped}
      />
    </div>
  );
}
