import { Avatar, Badge, ChevronLeftIcon, formatPrice, Skeleton } from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import { BookCover } from '../../../entities/book/BookCard';
import { BlockButton } from '../../../entities/report/BlockButton';
import { statusLabel, truncate } from '../../../shared/books';

/** The book (cover, title, price, status) and the other member, with the way back to the list. */
interface HeaderBook {
  id: number;
  title: string;
  thumbnail: string | null;
  price: number;
  status: string;
}

export function ThreadHeader({
  bookId,
  userId,
  book,
  other,
  loading,
}: {
  bookId: string;
  userId: string;
  book: HeaderBook | null;
  other: { id: string; name: string; profile_image: string | null } | null;
  loading: boolean;
}) {
  const status = book?.status;
  return (
    <header className="flex items-center gap-2 border-b border-slate-200 bg-white px-2 py-2 sm:px-4 sm:py-3">
      <Link
        to="/messages"
        aria-label="Retour aux messages"
        className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full text-slate-600 hover:bg-slate-100"
      >
        <ChevronLeftIcon size={22} />
      </Link>
      {loading && !book ? (
        <div className="flex flex-1 items-center gap-3">
          <Skeleton className="h-14 w-10 shrink-0" />
          <div className="flex-1 space-y-2">
            <Skeleton className="h-4 w-2/3" />
            <Skeleton className="h-3 w-1/3" />
          </div>
        </div>
      ) : (
        <Link
          to={`/books/${book?.id ?? bookId}`}
          className="flex min-w-0 flex-1 items-center gap-3 rounded-lg p-1 hover:bg-slate-50"
        >
          <BookCover src={book?.thumbnail} alt="" className="h-14 w-10 shrink-0 rounded" />
          <div className="min-w-0">
            <h1 className="line-clamp-2 text-sm leading-snug font-semibold break-words text-slate-900 sm:text-base">
              {book ? truncate(book.title, 70) : 'Manuel'}
            </h1>
            <p className="mt-0.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
              {book ? (
                <span className="font-bold text-primary-800">{formatPrice(book.price, { zeroLabel: 'Don' })}</span>
              ) : null}
              {status ? (
                <Badge
                  tone={status === 'disponible' ? 'success' : status === 'réservé' ? 'accent' : 'neutral'}
                  className="text-[11px]"
                >
                  {statusLabel(status)}
                </Badge>
              ) : null}
            </p>
          </div>
        </Link>
      )}
      {other ? (
        <Link
          to={`/profile/${other.id ?? userId}`}
          className="flex shrink-0 items-center gap-2 rounded-full p-1 hover:bg-slate-50 sm:pr-3"
        >
          {/* The visible name is part of the link's name (WCAG 2.5.3); the initials are a picture. */}
          <span aria-hidden="true">
            <Avatar name={other.name} image={other.profile_image} size="md" />
          </span>
          <span className="sr-only">Profil de </span>
          <span className="sr-only sm:not-sr-only sm:block sm:max-w-40 sm:truncate sm:text-sm sm:font-medium sm:text-slate-800">
            {other.name}
          </span>
        </Link>
      ) : null}
      {other ? <BlockButton userId={other.id ?? userId} name={other.name} compact /> : null}
    </header>
  );
}
