import { StarIcon } from '@cartable/ui';

/** Read-only stars, named « 4 étoiles sur 5 ». */
export function Stars({ value, size = 16 }: { value: number; size?: number }) {
  return (
    <span className="inline-flex" role="img" aria-label={`${value} étoile${value > 1 ? 's' : ''} sur 5`}>
      {[1, 2, 3, 4, 5].map((n) => (
        <StarIcon
          key={n}
          size={size}
          aria-hidden="true"
          filled={n <= value}
          className={n <= value ? 'text-accent-500' : 'text-slate-300'}
        />
      ))}
    </span>
  );
}
