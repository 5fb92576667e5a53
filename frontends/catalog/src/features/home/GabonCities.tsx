import {
  Alert,
  Badge,
  Button,
  Card,
  EmptyState,
  errorMessage,
  MapPinIcon,
  RefreshIcon,
  Skeleton,
  useCountries,
} from '@cartable/ui';
import { type City, DEFAULT_PROVINCE, GABON_ID, gabonProvinces, useGabonCities } from '../../shared/cities';
import { messages } from '../../shared/messages';

const HOME_ERROR = messages.homeError;

/** "Villes du Gabon": where sellers are, province by province (home page). */
export function GabonCities() {
  const cities = useGabonCities();
  const countries = useCountries();

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
  const provinces = gabonProvinces(cities);
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
