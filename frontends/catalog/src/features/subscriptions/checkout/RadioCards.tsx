import { cn } from '@cartable/ui';
import type { UseFormRegisterReturn } from 'react-hook-form';

/** A choice among a few options as cards (the operator, the way to pay), a radio group underneath. */
export function RadioCards<T extends string>({
  legend,
  name,
  options,
  value,
  field,
}: {
  legend: string;
  name: string;
  options: Array<[T, string, string?]>;
  value: string | undefined;
  field: UseFormRegisterReturn;
}) {
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-medium text-slate-800">{legend}</legend>
      <div className="grid grid-cols-2 gap-2" data-name={name}>
        {options.map(([option, label, hint]) => (
          <label
            key={option}
            className={cn(
              'flex min-h-11 cursor-pointer flex-col justify-center rounded-xl border p-2 text-center text-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-primary-300',
              value === option ? 'border-primary-700 bg-primary-50 text-primary-900' : 'border-slate-300 bg-white',
            )}
          >
            <input type="radio" value={option} className="sr-only" {...field} />
            <span className="font-semibold">{label}</span>
            {hint ? <span className="text-xs text-slate-500">{hint}</span> : null}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
