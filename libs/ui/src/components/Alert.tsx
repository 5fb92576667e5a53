import type { ReactNode } from 'react';
import { cn } from '../cn';
import { AlertIcon, CheckCircleIcon, InfoIcon } from '../icons';

export type AlertTone = 'info' | 'success' | 'warning' | 'error';

const TONES: Record<AlertTone, string> = {
  info: 'border-ocean-200 bg-ocean-50 text-ocean-900',
  success: 'border-primary-200 bg-primary-50 text-primary-900',
  warning: 'border-accent-300 bg-accent-50 text-accent-900',
  error: 'border-red-200 bg-red-50 text-red-900',
};

const ICONS = { info: InfoIcon, success: CheckCircleIcon, warning: AlertIcon, error: AlertIcon };

export interface AlertProps {
  tone?: AlertTone;
  title?: ReactNode;
  children?: ReactNode;
  /** A button or link shown under the text (e.g. "Réessayer"). */
  action?: ReactNode;
  className?: string;
}

/** Inline message. Errors are announced immediately (role="alert"), others politely. */
export function Alert({ tone = 'info', title, children, action, className }: AlertProps) {
  const Icon = ICONS[tone];
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={cn('flex gap-3 rounded-lg border p-4 text-sm', TONES[tone], className)}
    >
      <Icon className="mt-0.5 shrink-0" size={18} />
      <div className="min-w-0 flex-1 space-y-1">
        {title ? <p className="font-semibold">{title}</p> : null}
        {children ? <div>{children}</div> : null}
        {action ? <div className="pt-2">{action}</div> : null}
      </div>
    </div>
  );
}
