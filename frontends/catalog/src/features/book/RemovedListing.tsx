import { buttonClasses, Container, EmptyState, InfoIcon, useDocumentTitle } from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import { useQuery } from '@tanstack/react-query';
import { BookGrid } from '../../entities/book/BookCard';
import { booksQuery } from '../../shared/api/books';

/** Recent listings shown instead (the removed one's category is gone with it). */
const RECENT = { sort_by: 'created_at', sort_direction: 'desc', per_page: 4 } as const;

/**
 * A link to a listing that was sold and removed, hidden or deleted: say so, and offer others
 * (rather than a red error and a jump to /books, which a visitor from WhatsApp cannot make sense of).
 */
export function RemovedListing() {
  useDocumentTitle("Cette annonce n'est plus disponible");
  const recent = useQuery({ ...booksQuery(RECENT), staleTime: 5 * 60_000 });
  return (
    <Container className="py-8">
      <EmptyState
        headingLevel={1}
        icon={<InfoIcon size={26} />}
        title="Cette annonce n'est plus disponible"
        description="Le manuel a peut-être été vendu ou retiré par son propriétaire. D’autres familles en proposent sûrement un autre."
        action={
          <Link to="/books" className={buttonClasses('primary')}>
            Voir tous les manuels
          </Link>
        }
      />
      {recent.isError || recent.data?.data.length === 0 ? null : (
        <section aria-labelledby="autres-manuels" className="mt-10">
          <h2 id="autres-manuels" className="mb-4 text-xl font-bold text-slate-900">
            D’autres manuels récents
          </h2>
          <BookGrid books={recent.data?.data.slice(0, 4)} loading={recent.isPending} count={4} />
        </section>
      )}
    </Container>
  );
}
