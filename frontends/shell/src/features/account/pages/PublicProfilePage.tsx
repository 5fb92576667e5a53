import {
  Alert,
  ApiError,
  Avatar,
  Button,
  buttonClasses,
  CalendarIcon,
  Card,
  CardBody,
  Container,
  EmptyState,
  errorMessage,
  formatDate,
  MailIcon,
  MapPinIcon,
  PageSpinner,
  PhoneIcon,
  RefreshIcon,
  UserIcon,
  useCities,
  useCountries,
  useDocumentTitle,
  useSession,
} from '@cartable/ui';
import { Link, useParams } from '@cartable/ui/router';
import { usePublicProfile } from '../api/public-profile';

/** /profile/{userId}: a member as others see them (e.g. from a comment's author link). */
export default function PublicProfilePage() {
  const { userId = '' } = useParams();
  const { user: me } = useSession();
  const query = usePublicProfile(userId);
  useDocumentTitle(query.data ? query.data.name : 'Profil');

  if (query.isPending) return <PageSpinner label="Chargement du profil…" />;

  if (query.isError) {
    const notFound = query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 422);
    return (
      <Container className="max-w-2xl py-10 sm:py-16">
        {notFound ? (
          <EmptyState
            icon={<UserIcon size={26} />}
            tone="warning"
            title="Profil introuvable"
            description="Ce membre n'existe pas ou a supprimé son compte."
            action={
              <Link to="/books" className={buttonClasses('primary')}>
                Parcourir les manuels
              </Link>
            }
          />
        ) : (
          <Alert
            tone="error"
            title="Impossible de charger ce profil."
            action={
              <Button size="sm" variant="outline" leftIcon={<RefreshIcon size={16} />} onClick={() => query.refetch()}>
                Réessayer
              </Button>
            }
          >
            {errorMessage(query.error, 'Vérifiez votre connexion puis réessayez.')}
          </Alert>
        )}
      </Container>
    );
  }

  const member = query.data;
  return (
    <Container className="max-w-2xl py-8 sm:py-12">
      <Card className="overflow-hidden">
        <div className="h-24 bg-gradient-to-r from-primary-600 via-accent-400 to-ocean-500 sm:h-28" />
        <CardBody className="-mt-14 space-y-5">
          <div className="flex flex-col items-center gap-3 text-center sm:flex-row sm:items-end sm:text-left">
            <Avatar
              name={member.name}
              image={member.profile_image}
              alt={member.name}
              size={null}
              className="h-24 w-24 text-2xl shadow ring-4 ring-white"
            />
            <div className="min-w-0 flex-1 sm:pb-1">
              <h1 className="text-2xl font-bold break-words text-slate-900">{member.name}</h1>
              <p className="text-sm text-slate-600">@{member.username}</p>
            </div>
            {me?.id === member.id ? (
              <Link to="/profile" className={buttonClasses('outline', 'sm')}>
                Modifier mon profil
              </Link>
            ) : null}
          </div>
          <ul className="flex flex-wrap justify-center gap-x-5 gap-y-2 text-sm text-slate-600 sm:justify-start">
            <Place countryId={member.country_id} cityId={member.city_id} />
            <li className="flex items-center gap-1.5">
              <CalendarIcon size={16} />
              Membre depuis le {formatDate(member.created_at)}
            </li>
          </ul>
          <section aria-labelledby="a-propos">
            <h2 id="a-propos" className="text-sm font-semibold tracking-wide text-slate-500 uppercase">
              À propos
            </h2>
            <p className="mt-2 text-sm whitespace-pre-line text-slate-800">
              {member.bio?.trim() ? member.bio : "Ce membre n'a pas encore rédigé de présentation."}
            </p>
          </section>
          {member.email || member.phone ? (
            <section aria-labelledby="contact" className="space-y-2">
              <h2 id="contact" className="text-sm font-semibold tracking-wide text-slate-500 uppercase">
                Contact
              </h2>
              <ul className="space-y-2 text-sm">
                {member.email ? (
                  <li>
                    <a
                      href={`mailto:${member.email}`}
                      className="flex items-center gap-2 wrap-anywhere text-ocean-700 hover:underline"
                    >
                      <MailIcon size={16} />
                      {member.email}
                    </a>
                  </li>
                ) : null}
                {member.phone ? (
                  <li>
                    <a
                      href={`tel:${member.phone.replace(/[^\d+]/g, '')}`}
                      className="flex items-center gap-2 text-ocean-700 hover:underline"
                    >
                      <PhoneIcon size={16} />
                      {member.phone}
                    </a>
                  </li>
                ) : null}
              </ul>
            </section>
          ) : null}
        </CardBody>
      </Card>
    </Container>
  );
}

/** "Libreville, Gabon" from the cached reference lists. */
function Place({ countryId, cityId }: { countryId: number | null; cityId: number | null }) {
  const countries = useCountries();
  const cities = useCities(countryId);
  const city = cities.data?.find((entry) => entry.id === cityId)?.name;
  const country = countries.data?.find((entry) => entry.id === countryId)?.nom_fr_fr;
  const label = [city, country].filter(Boolean).join(', ');
  if (!label) return null;
  return (
    <li className="flex items-center gap-1.5">
      <MapPinIcon size={16} />
      {label}
    </li>
  );
}
