import {
  Alert,
  Badge,
  Button,
  buttonClasses,
  Card,
  Container,
  EmptyState,
  errorMessage,
  HandshakeIcon,
  MapPinIcon,
  MessageIcon,
  RefreshIcon,
  SearchIcon,
  Skeleton,
  SwapIcon,
  useDocumentTitle,
  useSession,
} from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import { useQuery } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import {
  type City,
  DEFAULT_PROVINCE,
  fetchCities,
  fetchCountries,
  GABON_ID,
  groupByProvince,
  locationKeys,
} from '../api';

const HOME_ERROR = 'Erreur lors du chargement des données';

interface Step {
  title: string;
  text: string;
  Icon: ComponentType<{ size?: number }>;
}

const STEPS: Step[] = [
  { title: 'Trouvez', text: 'Cherchez le manuel de votre classe, près de chez vous.', Icon: SearchIcon },
  { title: 'Contactez', text: 'Écrivez au vendeur depuis la messagerie Cartable.', Icon: MessageIcon },
  { title: 'Négociez', text: 'Mettez-vous d’accord sur le prix ou sur un échange.', Icon: HandshakeIcon },
  { title: 'Échangez', text: 'Retrouvez-vous pour remettre le livre, sans commission.', Icon: SwapIcon },
];

export default function HomePage() {
  useDocumentTitle(null);
  const { user, isAuthenticated } = useSession();
  return (
    <>
      <Hero sellTo={isAuthenticated ? '/books/add' : '/login'} />
      <Container className="space-y-12 py-10 sm:space-y-16 sm:py-14">
        {isAuthenticated && user ? <WelcomeCard name={user.name} /> : null}
        <HowItWorks />
        <GabonCities />
      </Container>
    </>
  );
}

function Hero({ sellTo }: { sellTo: string }) {
  return (
    <section className="relative overflow-hidden bg-primary-800 text-white">
      <div
        aria-hidden="true"
        className="absolute inset-0 bg-[radial-gradient(circle_at_85%_15%,var(--color-primary-500),transparent_55%),radial-gradient(circle_at_10%_100%,var(--color-ocean-600),transparent_50%)] opacity-80"
      />
      <Container className="relative py-12 sm:py-20">
        <Badge tone="accent" className="mb-4">
          Du primaire au lycée · partout au Gabon
        </Badge>
        <h1 className="max-w-2xl text-3xl leading-tight font-extrabold tracking-tight sm:text-5xl">
          Manuels scolaires d'occasion au Gabon
        </h1>
        <p className="mt-4 max-w-xl text-base text-primary-50 sm:text-lg">
          Achetez, vendez, échangez ou donnez vos manuels, du primaire au lycée. Pas de frais, pas de commission : vous
          convenez directement avec l'autre famille.
        </p>
        <div className="mt-8 flex flex-col gap-3 sm:flex-row">
          <Link to="/books" className={buttonClasses('accent', 'lg')}>
            Parcourir les manuels
          </Link>
          <Link
            to={sellTo}
            className={buttonClasses(
              'outline',
              'lg',
              'border-white/60 bg-white/10 text-white hover:bg-white/20 active:bg-white/30',
            )}
          >
            Vendre un manuel
          </Link>
        </div>
      </Container>
      <BookStack />
      <div aria-hidden="true" className="relative flex h-1.5">
        <span className="flex-1 bg-primary-500" />
        <span className="flex-1 bg-accent-400" />
        <span className="flex-1 bg-ocean-500" />
      </div>
    </section>
  );
}

/** Decorative pile of textbooks beside the hero text on large screens (pure CSS, no image). */
const PILE = [
  { color: 'bg-accent-400', box: 'bottom-0 left-6 h-16 w-64' },
  { color: 'bg-ocean-500', box: 'bottom-16 left-1 h-14 w-60 -rotate-3' },
  { color: 'bg-white', box: 'bottom-[7.5rem] left-10 h-14 w-56 rotate-2' },
  { color: 'bg-primary-400', box: 'bottom-[11.25rem] left-4 h-12 w-52 -rotate-6' },
];

function BookStack() {
  return (
    <div
      aria-hidden="true"
      className="absolute top-1/2 right-10 hidden h-64 w-72 -translate-y-1/2 lg:block xl:right-24"
    >
      {PILE.map(({ color, box }) => (
        <div key={box} className={`absolute rounded-lg shadow-2xl ${color} ${box}`}>
          <span className="absolute inset-y-2 left-4 w-2 rounded bg-black/10" />
          <span className="absolute top-1/2 right-6 left-10 h-1.5 -translate-y-1/2 rounded bg-black/10" />
        </div>
      ))}
    </div>
  );
}

function WelcomeCard({ name }: { name: string }) {
  return (
    <Card className="flex flex-col gap-4 p-5 sm:flex-row sm:items-center sm:justify-between">
      <div>
        <p className="text-lg font-semibold text-slate-900">Bon retour, {name} !</p>
        <p className="text-sm text-slate-600">Gérez vos annonces et vos messages depuis votre tableau de bord.</p>
      </div>
      <div className="flex flex-wrap gap-2">
        <Link to="/dashboard" className={buttonClasses('primary')}>
          Tableau de bord
        </Link>
        <Link to="/books/add" className={buttonClasses('outline')}>
          Ajouter un manuel
        </Link>
      </div>
    </Card>
  );
}

