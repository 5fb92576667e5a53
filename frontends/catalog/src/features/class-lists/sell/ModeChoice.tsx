import { useId } from 'react';
import type { Mode } from './publication';

/** « Une annonce par manuel » or « Un seul lot »: settled once a listing went out. */
export function ModeChoice({
  mode,
  disabled,
  onChange,
}: {
  mode: Mode;
  disabled: boolean;
  onChange: (mode: Mode) => void;
}) {
  const name = useId();
  const options: Array<[Mode, string, string]> = [
    ['separate', 'Une annonce par manuel', 'Chaque manuel a son état, son prix et sa photo.'],
    ['lot', 'Un seul lot', 'Un prix pour l’ensemble ; le lot est trouvé par chacun de ses manuels.'],
  ];
  return (
    <fieldset className="mt-3" disabled={disabled}>
      <legend className="text-sm font-medium text-slate-900">Comment les vendre ?</legend>
      <div className="mt-1.5 grid gap-2 sm:grid-cols-2">
        {options.map(([value, label, hint]) => (
          <label
            key={value}
            className={`flex min-h-11 cursor-pointer items-start gap-2 rounded-lg border p-3 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-primary-600 ${
              mode === value ? 'border-primary-600 bg-primary-50' : 'border-slate-300 bg-white'
            }`}
          >
            <input
              type="radio"
              name={name}
              value={value}
              checked={mode === value}
              onChange={() => onChange(value)}
              className="mt-0.5 h-5 w-5 shrink-0 accent-primary-700"
            />
            <span>
              <span className="block font-semibold text-slate-900">{label}</span>
              <span className="block text-sm text-slate-600">{hint}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
