import type { ClassListRef } from '@cartable/contracts';
import { conditionFlagLabels, conditionFlagShortLabels } from '@cartable/contracts/labels';
import {
  Badge,
  BookIcon,
  cn,
  formatPrice,
  MapPinIcon,
  Skeleton,
  StarIcon,
  SwapIcon,
  useAfterPaint,
  useDataSaver,
} from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import { useState } from 'react';
import { useWithdrawnBooks } from '../../entities/class-list/api/book-lists';
import { withdrawnLabel } from '../../entities/class-list/BookClassLists';
import { FavouriteButton } from '../../entities/favourite/FavouriteButton';
import { type Book, conditionLabel, isNegotiable, statusLabel, truncate } from '../../shared/books';

/** Cover of a book: its thumbnail, lazily loaded, or a drawn placeholder. */
export function BookCover({
  src,
  alt,
  className,
  eager = false,
  revealable = false,
}: {
  src: string | null | undefined;
  alt: string;
  className?: string;
  eager?: boolean;
  /**
   * In data-saver mode a cover waits for a tap: a card offers « Voir la photo »; elsewhere (a
   * line of a list, small) the drawing stands in for it.
   */
  revealable?: boolean;
}) {
  const { enabled: saving } = useDataSaver();
  const [revealed, setRevealed] = useState(false);
  const frame = cn(
    'relative flex flex-col items-center justify-center gap-1 bg-linear-to-br from-primary-50 to-ocean-50',
    className,
  );
  if (src && saving && !revealed && revealable) {
    return (
      <div className={frame}>
        <BookIcon size={36} className="text-primary-300" />
        <button
          type="button"
          onClick={() => setRevealed(true)}
          // Above the card's link, which covers the whole card.
          className="relative z-10 min-h-11 rounded-full bg-white/90 px-3 text-xs font-semibold text-primary-800 shadow-sm hover:bg-white"
        >
          Voir la photo
        </button>
      </div>
    );
  }
  if (!src || (saving && !revealed)) {
    return (
      <div className={frame} role="img" aria-label={alt ? `${alt} (pas de photo)` : 'Pas de photo'}>
        <BookIcon size={36} className="text-primary-300" />
      </div>
    );
  }
  return (
    <img
      src={src}
      alt={alt}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
      width={300}
      height={400}
      className={cn('bg-slate-100 object-cover', className)}
    />
  );
}

/** A boosted listing: always visible, so that buyers know it is paid visibility. */
export function SponsoredBadge({ className }: { className?: string }) {
  return (
    <Badge tone="accent" className={className} data-testid="sponsored-badge">
      <StarIcon size={12} filled /> Sponsorisé
    </Badge>
  );
}

/** Price line: "4 500 F CFA", or "Don" for a price of zero (SPEC section 1). */
export function Price({ value, className }: { value: number; className?: string }) {
  return (
    <span className={cn('font-bold', value === 0 ? 'text-ocean-700' : 'text-primary-800', className)}>
      {formatPrice(value, { zeroLabel: 'Don' })}
    </span>
  );
}

export interface BookCardProps {
  book: Book;
  /** The class lists that withdrew this book (« Retiré de la liste 2026-2027 (6e) »). */
  withdrawn?: ClassListRef[] | undefined;
  layout?: 'grid' | 'list';
  /** The first visible covers are fetched at once (above the fold). */
  eager?: boolean;
}