function HowItWorks() {
  return (
    <section aria-labelledby="comment-ca-marche">
      <h2 id="comment-ca-marche" className="text-xl font-bold text-slate-900 sm:text-2xl">
        Comment ça marche ?
      </h2>
      <ol className="mt-5 grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        {STEPS.map(({ title, text, Icon }, index) => (
          <li key={title} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
            <span className="flex h-10 w-10 items-center justify-center rounded-full bg-accent-100 text-accent-800">
              <Icon size={20} />
            </span>
            <p className="mt-3 font-semibold text-slate-900">
              {index + 1}. {title}
            </p>
            <p className="mt-1 text-sm text-slate-600">{text}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}

function GabonCities() {
  const cities = useQuery({
    queryKey: locationKeys.cities(GABON_ID),
    queryFn: ({ signal }) => fetchCities(GABON_ID, signal),
    staleTime: 15 * 60_000,
  });
  const countries = useQuery({
    queryKey: locationKeys.countries,
    queryFn: ({ signal }) => fetchCountries(signal),
    staleTime: 15 * 60_000,
  });

  const country = countries.data?.find((entry) => entry.id === GABON_ID);
  const countryName = country?.nom_fr_fr ?? DEFAULT_PROVINCE;
  const failed = cities.error ?? countries.error;
  const list = cities.data;
  const retry = () => {
    if (cities.isError) void cities.refetch();
    if (countries.isError) void countries.refetch();
  };

  return (
    <section aria-labelledby="villes" aria-busy={cities.isPending || countries.isPending}>
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div>
          <h2 id="villes" className="text-xl font-bold text-slate-900 sm:text-2xl">
            Villes du Gabon
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            Des vendeurs près de chez vous, province par province. Les grandes villes sont mises en avant.
          </p>
        </div>
        {country ? (
          <Badge tone="primary" className="text-sm" data-testid="country">
            {countryName} · {country.alpha2}
          </Badge>
        ) : null}
      </div>

      <div className="mt-5">
        {failed ? (
          <Alert
            tone="error"
            title={HOME_ERROR}
            action={
              <Button
                variant="outline"
                size="sm"
                onClick={retry}
                loading={cities.isFetching || countries.isFetching}
                leftIcon={<RefreshIcon size={16} />}
              >
                Réessayer
              </Button>
            }
          >
            {errorMessage(failed, 'Les villes n’ont pas pu être chargées. Vérifiez votre connexion puis réessayez.')}
          </Alert>
        ) : list === undefined || countries.isPending ? (
          <CitiesSkeleton />
        ) : list.length === 0 ? (
          <EmptyState
            icon={<MapPinIcon size={26} />}
            title="Aucune ville pour le moment"
            description={`La liste des villes du ${countryName} n'est pas encore disponible.`}
          />
        ) : (
          <ProvinceGrid cities={list} />
        )}
      </div>
    </section>
  );
}

function ProvinceGrid({ cities }: { cities: City[] }) {
  const provinces = groupByProvince(cities);
  return (
    <ul className="grid gap-3 sm:grid-cols-2 sm:gap-4 lg:grid-cols-3">
      {provinces.map((province) => (
        <li key={province.name}>
          <Card className="h-full p-4">
            <h3 className="flex items-center justify-between gap-2 font-semibold text-slate-900">
              <span className="flex items-center gap-2">
                <MapPinIcon size={18} className="text-primary-600" />
                {province.name}
              </span>
              <span className="text-xs font-normal text-slate-500">
                {province.cities.length} {province.cities.length > 1 ? 'villes' : 'ville'}
              </span>
            </h3>
            <ul className="mt-3 flex flex-wrap gap-1.5">
              {province.cities.map((city) => (
                <li key={city.id}>
                  {city.is_major ? (
                    <Badge tone="success" title="Grande ville">
                      {city.name}
                    </Badge>
                  ) : (
                    <Badge>{city.name}</Badge>
                  )}
                </li>
              ))}
            </ul>
          </Card>
        </li>
      ))}
    </ul>
  );
}

function CitiesSkeleton() {
  return (
    <div className="grid gap-3 sm:grid-cols-2 sm:gap-4 lg:grid-cols-3" data-testid="cities-loading">
      <span className="sr-only" role="status">
        Chargement des villes…
      </span>
      {['a', 'b', 'c', 'd', 'e', 'f'].map((key) => (
        <div key={key} className="rounded-xl border border-slate-200 bg-white p-4">
          <Skeleton className="h-5 w-1/2" />
          <div className="mt-4 flex flex-wrap gap-2">
            <Skeleton className="h-5 w-20" />
            <Skeleton className="h-5 w-16" />
            <Skeleton className="h-5 w-24" />
          </div>
        </div>
      ))}
    </div>
  );
}
