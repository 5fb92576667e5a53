import { buttonClasses, Container, EmptyState, LoadFailed, PageHeader, Skeleton, useDocumentTitle } from '@cartable/ui';
import { Link, useSearchParams } from '@cartable/ui/router';
import { useQuery } from '@tanstack/react-query';
import { listDetailQuery } from './api/class-lists';
import { SellForm } from './sell/SellForm';

/**
 * « Vendre ma liste » (/ma-liste/vendre?list=ID): a family whose child finished
 * a class picks the books of its list they have and publishes them at once, either
 * - one listing per book, each with its condition, price (0 = a gift), exchange and an optional
 *   photo: POST /books each, one after the other on a slow connection, each with its progress and
 *   its error; a failed one is retried alone with its own Idempotency-Key, so no book is listed
 *   twice; or
 * - one lot: a single listing holding the picked books (POST /books with `lot_items`), with one
 *   condition, price and photo, found in the catalogue and in « Ma liste » by each of its books.
 */
export default function SellListPage() {
  useDocumentTitle('Vendre ma liste');
  const [params] = useSearchParams();
  const listId = Number(params.get('list')) || null;
  const list = useQuery({ ...listDetailQuery(listId ?? 0), enabled: listId !== null });

  return (
    <Container className="max-w-3xl py-5 sm:py-8">
      <PageHeader
        title="Vendre ma liste"
        description="Votre enfant a fini sa classe ? Publiez en une fois les manuels de sa liste : une annonce par manuel, ou un seul lot."
      />
      {!listId ? (
        <EmptyState
          title="Choisissez d’abord la liste"
          description="Ouvrez la liste de la classe que votre enfant a terminée, puis « Vendre ma liste »."
          action={
            <Link to="/ma-liste" className={buttonClasses('primary')}>
              Ma liste
            </Link>
          }
        />
      ) : list.isError && !list.data ? (
        <LoadFailed title="La liste n’a pas pu être chargée" query={list} />
      ) : !list.data ? (
        <div className="space-y-3" aria-busy="true">
          <span className="sr-only" role="status">
            Chargement de la liste…
          </span>
          <Skeleton className="h-24 w-full rounded-xl" />
          {[0, 1, 2].map((n) => (
            <Skeleton key={n} className="h-20 w-full rounded-xl" />
          ))}
        </div>
      ) : list.data.items.length === 0 ? (
        <EmptyState title="Cette liste ne compte encore aucun manuel" />
      ) : (
        <SellForm list={list.data} />
      )}
    </Container>
  );
}