/** A book in a list: the whole card opens the book; the heart sits beside the link. */
export function BookCard({ book, layout = 'grid', eager, withdrawn }: BookCardProps) {
  const title = truncate(book.title);
  const unavailable = book.status !== 'disponible';
  const href = `/books/${book.id}`;
  const meta = (
    <>
      <div className="flex flex-wrap gap-1">
        {book.sponsored ? <SponsoredBadge /> : null}
        {book.lot ? <Badge tone="neutral">Lot · {book.lot.items.length} manuels</Badge> : null}
        <Badge tone="primary">{conditionLabel(book)}</Badge>
        {book.condition_flags?.map((flag) => (
          // Within a narrow card, the longest (« Couverture abîmée ») ends in « … » rather than past its edge.
          <Badge
            key={flag}
            tone="neutral"
            title={conditionFlagLabels[flag]}
            data-testid="condition-flag"
            className="max-w-full"
          >
            <span className="truncate">{conditionFlagShortLabels[flag]}</span>
          </Badge>
        ))}
        {unavailable ? (
          <Badge tone={book.status === 'réservé' ? 'accent' : 'neutral'}>{statusLabel(book.status)}</Badge>
        ) : null}
        {book.is_exchange_possible ? (
          <Badge tone="ocean">
            <SwapIcon size={12} /> Échange
          </Badge>
        ) : null}
        {withdrawn?.map((l) => (
          // A long mark wraps within the card rather than running past a phone's edge.
          <Badge key={l.id} tone="danger" data-testid="withdrawn-badge" className="max-w-full whitespace-normal!">
            {withdrawnLabel(l)}
          </Badge>
        ))}
      </div>
    </>
  );

  if (layout === 'list') {
    return (
      <article className="relative flex gap-3 rounded-xl border border-slate-200 bg-white p-3 shadow-sm transition-shadow hover:shadow-md sm:gap-4">
        <BookCover
          src={book.thumbnail}
          alt=""
          eager={eager}
          revealable
          className="h-32 w-24 shrink-0 rounded-lg sm:h-36 sm:w-28"
        />
        <div className="flex min-w-0 flex-1 flex-col gap-1.5 pr-10">
          <h3 className="font-semibold leading-snug hyphens-auto [overflow-wrap:anywhere] text-slate-900">
            <Link
              to={href}
              className="block min-h-11 after:absolute after:inset-0 after:rounded-xl focus-visible:outline-none focus-visible:after:outline-2 focus-visible:after:outline-offset-2 focus-visible:after:outline-ocean-500"
              title={book.title}
            >
              {title}
            </Link>
          </h3>
          <p className="truncate text-sm text-slate-600">{book.author}</p>
          {meta}
          <div className="mt-auto flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
            <p>
              <Price value={book.price} className="text-lg" />
              {isNegotiable(book) && book.price > 0 ? (
                <span className="ml-1.5 text-xs text-slate-500">négociable</span>
              ) : null}
            </p>
            {book.city ? (
              <p className="flex items-center gap-1 text-xs text-slate-500">
                <MapPinIcon size={14} /> {book.city.name}
              </p>
            ) : null}
          </div>
        </div>
        <FavouriteButton bookId={book.id} title={book.title} className="absolute top-2 right-2 z-10" />
      </article>
    );
  }

  return (
    <article className="relative flex h-full flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm transition-shadow hover:shadow-md">
      <BookCover src={book.thumbnail} alt="" eager={eager} revealable className="aspect-[3/4] w-full" />
      <div className="flex flex-1 flex-col gap-1.5 p-3">
        {/* A title of one long word (« Physique-Chimie-Technologie… ») breaks inside the card. */}
        <h3 className="text-sm leading-snug font-semibold hyphens-auto [overflow-wrap:anywhere] text-slate-900 sm:text-base">
          <Link
            to={href}
            className="block min-h-11 after:absolute after:inset-0 after:rounded-xl focus-visible:outline-none focus-visible:after:outline-2 focus-visible:after:outline-offset-2 focus-visible:after:outline-ocean-500"
            title={book.title}
          >
            {title}
          </Link>
        </h3>
        <p className="truncate text-xs text-slate-600 sm:text-sm">{book.author}</p>
        {meta}
        <div className="mt-auto pt-1">
          <Price value={book.price} />
          {book.city ? (
            <p className="mt-0.5 flex items-center gap-1 truncate text-xs text-slate-500">
              <MapPinIcon size={13} className="shrink-0" /> {book.city.name}
            </p>
          ) : null}
        </div>
      </div>
      <FavouriteButton bookId={book.id} title={book.title} className="absolute top-2 right-2 z-10" />
    </article>
  );
}

/** Placeholder cards while books load. */
export function BookCardSkeleton({ layout = 'grid' }: { layout?: 'grid' | 'list' }) {
  if (layout === 'list') {
    return (
      <div className="flex gap-4 rounded-xl border border-slate-200 bg-white p-3">
        <Skeleton className="h-32 w-24 shrink-0" />
        <div className="flex-1 space-y-2 py-1">
          <Skeleton className="h-4 w-3/4" />
          <Skeleton className="h-3 w-1/2" />
          <Skeleton className="h-5 w-24" />
        </div>
      </div>
    );
  }
  return (
    <div className="overflow-hidden rounded-xl border border-slate-200 bg-white">
      <Skeleton className="aspect-[3/4] w-full rounded-none" />
      <div className="space-y-2 p-3">
        <Skeleton className="h-4 w-5/6" />
        <Skeleton className="h-3 w-1/2" />
        <Skeleton className="h-5 w-20" />
      </div>
    </div>
  );
}

export const GRID_CLASSES = 'grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 lg:grid-cols-4';

/** A grid of books (or its skeleton), as a list for assistive technologies. */
export function BookGrid({
  books,
  loading,
  count = 8,
  layout = 'grid',
  className,
  eagerCount = 0,
  firstPaintCount,
}: {
  books: Book[] | undefined;
  loading?: boolean;
  count?: number;
  layout?: 'grid' | 'list';
  className?: string;
  eagerCount?: number;
  /** Cards rendered at once (a phone's first screen); the others once that is painted. */
  firstPaintCount?: number;
}) {
  // grid-cols-1 (minmax(0, 1fr)): an implicit column grows to a long title's width, which pushed
  // the list past a 360 px screen and cut the heart off.
  const classes = cn(layout === 'grid' ? GRID_CLASSES : 'grid grid-cols-1 gap-3 lg:grid-cols-2', className);
  if (loading || !books) {
    return (
      <div className={classes} data-testid="books-loading">
        <span className="sr-only" role="status">
          Chargement des manuels…
        </span>
        {Array.from({ length: count }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
          <BookCardSkeleton key={i} layout={layout} />
        ))}
      </div>
    );
  }
  return (
    <BookList
      books={books}
      className={classes}
      layout={layout}
      eagerCount={eagerCount}
      firstPaintCount={firstPaintCount}
    />
  );
}

/** The cards, from their first render with books (after the skeleton): the first screen's first. */
function BookList({
  books,
  className,
  layout,
  eagerCount,
  firstPaintCount,
}: {
  books: Book[];
  className: string;
  layout: 'grid' | 'list';
  eagerCount: number;
  firstPaintCount: number | undefined;
}) {
  const painted = useAfterPaint();
  const shown = painted || firstPaintCount === undefined ? books : books.slice(0, firstPaintCount);
  const withdrawn = useWithdrawnBooks(painted ? books.map((b) => b.id) : []);
  return (
    <ul className={className}>
      {shown.map((book, index) => (
        <li key={book.id}>
          <BookCard book={book} layout={layout} eager={index < eagerCount} withdrawn={withdrawn.get(book.id)} />
        </li>
      ))}
    </ul>
  );
}
