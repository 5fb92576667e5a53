import {
  Alert,
  Badge,
  Button,
  Card,
  CardBody,
  CardHeader,
  CardTitle,
  currentUserQuery,
  errorMessage,
  GlobeIcon,
  initials,
  PageHeader,
  RefreshIcon,
  Skeleton,
  useCountries,
  useDocumentTitle,
  useSession,
} from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { LOAD_ERROR } from '../../shared/messages';
import { visibleMenu } from '../layout';

function RetryButton({ onClick, loading }: { onClick: () => void; loading: boolean }) {
  return (
    <Button variant="outline" size="sm" onClick={onClick} loading={loading} leftIcon={<RefreshIcon size={16} />}>
      Réessayer
    </Button>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5 py-2 sm:flex-row sm:gap-4">
      <dt className="w-40 shrink-0 text-sm text-slate-500">{label}</dt>
      <dd className="min-w-0 text-sm font-medium break-words text-slate-900">{children}</dd>
    </div>
  );
}

function IdentityCard() {
  const { token } = useSession();
  const query = useQuery(currentUserQuery(token));
  const user = query.data?.user;
  return (
    <Card className="lg:col-span-2">
      <CardHeader>
        <CardTitle>Votre compte</CardTitle>
      </CardHeader>
      <CardBody>
        {query.isError ? (
          <Alert
            tone="error"
            title={LOAD_ERROR}
            action={<RetryButton onClick={() => void query.refetch()} loading={query.isFetching} />}
          >
            {errorMessage(query.error, 'Votre profil n’a pas pu être chargé.')}
          </Alert>
        ) : !user ? (
          <div className="space-y-3" data-testid="identity-loading">
            <Skeleton className="h-12 w-12 rounded-full" />
            <Skeleton className="h-4 w-2/3" />
            <Skeleton className="h-4 w-1/2" />
          </div>
        ) : (
          <div className="flex flex-col gap-4 sm:flex-row">
            <span className="flex h-14 w-14 shrink-0 items-center justify-center rounded-full bg-primary-100 text-lg font-bold text-primary-800">
              {initials(user.name, 'AD')}
            </span>
            <dl className="min-w-0 flex-1 divide-y divide-slate-100">
              <Row label="Nom">{user.name}</Row>
              <Row label="Adresse email">{user.email}</Row>
              <Row label="Pseudonyme">@{user.username}</Row>
              <Row label="Rôles">
                <span className="flex flex-wrap gap-1">
                  {user.is_admin && !user.roles.some((role) => role.slug === 'admin') ? (
                    <Badge tone="success">Administrateur</Badge>
                  ) : null}
                  {user.roles.map((role) => (
                    <Badge key={role.slug} tone="ocean">
                      {role.name}
                    </Badge>
                  ))}
                  {!user.is_admin && user.roles.length === 0 ? '—' : null}
                </span>
              </Row>
            </dl>
          </div>
        )}
      </CardBody>
    </Card>
  );
}

function CountriesCard() {
  // The shared query of libs/ui: the shell and the catalogue read the same cache.
  const query = useCountries();
  const count = query.data ? query.data.length : null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Pays référencés</CardTitle>
      </CardHeader>
      <CardBody>
        {query.isError ? (
          <Alert
            tone="error"
            title={LOAD_ERROR}
            action={<RetryButton onClick={() => void query.refetch()} loading={query.isFetching} />}
          />
        ) : count === null ? (
          <Skeleton className="h-10 w-24" />
        ) : (
          <div className="flex items-center gap-4">
            <span className="flex h-12 w-12 items-center justify-center rounded-full bg-ocean-100 text-ocean-700">
              <GlobeIcon size={24} />
            </span>
            <div>
              <p className="text-3xl font-bold text-slate-900" data-testid="countries-count">
                {count.toLocaleString('fr-FR')}
              </p>
              <p className="text-sm text-slate-500">pays dans la base de localisation</p>
            </div>
          </div>
        )}
      </CardBody>
    </Card>
  );
}

export default function DashboardPage() {
  useDocumentTitle('Tableau de bord · Administration');
  const { user } = useSession();
  const shortcuts = visibleMenu(user).filter((entry) => entry.path !== 'dashboard');
  return (
    <>
      <PageHeader title="Tableau de bord" description="Vue d’ensemble du back-office Cartable." />
      <div className="grid gap-4 lg:grid-cols-3">
        <IdentityCard />
        <CountriesCard />
      </div>
      <section aria-labelledby="raccourcis" className="mt-8">
        <h2 id="raccourcis" className="text-lg font-semibold text-slate-900">
          Accès rapides
        </h2>
        <ul className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-3">
          {shortcuts.map(({ path, label, Icon }) => (
            <li key={path}>
              <Link
                to={`/admin/${path}`}
                className="flex h-full items-center gap-3 rounded-xl border border-slate-200 bg-white p-4 text-sm font-medium text-slate-800 shadow-sm hover:border-primary-300 hover:text-primary-800"
              >
                <Icon size={18} className="text-primary-700" />
                {label}
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
