import {
  buttonClasses,
  Container,
  EmptyState,
  favouritesPageQuery,
  HeartIcon,
  LoadFailed,
  PageHeader,
  Pagination,
  useDocumentTitle,
  useSession,
} from '@cartable/ui';
import { Link, useSearchParams } from '@cartable/ui/router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { BookGrid } from '../../entities/book/BookCard';
import type { Book } from '../../shared/books';

/**
 * « Mes favoris » (/favoris, /favourites): the member's favourite listings from the server, newest
 * first, a page at a time; removed or hidden ones are gone, sold ones say so on their card.
 */
export default function FavouritesPage() {
  const { user } = useSession();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  useDocumentTitle('Mes favoris');
  const query = useQuery({
    ...favouritesPageQuery(user?.id ?? '', page),
    enabled: Boolean(user),
    placeholderData: keepPreviousData,
  });

  return (
    <Container className="py-8 sm:py-10">
      <PageHeader
        title="Mes favoris"
        description={
          query.data && query.data.total > 0
            ? `${query.data.total} manuel${query.data.total > 1 ? 's' : ''} que vous suivez. Vous êtes prévenu s’ils sont réservés, vendus ou baissent de prix.`
            : 'Les manuels que vous suivez, sur tous vos appareils.'
        }
      />
      {query.isError ? (
        <LoadFailed title="Impossible de charger vos favoris." query={query} />
      ) : query.data && query.data.data.length === 0 ? (
        <EmptyState
          icon={<HeartIcon size={26} />}
          title="Aucun favori pour le moment"
          description="Touchez le cœur d’une annonce pour la retrouver ici et être prévenu de ses changements."
          action={
            <Link to="/books" className={buttonClasses('primary')}>
              Parcourir les manuels
            </Link>
          }
        />
      ) : (
        <>
          <BookGrid books={query.data?.data as Book[] | undefined} loading={query.isPending} count={4} />
          {query.data && query.data.last_page > 1 ? (
            <Pagination
              className="mt-8"
              page={page}
              lastPage={query.data.last_page}
              onPage={(next) => setParams({ page: String(next) })}
            />
          ) : null}
        </>
      )}
    </Container>
  );
}
