import { CloseIcon, cn } from '@cartable/ui';
import * as DialogPrimitive from '@radix-ui/react-dialog';
import { type ReactNode, type RefObject, useRef } from 'react';

export interface DialogProps {
  open: boolean;
  /** Called on Escape, on the close button and (when allowed) on a click on the backdrop. */
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  /** Buttons at the bottom (stacked on phones, in a row from `sm`). */
  footer?: ReactNode;
  /** "alertdialog" for a decision the user must take (a warning, a destructive confirmation). */
  role?: 'dialog' | 'alertdialog';
  /** Element focused on opening (the first focusable element otherwise). */
  initialFocusRef?: RefObject<HTMLElement | null>;
  /** Backdrop click closes; true for a dialog, false for an alertdialog by default. */
  closeOnBackdrop?: boolean;
  /** Shows the × button in the corner (dialogs only by default). */
  showCloseButton?: boolean;
  size?: 'sm' | 'md' | 'lg';
  className?: string;
}

const SIZES = { sm: 'sm:max-w-sm', md: 'sm:max-w-md', lg: 'sm:max-w-lg' };

/**
 * Modal dialog on Radix UI's Dialog primitive: rendered in a portal, the rest of the page hidden
 * from assistive technologies and inert to the pointer, focus moved in and trapped, Escape closes
 * (the top dialog only when they stack), focus goes back to where it was, the page behind does not
 * scroll. A bottom sheet on phones, centred from `sm`.
 */
export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  footer,
  role = 'dialog',
  initialFocusRef,
  closeOnBackdrop,
  showCloseButton,
  size = 'md',
  className,
}: DialogProps) {
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const backdropCloses = closeOnBackdrop ?? role === 'dialog';
  const closeButton = showCloseButton ?? role === 'dialog';

  return (
    <DialogPrimitive.Root open={open} onOpenChange={(next) => (next ? undefined : onCloseRef.current())}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-[60] flex items-end justify-center bg-slate-900/60 sm:items-center sm:p-4">
          <DialogPrimitive.Content
            role={role}
            aria-modal="true"
            // Without a description, no aria-describedby (Radix would point at a missing element).
            {...(description ? {} : { 'aria-describedby': undefined })}
            onOpenAutoFocus={(event) => {
              const target = initialFocusRef?.current;
              if (target) {
                event.preventDefault();
                target.focus();
              }
            }}
            onPointerDownOutside={(event) => {
              if (!backdropCloses) event.preventDefault();
            }}
            className={cn(
              'relative flex max-h-[92dvh] w-full flex-col overflow-y-auto rounded-t-2xl bg-white shadow-xl focus:outline-none sm:rounded-2xl',
              SIZES[size],
              className,
            )}
          >
            <div className="flex items-start gap-3 px-5 pt-5 sm:px-6 sm:pt-6">
              <div className="min-w-0 flex-1">
                <DialogPrimitive.Title className="text-lg font-semibold text-slate-900">{title}</DialogPrimitive.Title>
                {description ? (
                  <DialogPrimitive.Description asChild>
                    <div className="mt-1.5 text-sm text-slate-600">{description}</div>
                  </DialogPrimitive.Description>
                ) : null}
              </div>
              {closeButton ? (
                <DialogPrimitive.Close
                  className="-mt-1 -mr-2 flex h-10 w-10 shrink-0 items-center justify-center rounded-lg text-slate-500 hover:bg-slate-100 hover:text-slate-800"
                  aria-label="Fermer"
                >
                  <CloseIcon size={20} />
                </DialogPrimitive.Close>
              ) : null}
            </div>
            {children ? <div className="px-5 pt-4 sm:px-6">{children}</div> : null}
            {footer ? (
              <div className="flex flex-col-reverse gap-2 px-5 pt-5 pb-5 sm:flex-row sm:justify-end sm:px-6 sm:pb-6">
                {footer}
              </div>
            ) : (
              <div className="pb-5 sm:pb-6" />
            )}
          </DialogPrimitive.Content>
        </DialogPrimitive.Overlay>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

/**
 * A full-screen modal surface with its own layout (the image viewer): the same primitive (portal,
 * focus trapped then given back, Escape, inert page, scroll lock) without the dialog frame; `label`
 * names it (a visually hidden title).
 */
export function ModalSurface({
  label,
  onClose,
  children,
  className,
  initialFocusRef,
  'aria-describedby': describedBy,
}: {
  label: string;
  onClose: () => void;
  children: ReactNode;
  className?: string;
  initialFocusRef?: RefObject<HTMLElement | null>;
  'aria-describedby'?: string;
}) {
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  return (
    <DialogPrimitive.Root open onOpenChange={(next) => (next ? undefined : onCloseRef.current())}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Content
          aria-modal="true"
          aria-describedby={describedBy}
          onOpenAutoFocus={(event) => {
            const target = initialFocusRef?.current;
            if (target) {
              event.preventDefault();
              target.focus();
            }
          }}
          className={className}
        >
          <DialogPrimitive.Title className="sr-only">{label}</DialogPrimitive.Title>
          {children}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
