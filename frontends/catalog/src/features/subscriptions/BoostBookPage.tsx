import {
  Alert,
  Button,
  buttonClasses,
  Container,
  EmptyState,
  formatDate,
  isNotFound,
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
import { mySubscriptionsQuery, type Plan, plansQuery, type Subscription } from './api/subscriptions';
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
  const [extending, setExtending] = useState<Subscription | null>(null);
  const data = book.data;
  const owner = data ? sameId(user?.id, data.user_id) : true;
  // A listing already « À la une »: the server would refuse a second boost (409), so the page says
  // what runs and until when, and offers to extend it, before any payment form.
  const active = useQuery({ ...mySubscriptionsQuery({ status: 'active', page: 1 }), enabled: Boolean(data && owner) });
  const running = data ? runningBoost(active.data?.data, data.id) : null;

  const header = (
    <PageHeader
      title="Mettre en avant mon annonce"
      description="Votre annonce « À la une » sur l’accueil et en tête des recherches, avec le badge « Sponsorisé »."
    />
  );

  if (book.isError) {
    const gone = isNotFound(book.error);
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
                <Link to={`/books/${data.id}`} className="tap-target hover:underline">
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
      ) : running ? (
        <RunningBoost {...running} onExtend={() => setExtending(running.subscription)} />
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
      {extending ? (
        <Checkout
          open
          onClose={() => setExtending(null)}
          plan={{ id: extending.plan_id, ...extending.plan }}
          renewOf={extending.id}
        />
      ) : null}
    </Container>
  );
}

type Running = { subscription: Subscription; endsAt: string };

/** The boost that puts this listing « À la une » now, if one of the member's active subscriptions does. */
function runningBoost(subscriptions: Subscription[] | undefined, bookId: number): Running | null {
  for (const subscription of subscriptions ?? []) {
    const boost = subscription.books.find((b) => b.book_id === bookId && !b.ended_at);
    if (boost) return { subscription, endsAt: boost.ends_at };
  }
  return null;
}

/** What runs, until when, and how to make it last: a boost is extended, a seller plan renewed. */
function RunningBoost({ subscription, endsAt, onExtend }: Running & { onExtend: () => void }) {
  const boost = subscription.plan.kind === 'boost';
  return (
    <section
      aria-labelledby="running-boost"
      className="rounded-xl border border-primary-200 bg-primary-50 p-4"
      data-testid="running-boost"
    >
      <h2 id="running-boost" className="flex items-center gap-2 font-semibold text-primary-900">
        <StarIcon size={18} filled /> Déjà « À la une » jusqu’au {formatDate(endsAt)}
      </h2>
      <p className="mt-1 text-sm text-primary-900">
        {boost
          ? `Par votre mise en avant « ${subscription.plan.name} ». Prolongez-la : les ${subscription.plan.duration_days} jours s’ajoutent à la fin de celle-ci.`
          : `Par votre abonnement « ${subscription.plan.name} ». Renouvelez-le pour la garder « À la une » plus longtemps.`}
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button onClick={onExtend}>
          {boost ? `Prolonger de ${subscription.plan.duration_days} jours` : 'Renouveler l’abonnement'}
        </Button>
        <Link to={`/subscription/details/${subscription.id}`} className={buttonClasses('outline')}>
          Voir l’abonnement
        </Link>
      </div>
    </section>
  );
}
