import {
  Button,
  buttonClasses,
  Container,
  EmptyState,
  LoadFailed,
  SearchIcon,
  StarIcon,
  useDocumentTitle,
  useSession,
} from '@cartable/ui';
import { Link, useNavigate, useSearchParams } from '@cartable/ui/router';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { SponsoredBadge } from '../../entities/book/BookCard';
import { type Plan, plansQuery } from './api/subscriptions';
import { Checkout } from './Checkout';
import { PLAN_GRID, PlanCard, PlanCardSkeleton } from './PlanCard';

const FAQ: Array<[string, string]> = [
  [
    'Cartable prend-il une commission sur mes ventes ?',
    'Non. Les ventes, échanges et dons entre membres restent sans commission ni frais. Un abonnement ou une mise en avant achète seulement de la visibilité pour vos annonces.',
  ],
  [
    'Comment payer avec Airtel Money ou Moov Money ?',
    'Choisissez votre opérateur : Cartable vous affiche le numéro marchand, le montant et une référence. Envoyez l’argent depuis votre téléphone (menu Airtel Money ou Moov Money), puis recopiez la référence de transaction reçue par SMS dans « J’ai payé ». Un administrateur vérifie le paiement, en général dans la journée, et la mise en avant commence aussitôt.',
  ],
  [
    'Quand commence et quand finit la mise en avant ?',
    'Elle commence quand le paiement est confirmé et dure le nombre de jours du plan. Vous recevez un e-mail 3 jours avant la fin ; renouveler prolonge à partir de la date de fin. Si l’annonce est vendue ou supprimée, sa mise en avant s’arrête.',
  ],
  [
    'Puis-je être remboursé ?',
    'Oui, en cas d’erreur ou de problème : écrivez-nous depuis la page Contact avec la référence du paiement. Un remboursement, total ou partiel, met fin à l’abonnement ; vous êtes prévenu par e-mail.',
  ],
  [
    'Et si je vends l’annonce mise en avant ?',
    'Si l’annonce change de propriétaire par une transaction confirmée, vous pouvez transférer la mise en avant restante sur une autre de vos annonces depuis « Mes abonnements ».',
  ],
];

