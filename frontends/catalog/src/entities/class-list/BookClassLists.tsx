import type { ClassListRef, BookClassLists as Lists } from '@cartable/contracts';
import { classListRefLabel, classListRefPath } from '@cartable/contracts/labels';
import { Badge } from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import { useBookClassLists } from './api/book-lists';

/** « retiré de la liste 2026-2027 (6e) »: for a buyer, the level and year a list dropped the book for. */
export const withdrawnLabel = (l: ClassListRef) =>
  `Retiré de la liste ${l.school_year} (${l.level_name}${l.school_name ? `, ${l.school_name}` : ''})`;

/** The lists and years that still name a listing's book, and those that withdrew it: what a buyer checks first. */
export function BookClassListsView({ lists }: { lists: Lists }) {
  if (!lists.named.length && !lists.withdrawn.length) return null;
  return (
    <div className="space-y-1.5 text-sm" data-testid="book-class-lists">
      {lists.withdrawn.length > 0 ? (
        <ul className="flex flex-wrap gap-1.5" aria-label="Listes qui ont retiré ce manuel">
          {lists.withdrawn.map((l) => (
            <li key={l.id}>
              <Badge tone="danger" className="max-w-full whitespace-normal!">
                {withdrawnLabel(l)}
              </Badge>
            </li>
          ))}
        </ul>
      ) : null}
      {lists.named.length > 0 ? (
        <p className="text-slate-700">
          Sur la liste de :{' '}
          {lists.named.map((l, n) => (
            <span key={l.id}>
              {n > 0 ? ', ' : null}
              <Link
                to={classListRefPath(l)}
                className="inline-flex min-h-11 items-center font-semibold text-primary-700 underline-offset-2 hover:underline"
              >
                {classListRefLabel(l)}
              </Link>
            </span>
          ))}
        </p>
      ) : (
        <p className="text-slate-700">Ce manuel n’est plus sur aucune liste publiée.</p>
      )}
    </div>
  );
}

/** The listing page's line: fetched apart, so that the page never waits for it. */
export function BookClassLists({ bookId }: { bookId: number }) {
  const lists = useBookClassLists(bookId);
  return lists.data ? <BookClassListsView lists={lists.data} /> : null;
}
