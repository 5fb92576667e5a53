import { type InputHTMLAttributes, type ReactNode, type Ref, useId, useState } from 'react';
import { cn } from '../cn';
import { EyeIcon, EyeOffIcon } from '../icons';

export interface InputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'size'> {
  label: ReactNode;
  /** Error text shown under the field; marks the field invalid. */
  error?: string | undefined;
  hint?: ReactNode;
  /** Element placed inside the field on the right (e.g. the show-password button). */
  trailing?: ReactNode;
  ref?: Ref<HTMLInputElement>;
}

const FIELD =
  'block h-11 w-full rounded-lg border bg-white px-3 text-base text-slate-900 placeholder:text-slate-400 ' +
  'transition-colors focus:outline-none focus:ring-2 disabled:cursor-not-allowed disabled:bg-slate-100 sm:text-sm';

/** Labelled text field with error and hint wired through aria-describedby. */
export function Input({ label, error, hint, trailing, id, className, ref, ...props }: InputProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ');
  return (
    <div className={className}>
      <label htmlFor={inputId} className="mb-1.5 block text-sm font-medium text-slate-800">
        {label}
      </label>
      <div className="relative">
        <input
          ref={ref}
          id={inputId}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
          className={cn(
            FIELD,
            trailing ? 'pr-12' : undefined,
            error
              ? 'border-red-500 focus:border-red-500 focus:ring-red-200'
              : 'border-slate-300 focus:border-primary-600 focus:ring-primary-100',
          )}
          {...props}
        />
        {trailing ? <div className="absolute inset-y-0 right-0 flex items-center pr-1">{trailing}</div> : null}
      </div>
      {hint && !error ? (
        <p id={hintId} className="mt-1.5 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="mt-1.5 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export type PasswordInputProps = Omit<InputProps, 'type' | 'trailing'>;

/** Password field with a show/hide toggle. */
export function PasswordInput(props: PasswordInputProps) {
  const [visible, setVisible] = useState(false);
  return (
    <Input
      {...props}
      type={visible ? 'text' : 'password'}
      trailing={
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          className="flex h-9 w-10 items-center justify-center rounded-md text-slate-500 hover:text-slate-800"
          aria-label={visible ? 'Masquer le mot de passe' : 'Afficher le mot de passe'}
          aria-pressed={visible}
        >
          {visible ? <EyeOffIcon size={18} /> : <EyeIcon size={18} />}
        </button>
      }
    />
  );
}