/** « Abonnement » (SPEC section 2, public): the plans, what boosting shows, the FAQ and the way in. */
export default function PlansPage() {
  useDocumentTitle('Abonnement');
  const { isAuthenticated } = useSession();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const plans = useQuery(plansQuery());
  const list = plans.data?.data ?? [];
  const members = list.filter((p) => p.kind === 'member');
  const boosts = list.filter((p) => p.kind === 'boost');
  const wanted = Number(params.get('plan')) || null;
  const [chosen, setChosen] = useState<Plan | null>(null);
  // Back from the login page with ?plan=ID: the checkout opens on that plan.
  const fromUrl = isAuthenticated && wanted ? (members.find((p) => p.id === wanted) ?? null) : null;
  const current = chosen ?? fromUrl;

  const choose = (plan: Plan) => {
    if (!isAuthenticated) {
      navigate('/login', { state: { from: { pathname: '/subscription', search: `?plan=${plan.id}` } } });
      return;
    }
    setChosen(plan);
  };
  const close = () => {
    setChosen(null);
    if (params.has('plan')) setParams({}, { replace: true });
  };

  const boostAction = (
    <Link
      to={isAuthenticated ? '/my-books' : '/login'}
      state={isAuthenticated ? undefined : { from: { pathname: '/my-books' } }}
      className={buttonClasses('outline', 'md', 'w-full')}
    >
      Choisir l’annonce à mettre en avant
    </Link>
  );

  return (
    <div className="pb-12">
      <section className="bg-linear-to-br from-primary-800 to-primary-700 py-8 text-white sm:py-12">
        <Container>
          <h1 className="text-2xl font-bold sm:text-4xl">Vendez plus vite vos manuels</h1>
          <p className="mt-2 max-w-2xl text-sm text-primary-50 sm:text-lg">
            Mettez vos annonces « À la une » : elles passent en tête, avec le badge « Sponsorisé ». Sans commission sur
            vos ventes, payé par Airtel Money ou Moov Money.
          </p>
        </Container>
      </section>

      <Container className="mt-8 space-y-12">
        <section aria-labelledby="plans-title">
          <h2 id="plans-title" className="text-xl font-bold text-slate-900 sm:text-2xl">
            Nos formules
          </h2>
          {plans.isError ? (
            <LoadFailed title="Les formules n’ont pas pu être chargées" query={plans} className="mt-4" />
          ) : plans.isPending ? (
            <div className={`${PLAN_GRID} mt-4`} data-testid="plans-loading">
              <span className="sr-only" role="status">
                Chargement des formules…
              </span>
              {[0, 1, 2].map((n) => (
                <PlanCardSkeleton key={n} />
              ))}
            </div>
          ) : list.length === 0 ? (
            <EmptyState
              className="mt-4"
              icon={<StarIcon size={26} />}
              title="Aucune formule pour le moment"
              description="Les formules d’abonnement arrivent bientôt. Publier et vendre restent gratuits."
            />
          ) : (
            <div className="mt-4 space-y-8">
              {boosts.length > 0 ? (
                <div>
                  <h3 className="text-base font-semibold text-slate-800">Mettre en avant une annonce</h3>
                  <p className="text-sm text-slate-600">Une annonce, pour quelques jours.</p>
                  <ul className={`${PLAN_GRID} mt-3`}>
                    {boosts.map((plan) => (
                      <li key={plan.id}>
                        <PlanCard plan={plan} action={boostAction} />
                      </li>
                    ))}
                  </ul>
                </div>
              ) : null}
              {members.length > 0 ? (
                <div>
                  <h3 className="text-base font-semibold text-slate-800">Abonnement vendeur</h3>
                  <p className="text-sm text-slate-600">Plusieurs annonces à la une, à changer quand vous voulez.</p>
                  <ul className={`${PLAN_GRID} mt-3`}>
                    {members.map((plan, index) => (
                      <li key={plan.id}>
                        <PlanCard
                          plan={plan}
                          highlighted={index === 0}
                          action={
                            <Button className="w-full" onClick={() => choose(plan)}>
                              Choisir {plan.name}
                            </Button>
                          }
                        />
                      </li>
                    ))}
                  </ul>
                </div>
              ) : null}
            </div>
          )}
        </section>

        <section aria-labelledby="how-title" className="grid gap-6 lg:grid-cols-2 lg:items-center">
          <div>
            <h2 id="how-title" className="text-xl font-bold text-slate-900 sm:text-2xl">
              Comment votre annonce est mise en avant
            </h2>
            <ol className="mt-4 space-y-3 text-sm text-slate-800 sm:text-base">
              <li className="flex gap-3">
                <StarIcon size={20} className="mt-0.5 shrink-0 text-accent-500" />
                <span>
                  <strong>« À la une » sur l’accueil</strong> : la section vue en premier par les parents.
                </span>
              </li>
              <li className="flex gap-3">
                <SearchIcon size={20} className="mt-0.5 shrink-0 text-primary-700" />
                <span>
                  <strong>En tête des recherches</strong> qui correspondent à votre manuel (classe, matière, ville), au
                  plus deux annonces sponsorisées par page.
                </span>
              </li>
              <li className="flex gap-3">
                <SponsoredBadge className="mt-0.5 shrink-0 self-start" />
                <span>Un badge visible : les acheteurs savent que l’annonce est mise en avant.</span>
              </li>
            </ol>
            <p className="mt-4 text-sm text-slate-600">
              Pour mettre en avant une annonce, ouvrez-la depuis{' '}
              <Link to="/my-books" className="font-semibold text-primary-800 underline underline-offset-2">
                Mes manuels
              </Link>{' '}
              et touchez « Mettre en avant ».
            </p>
          </div>
          <figure
            aria-label="Exemple d’annonce sponsorisée"
            className="mx-auto w-full max-w-xs rounded-xl border border-slate-200 bg-white p-3 shadow-sm"
          >
            <div className="flex gap-3">
              <div className="h-24 w-18 shrink-0 rounded-lg bg-linear-to-br from-primary-100 to-ocean-100" />
              <div className="min-w-0">
                <SponsoredBadge />
                <p className="mt-1 font-semibold text-slate-900">Mathématiques 3e — CIAM</p>
                <p className="text-sm font-bold text-primary-800">4 500 F CFA</p>
                <p className="text-xs text-slate-500">Libreville</p>
              </div>
            </div>
          </figure>
        </section>

        <section aria-labelledby="faq-title">
          <h2 id="faq-title" className="text-xl font-bold text-slate-900 sm:text-2xl">
            Questions fréquentes
          </h2>
          <div className="mt-4 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
            {FAQ.map(([question, answer]) => (
              <details key={question} className="group">
                <summary className="flex min-h-11 cursor-pointer items-center px-4 py-3 font-medium text-slate-900 hover:bg-slate-50">
                  {question}
                </summary>
                <p className="px-4 pb-4 text-sm text-slate-700">{answer}</p>
              </details>
            ))}
          </div>
        </section>
      </Container>

      {current ? <Checkout open onClose={close} plan={current} /> : null}
    </div>
  );
}
