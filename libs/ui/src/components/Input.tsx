import {
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
  useState,
} from 'react';
import { cn } from '../cn';
import { ChevronDownIcon, EyeIcon, EyeOffIcon } from '../icons';

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
  'transition-colors focus:outline-none focus:ring-2 disabled:cursor-not-allowed disabled:bg-slate-100 [&[readonly]]:bg-slate-50 [&[readonly]]:text-slate-600 sm:text-sm';

/** Ids and aria attributes shared by every labelled field. */
function useField(id: string | undefined, error: string | undefined, hint: ReactNode) {
  const autoId = useId();
  const fieldId = id ?? autoId;
  const errorId = `${fieldId}-error`;
  const hintId = `${fieldId}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ');
  return {
    fieldId,
    errorId,
    hintId,
    control: { id: fieldId, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy || undefined },
    tone: error
      ? 'border-red-500 focus:border-red-500 focus:ring-red-200'
      : 'border-slate-300 focus:border-primary-600 focus:ring-primary-100',
  };
}

/** The label above, the hint or the error below, as every field shows them. */
function FieldFrame({
  field,
  label,
  error,
  hint,
  className,
  children,
}: {
  field: ReturnType<typeof useField>;
  label: ReactNode;
  error: string | undefined;
  hint: ReactNode;
  className: string | undefined;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <label htmlFor={field.fieldId} className="mb-1.5 block text-sm font-medium text-slate-800">
        {label}
      </label>
      {children}
      {hint && !error ? (
        <p id={field.hintId} className="mt-1.5 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={field.errorId} className="mt-1.5 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Labelled text field with error and hint wired through aria-describedby. */
export function Input({ label, error, hint, trailing, id, className, ref, ...props }: InputProps) {
  const field = useField(id, error, hint);
  return (
    <FieldFrame field={field} label={label} error={error} hint={hint} className={className}>
      <div className="relative">
        <input
          ref={ref}
          {...field.control}
          className={cn(FIELD, trailing ? 'pr-12' : undefined, field.tone)}
          {...props}
        />
        {trailing ? <div className="absolute inset-y-0 right-0 flex items-center pr-1">{trailing}</div> : null}
      </div>
    </FieldFrame>
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

export interface SelectProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'size'> {
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
  ref?: Ref<HTMLSelectElement>;
}

/** Labelled native select (the best picker on phones), error and hint wired like Input. */
export function Select({ label, error, hint, id, className, ref, children, ...props }: SelectProps) {
  const field = useField(id, error, hint);
  return (
    <FieldFrame field={field} label={label} error={error} hint={hint} className={className}>
      <div className="relative">
        <select ref={ref} {...field.control} className={cn(FIELD, 'appearance-none pr-10', field.tone)} {...props}>
          {children}
        </select>
        <ChevronDownIcon
          size={18}
          className="pointer-events-none absolute top-1/2 right-3 -translate-y-1/2 text-slate-500"
        />
      </div>
    </FieldFrame>
  );
}

export interface TextareaProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
  ref?: Ref<HTMLTextAreaElement>;
}

/** Labelled multi-line field. */
export function Textarea({ label, error, hint, id, className, ref, ...props }: TextareaProps) {
  const field = useField(id, error, hint);
  return (
    <FieldFrame field={field} label={label} error={error} hint={hint} className={className}>
      <textarea ref={ref} {...field.control} className={cn(FIELD, 'h-auto min-h-24 py-2.5', field.tone)} {...props} />
    </FieldFrame>
  );
}

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'size'> {
  label: ReactNode;
  hint?: ReactNode;
  ref?: Ref<HTMLInputElement>;
}

/** Checkbox with its label on the right (the whole row is clickable, 44 px tall). */
export function Checkbox({ label, hint, id, className, ref, ...props }: CheckboxProps) {
  const autoId = useId();
  const boxId = id ?? autoId;
  const hintId = `${boxId}-hint`;
  return (
    <div className={cn('flex items-start gap-3', className)}>
      <input
        ref={ref}
        id={boxId}
        type="checkbox"
        aria-describedby={hint ? hintId : undefined}
        className="mt-3 h-5 w-5 shrink-0 cursor-pointer rounded border-slate-300 accent-primary-700"
        {...props}
      />
      <div className="min-w-0">
        {/* The label is the finger's target: 44 px tall, the box centred on its first line. */}
        <label htmlFor={boxId} className="flex min-h-11 cursor-pointer items-center text-sm font-medium text-slate-800">
          {label}
        </label>
        {hint ? (
          <p id={hintId} className="mt-0.5 text-xs text-slate-500">
            {hint}
          </p>
        ) : null}
      </div>
    </div>
  );
}
