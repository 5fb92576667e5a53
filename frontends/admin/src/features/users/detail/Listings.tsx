import { Alert, Badge, Card, CardBody, CardHeader, CardTitle, errorMessage, formatPrice, Skeleton } from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import { useUserBooks } from '../api/users';
import { Retry } from './CardParts';

/** The member's listings, each with its price and its status. */
export function Listings({ userId }: { userId: string }) {
  const books = useUserBooks(userId);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Annonces</CardTitle>
      </CardHeader>
      <CardBody>
        {books.isError ? (
          <Alert
            tone="error"
            title="Erreur lors du chargement des manuels"
            action={<Retry onRetry={() => void books.refetch()} loading={books.isFetching} />}
          >
            {errorMessage(books.error, 'Les annonces de ce membre n’ont pas pu être chargées.')}
          </Alert>
        ) : !books.data ? (
          <Skeleton className="h-20 w-full" />
        ) : books.data.data.length === 0 ? (
          <p className="text-sm text-slate-500">Aucune annonce.</p>
        ) : (
          <ul className="divide-y divide-slate-100" aria-label="Annonces du membre">
            {books.data.data.map((book) => (
              <li key={book.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                <Link to={`/books/${book.id}`} className="min-w-0 font-medium text-primary-700 hover:underline">
                  {book.title}
                </Link>
                <span className="flex items-center gap-2 text-slate-600">
                  {formatPrice(book.price, { zeroLabel: 'Don' })} <Badge>{book.status_label}</Badge>
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardBody>
    </Card>
  );
}
