import { type ReactNode, type RefObject, useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';
import { cn } from '../cn';
import { CloseIcon } from '../icons';

const FOCUSABLE =
  'a[href], area[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), ' +
  'textarea:not([disabled]), [tabindex]:not([tabindex="-1"]), [contenteditable="true"]';

function focusables(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (element) => !element.hasAttribute('inert') && element.getClientRects().length > 0,
  );
}

/** Tab and Shift+Tab cycle inside the dialog. */
function trapTab(event: KeyboardEvent, panel: HTMLElement) {
  const list = focusables(panel);
  const first = list[0];
  const last = list[list.length - 1];
  if (!first || !last) {
    event.preventDefault();
    panel.focus();
    return;
  }
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === panel)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || !panel.contains(active))) {
    event.preventDefault();
    first.focus();
  }
}

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

/** Stacked dialogs: only the top one reacts to Escape and traps the focus. */
const stack: string[] = [];

/**
 * Modal dialog: rendered in a portal, focus moved in and trapped, Escape closes, focus goes back
 * to where it was, the page behind does not scroll. A bottom sheet on phones, centred from `sm`.
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
  const id = useId();
  const titleId = `${id}-title`;
  const descriptionId = `${id}-description`;
  const panelRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const backdropCloses = closeOnBackdrop ?? role === 'dialog';
  const closeButton = showCloseButton ?? role === 'dialog';

  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    stack.push(id);
    const panel = panelRef.current;
    const target = initialFocusRef?.current ?? (panel ? focusables(panel)[0] : null) ?? panel;
    target?.focus();

    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';

    // Focus leaving the dialog (a click elsewhere, a screen reader moving on) comes back to it.
    function onFocusIn(event: FocusEvent) {
      if (stack[stack.length - 1] !== id || !panel) return;
      const node = event.target as Node | null;
      if (node && !panel.contains(node)) (focusables(panel)[0] ?? panel).focus();
    }
    function onKeyDown(event: KeyboardEvent) {
      if (stack[stack.length - 1] !== id) return;
      if (event.key === 'Escape') {
        event.stopPropagation();
        onCloseRef.current();
      } else if (event.key === 'Tab' && panel) {
        trapTab(event, panel);
      }
    }
    document.addEventListener('focusin', onFocusIn);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('keydown', onKeyDown);
      const index = stack.lastIndexOf(id);
      if (index >= 0) stack.splice(index, 1);
      document.body.style.overflow = overflow;
      if (previous?.isConnected) previous.focus();
    };
  }, [open, id, initialFocusRef]);

  if (!open || typeof document === 'undefined') return null;

  // Spread so that the role can be either kind of dialog (both support aria-modal).
  const a11y = {
    role,
    'aria-modal': true,
    'aria-labelledby': titleId,
    'aria-describedby': description ? descriptionId : undefined,
  } as const;

  return createPortal(
    <div className="fixed inset-0 z-[60] flex items-end justify-center sm:items-center sm:p-4">
      <div
        aria-hidden="true"
        className="absolute inset-0 bg-slate-900/60"
        onClick={backdropCloses ? () => onCloseRef.current() : undefined}
      />
      <div
        ref={panelRef}
        {...a11y}
        tabIndex={-1}
        className={cn(
          'relative flex max-h-[92dvh] w-full flex-col overflow-y-auto rounded-t-2xl bg-white shadow-xl focus:outline-none sm:rounded-2xl',
          SIZES[size],
          className,
        )}
      >
        <div className="flex items-start gap-3 px-5 pt-5 sm:px-6 sm:pt-6">
          <div className="min-w-0 flex-1">
            <h2 id={titleId} className="text-lg font-semibold text-slate-900">
              {title}
            </h2>
            {description ? (
              <div id={descriptionId} className="mt-1.5 text-sm text-slate-600">
                {description}
              </div>
            ) : null}
          </div>
          {closeButton ? (
            <button
              type="button"
              onClick={() => onCloseRef.current()}
              className="-mt-1 -mr-2 flex h-10 w-10 shrink-0 items-center justify-center rounded-lg text-slate-500 hover:bg-slate-100 hover:text-slate-800"
              aria-label="Fermer"
            >
              <CloseIcon size={20} />
            </button>
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
      </div>
    </div>,
    document.body,
  );
}
