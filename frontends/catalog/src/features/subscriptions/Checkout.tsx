import { lazy, Suspense, useState } from 'react';
import type { CheckoutDialogProps } from './CheckoutDialog';

// The checkout (its form, zod and the overlays) loads when first opened, not with the page.
const CheckoutDialog = lazy(() => import('./CheckoutDialog'));

/** Renders nothing until first opened; then the checkout dialog, kept mounted to close as usual. */
export function Checkout(props: CheckoutDialogProps) {
  const [opened, setOpened] = useState(props.open);
  if (props.open && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <CheckoutDialog {...props} />
    </Suspense>
  );
}

export type { CheckoutDialogProps };
