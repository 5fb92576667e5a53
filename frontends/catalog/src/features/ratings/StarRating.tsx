import { cn, StarIcon } from '@cartable/ui';
import { useId } from 'react';

const LABELS = ['Très mauvais', 'Mauvais', 'Correct', 'Bien', 'Excellent'];

/**
 * 1 to 5 stars as a radio group: arrows move and choose (the browser's radio behaviour), the
 * stars up to the chosen one are filled, each star is named for screen readers.
 */
export function StarRating({
  value,
  onChange,
  name,
  error,
}: {
  value: number;
  onChange: (value: number) => void;
  name: string;
  error?: string | undefined;
}) {
  const legendId = useId();
  const errorId = useId();
  return (
    <fieldset aria-describedby={error ? errorId : undefined}>
      <legend id={legendId} className="mb-1 text-sm font-medium text-slate-800">
        Note
      </legend>
      <div role="radiogroup" aria-labelledby={legendId} className="flex flex-wrap items-center gap-1">
        {[1, 2, 3, 4, 5].map((n) => (
          <label
            key={n}
            className="cursor-pointer rounded-md p-1.5 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-primary-400"
          >
            <input
              type="radio"
              name={name}
              value={n}
              checked={value === n}
              onChange={() => onChange(n)}
              className="sr-only"
              aria-label={`${n} étoile${n > 1 ? 's' : ''} : ${LABELS[n - 1]}`}
            />
            <StarIcon
              size={32}
              aria-hidden="true"
              filled={n <= value}
              className={cn(n <= value ? 'text-accent-500' : 'text-slate-300')}
            />
          </label>
        ))}
        <span className="ml-2 text-sm text-slate-600" aria-hidden="true">
          {value ? LABELS[value - 1] : 'Choisissez une note'}
        </span>
      </div>
      {error ? (
        <p id={errorId} className="mt-1 text-sm text-red-700" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
