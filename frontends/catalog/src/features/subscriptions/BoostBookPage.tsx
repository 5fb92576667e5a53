import {
  Alert,
  ApiError,
  Button,
  buttonClasses,
  Container,
  EmptyState,
  LoadFailed,
  PageHeader,
  Skeleton,
  StarIcon,
  useDocumentTitle,
  useSession,
} from '@cartable/ui';
import { Link, useParams } from '@cartable/ui/router';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { BookCover, Price } from '../../entities/book/BookCard';
import { useBook } from '../../shared/api/books';
import { sameId, statusLabel } from '../../shared/books';
import { type Plan, plansQuery } from './api/subscriptions';
import { Checkout } from './Checkout';
import { PLAN_GRID, PlanCard, PlanCardSkeleton } from './PlanCard';

/** « Mettre en avant mon annonce » (/books/{bookId}/subscription, owner only): the listing, the boosts, checkout. */
export default function BoostBookPage() {
  useDocumentTitle('Mettre en avant mon annonce');
  const { bookId = '' } = useParams();
  const { user } = useSession();
  const book = useBook(bookId);
  const plans = useQuery(plansQuery());
  const boosts = (plans.data?.data ?? []).filter((p) => p.kind === 'boost');
  const [chosen, setChosen] = useState<Plan | null>(null);

  const header = (
    <PageHeader
      title="Mettre en avant mon annonce"
      description="Votre annonce « À la une » sur l’accueil et en tête des recherches, avec le badge « Sponsorisé »."
    />
  );

  if (book.isError) {
    const gone = book.error instanceof ApiError && book.error.status === 404;
    return (
      <Container className="py-8">
        {header}
        {gone ? (
          <EmptyState
            title="Annonce introuvable"
            description="Cette annonce n’existe plus."
            action={
              <Link to="/my-books" className={buttonClasses('primary')}>
                Mes manuels
              </Link>
            }
          />
        ) : (
          <LoadFailed title="L’annonce n’a pas pu être chargée" query={book} />
        )}
      </Container>
    );
  }

  const data = book.data;
  const owner = data ? sameId(user?.id, data.user_id) : true;
  const available = data?.status === 'disponible' && !data.hidden;

  return (
    <Container className="py-8">
      {header}
      <section aria-label="Annonce à mettre en avant" className="mb-8">
        {data ? (
          <div
            className="flex gap-3 rounded-xl border border-slate-200 bg-white p-3 shadow-sm"
            data-testid="boost-book"
          >
            <BookCover src={data.thumbnail} alt="" className="h-28 w-21 shrink-0 rounded-lg" eager />
            <div className="min-w-0">
              <p className="font-semibold text-slate-900">
                <Link to={`/books/${data.id}`} className="hover:underline">
                  {data.title}
                </Link>
              </p>
              <p className="truncate text-sm text-slate-600">{data.author}</p>
              <Price value={data.price} />
              <p className="text-xs text-slate-500">{statusLabel(data.status)}</p>
            </div>
          </div>
        ) : (
          <div className="flex h-[8.5rem] gap-3 rounded-xl border border-slate-200 bg-white p-3" aria-busy="true">
            <Skeleton className="h-28 w-21 shrink-0" />
            <div className="flex-1 space-y-2">
              <Skeleton className="h-5 w-3/4" />
              <Skeleton className="h-4 w-1/2" />
              <Skeleton className="h-5 w-24" />
            </div>
          </div>
        )}
      </section>

      {data && !owner ? (
        <Alert tone="error" title="Seul le propriétaire de l’annonce peut la mettre en avant." />
      ) : data && !available ? (
        <Alert tone="info" title="Seule une annonce disponible peut être mise en avant.">
          Repassez-la en « Disponible » depuis{' '}
          <Link to="/my-books" className="underline">
            Mes manuels
          </Link>
          .
        </Alert>
      ) : (
        <section aria-labelledby="boost-plans">
          <h2 id="boost-plans" className="text-lg font-bold text-slate-900">
            Choisissez la durée
          </h2>
          {plans.isError ? (
            <div className="mt-3">
              <LoadFailed title="Les formules n’ont pas pu être chargées" query={plans} />
            </div>
          ) : plans.isPending ? (
            <div className={`${PLAN_GRID} mt-3`}>
              {[0, 1].map((n) => (
                <PlanCardSkeleton key={n} />
              ))}
            </div>
          ) : boosts.length === 0 ? (
            <EmptyState
              className="mt-3"
              icon={<StarIcon size={26} />}
              title="Aucune mise en avant proposée pour le moment"
              description={
                <>
                  Voyez les{' '}
                  <Link to="/subscription" className="underline">
                    abonnements vendeur
                  </Link>
                  .
                </>
              }
            />
          ) : (
            <ul className={`${PLAN_GRID} mt-3`}>
              {boosts.map((plan) => (
                <li key={plan.id}>
                  <PlanCard
                    plan={plan}
                    action={
                      <Button className="w-full" disabled={!data} onClick={() => setChosen(plan)}>
                        Mettre en avant {plan.duration_days} jours
                      </Button>
                    }
                  />
                </li>
              ))}
            </ul>
          )}
          <p className="mt-4 text-sm text-slate-600">
            Vous avez un abonnement vendeur actif ? Choisissez ses annonces depuis{' '}
            <Link to="/my-subscriptions" className="font-semibold text-primary-800 underline">
              Mes abonnements
            </Link>
            .
          </p>
        </section>
      )}

      {chosen && data ? (
        <Checkout open onClose={() => setChosen(null)} plan={chosen} book={{ id: data.id, title: data.title }} />
      ) : null}
    </Container>
  );
}
