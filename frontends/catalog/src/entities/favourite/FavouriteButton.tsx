import { cn, HeartIcon, notify, notifyFailure, queryKeys, useSession } from '@cartable/ui';
import { useQueryClient } from '@tanstack/react-query';
import type { Id } from '../../shared/books';
import { toggleFavourite, useFavouriteIds, useFavouritesSync } from './store';

export interface FavouriteButtonProps {
  bookId: Id;
  title: string;
  className?: string;
  /** "overlay" sits on a cover image; "outline" is a regular button with a label. */
  variant?: 'overlay' | 'outline';
}

/** The heart (SPEC section 4): members only; kept on the account, with localStorage "favourites" as the offline copy. */
export function FavouriteButton({ bookId, title, className, variant = 'overlay' }: FavouriteButtonProps) {
  const { isAuthenticated } = useSession();
  const ids = useFavouriteIds();
  const client = useQueryClient();
  useFavouritesSync();
  const active = isAuthenticated && ids.some((id) => String(id) === String(bookId));
  const label = active ? `Retirer « ${title} » des favoris` : `Ajouter « ${title} » aux favoris`;

  const onClick = () => {
    if (!isAuthenticated) {
      void notify.info('Connectez-vous pour ajouter des manuels à vos favoris.');
      return;
    }
    toggleFavourite(bookId, ids).then(
      () => client.invalidateQueries({ queryKey: queryKeys.favourites.all }),
      (error: unknown) => notifyFailure(error, 'Impossible de modifier vos favoris. Réessayez.'),
    );
  };

  if (variant === 'outline') {
    return (
      <button
        type="button"
        onClick={onClick}
        aria-pressed={active}
        className={cn(
          'inline-flex h-11 items-center justify-center gap-2 rounded-lg border px-4 text-sm font-semibold transition-colors',
          active
            ? 'border-red-200 bg-red-50 text-red-700 hover:bg-red-100'
            : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-50',
          className,
        )}
      >
        <HeartIcon size={18} filled={active} />
        {/* The visible words start the accessible name (WCAG 2.5.3), the title follows for screen readers. */}
        {active ? 'Dans vos favoris' : 'Favori'}
        <span className="sr-only"> – {label}</span>
      </button>
    );
  }

  return (
    <button
      type="button"
      onClick={onClick}
      aria-pressed={active}
      aria-label={label}
      title={active ? 'Retirer des favoris' : 'Ajouter aux favoris'}
      className={cn(
        'flex h-11 w-11 items-center justify-center rounded-full bg-white/90 shadow-sm backdrop-blur transition-colors hover:bg-white',
        active ? 'text-red-600' : 'text-slate-600 hover:text-red-600',
        className,
      )}
    >
      <HeartIcon size={20} filled={active} />
    </button>
  );
}
