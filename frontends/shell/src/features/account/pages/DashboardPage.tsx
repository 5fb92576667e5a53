import {
  Alert,
  BookIcon,
  Button,
  buttonClasses,
  Card,
  CardBody,
  CardHeader,
  CheckCircleIcon,
  ClockIcon,
  Container,
  canEnterBackOffice,
  formatBytes,
  formatDataCost,
  formatDateTime,
  formatNumber,
  HandshakeIcon,
  InboxIcon,
  initials,
  MessageIcon,
  PlusIcon,
  profileImageUrl,
  ReceiptIcon,
  RefreshIcon,
  SchoolYearCard,
  ShieldIcon,
  Skeleton,
  StarIcon,
  UserIcon,
  useDataSaver,
  useDataUsage,
  useDocumentTitle,
  useSession,
} from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import { useQuery } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { pendingDealsQuery } from '../../../shared/deals';
import { type UserStats, useRecentActivity, useStats } from '../api/dashboard';

interface Shortcut {
  to: string;
  title: string;
  text: string;
  Icon: ComponentType<{ size?: number }>;
}

const SHORTCUTS: Shortcut[] = [
  { to: '/books/add', title: 'Ajouter un manuel', text: 'Vendez, échangez ou donnez un livre.', Icon: PlusIcon },
  { to: '/my-books', title: 'Mes manuels', text: 'Gérez vos annonces en cours.', Icon: BookIcon },
  { to: '/messages', title: 'Messages', text: 'Discutez avec acheteurs et vendeurs.', Icon: MessageIcon },
  { to: '/profile', title: 'Mon profil', text: 'Vos informations et préférences.', Icon: UserIcon },
  { to: '/transactions', title: 'Transactions', text: 'Vos ventes et achats conclus.', Icon: HandshakeIcon },
  { to: '/my-ratings', title: 'Mes évaluations', text: 'Les avis reçus et donnés.', Icon: StarIcon },
  { to: '/my-subscriptions', title: 'Mes abonnements', text: 'Vos mises en avant et reçus.', Icon: ReceiptIcon },
];

export const STAT_LABELS: Array<[keyof UserStats, string]> = [
  ['books_total', 'Manuels publiés'],
  ['books_available', 'Manuels disponibles'],
  ['books_sold', 'Manuels vendus'],
  ['conversations', 'Conversations'],
  ['messages_received', 'Messages reçus'],
  ['comments', 'Commentaires'],
];

export default function DashboardPage() {
  useDocumentTitle('Tableau de bord');
  const { user } = useSession();
  const shortcuts = canEnterBackOffice(user)
    ? [...SHORTCUTS, { to: '/admin', title: 'Administration', text: 'Accéder au back-office.', Icon: ShieldIcon }]
    : SHORTCUTS;
  const avatar = profileImageUrl(user?.profile_image);

  return (
    <Container className="space-y-8 py-8 sm:py-12">
      <Card className="overflow-hidden">
        <div className="flex flex-col gap-4 bg-gradient-to-br from-primary-700 to-primary-900 p-5 text-white sm:flex-row sm:items-center sm:p-6">
          <span className="flex h-16 w-16 shrink-0 items-center justify-center overflow-hidden rounded-full bg-white/15 text-xl font-bold ring-2 ring-white/40">
            {avatar ? <img src={avatar} alt="" className="h-full w-full object-cover" /> : initials(user?.name, '?')}
          </span>
          <div className="min-w-0 flex-1">
            <h1 className="text-2xl font-bold sm:text-3xl">Bonjour, {user?.name ?? ''} !</h1>
            <p className="mt-1 text-sm text-primary-50">
              Bienvenue sur votre tableau de bord Cartable : vos annonces, vos échanges et votre activité.
            </p>
          </div>
          <Link
            to="/books/add"
            className="inline-flex h-11 items-center justify-center gap-2 rounded-lg bg-accent-400 px-4 text-sm font-semibold text-slate-900 hover:bg-accent-300"
          >
            <PlusIcon size={18} />
            Ajouter un manuel
          </Link>
        </div>
      </Card>

      <PendingDeals />

      <SchoolYearCard>
        {(season) =>
          season === 'acheter' ? (
            <Link to="/ma-liste" className={buttonClasses('primary', 'sm')}>
              Compléter ma liste
            </Link>
          ) : (
            <>
              {season === 'vendre' ? (
                <Link to="/ma-liste/vendre" className={buttonClasses('primary', 'sm')}>
                  Vendre les manuels de l’an dernier
                </Link>
              ) : null}
              <Link to="/my-books" className={buttonClasses('outline', 'sm')}>
                Mes manuels
              </Link>
            </>
          )
        }
      </SchoolYearCard>

      <Stats />

      <MonthDataCost />

      <div className="grid gap-6 lg:grid-cols-[2fr_3fr]">
        <section aria-labelledby="raccourcis">
          <h2 id="raccourcis" className="mb-3 text-lg font-semibold text-slate-900">
            Accès rapides
          </h2>
          <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-1">
            {shortcuts.map(({ to, title, text, Icon }) => (
              <li key={to}>
                <Link to={to} className="block h-full rounded-xl focus-visible:outline-offset-4">
                  <Card className="h-full transition-shadow hover:shadow-md">
                    <CardBody className="flex items-start gap-4">
                      <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-lg bg-primary-50 text-primary-700">
                        <Icon size={22} />
                      </span>
                      <span>
                        <span className="block font-semibold text-slate-900">{title}</span>
                        <span className="mt-1 block text-sm text-slate-600">{text}</span>
                      </span>
                    </CardBody>
                  </Card>
                </Link>
              </li>
            ))}
          </ul>
        </section>
        <RecentActivity />
      </div>
    </Container>
  );
}

/** The deals awaiting the member's answer, with the way to /transactions (nothing when none). */
function PendingDeals() {
  const { user } = useSession();
  const { data: count = 0 } = useQuery(pendingDealsQuery(user?.id));
  if (count === 0) return null;
  return (
    <Alert
      tone="info"
      title={count > 1 ? `${count} transactions attendent votre réponse` : 'Une transaction attend votre réponse'}
      action={
        <Link
          to="/transactions?role=buyer&status=proposed"
          className="inline-flex h-9 items-center rounded-lg bg-primary-700 px-3 text-sm font-semibold text-white hover:bg-primary-800"
        >
          Voir
        </Link>
      }
    >
      <span data-testid="pending-deals">Un membre a conclu avec vous : confirmez ou refusez la transaction.</span>
    </Alert>
  );
}

function Stats() {
  const { user } = useSession();
  const query = useStats(user?.id);
  return (
    <section aria-labelledby="statistiques" aria-busy={query.isPending}>
      <h2 id="statistiques" className="mb-3 text-lg font-semibold text-slate-900">
        Vos statistiques
      </h2>
      {query.isError ? (
        <Alert
          tone="error"
          action={
            <Button size="sm" variant="outline" leftIcon={<RefreshIcon size={16} />} onClick={() => query.refetch()}>
              Réessayer
            </Button>
          }
        >
          Impossible de charger vos statistiques.
        </Alert>
      ) : (
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
          {STAT_LABELS.map(([key, label]) => (
            <div key={key} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
              <dt className="text-xs font-medium text-slate-600 sm:text-sm">{label}</dt>
              <dd className="mt-1 text-2xl font-bold text-slate-900 tabular-nums">
                {query.isPending ? <Skeleton className="h-8 w-12" /> : formatNumber(query.data?.[key] ?? 0)}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}

function RecentActivity() {
  const { user } = useSession();
  const query = useRecentActivity(user?.id);
  return (
    <section aria-labelledby="activite" aria-busy={query.isPending}>
      <Card className="h-full">
        <CardHeader>
          <h2 id="activite" className="text-lg font-semibold text-slate-900">
            Activité récente
          </h2>
        </CardHeader>
        <CardBody>
          {query.isPending ? (
            <ul className="space-y-4">
              {[0, 1, 2].map((index) => (
                <li key={index} className="flex gap-3">
                  <Skeleton className="h-9 w-9 rounded-full" />
                  <div className="flex-1 space-y-2">
                    <Skeleton className="h-4 w-3/4" />
                    <Skeleton className="h-3 w-1/3" />
                  </div>
                </li>
              ))}
            </ul>
          ) : query.isError ? (
            <Alert
              tone="error"
              action={
                <Button
                  size="sm"
                  variant="outline"
                  leftIcon={<RefreshIcon size={16} />}
                  onClick={() => query.refetch()}
                >
                  Réessayer
                </Button>
              }
            >
              Impossible de charger votre activité récente.
            </Alert>
          ) : query.data.length === 0 ? (
            <div className="flex flex-col items-center py-8 text-center">
              <span className="flex h-12 w-12 items-center justify-center rounded-full bg-slate-100 text-slate-500">
                <InboxIcon size={24} />
              </span>
              <p className="mt-3 font-medium text-slate-800">Aucune activité récente</p>
              <p className="mt-1 max-w-xs text-sm text-slate-600">
                Publiez un manuel : sa mise en ligne, sa vente ou son retrait apparaîtront ici.
              </p>
            </div>
          ) : (
            <ul className="divide-y divide-slate-100">
              {query.data.map((activity) => (
                <li key={activity.id} className="flex gap-3 py-3 first:pt-0 last:pb-0">
                  <span className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-primary-50 text-primary-700">
                    {activity.type.includes('message') ? (
                      <MessageIcon size={18} />
                    ) : activity.type.includes('book') ? (
                      <BookIcon size={18} />
                    ) : (
                      <CheckCircleIcon size={18} />
                    )}
                  </span>
                  <div className="min-w-0 flex-1">
                    {activity.link?.startsWith('/') ? (
                      <Link
                        to={activity.link}
                        className="font-medium text-slate-900 hover:text-primary-700 hover:underline"
                      >
                        {activity.title}
                      </Link>
                    ) : (
                      <p className="font-medium text-slate-900">{activity.title}</p>
                    )}
                    <p className="mt-0.5 flex items-center gap-1 text-xs text-slate-500">
                      <ClockIcon size={12} />
                      {formatDateTime(activity.occurred_at)}
                    </p>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </CardBody>
      </Card>
    </section>
  );
}

/** What Cartable cost in mobile data this month on this phone, at the member's price of a gigabyte. */
function MonthDataCost() {
  const { month } = useDataUsage();
  const { pricePerGb, enabled } = useDataSaver();
  return (
    <p className="text-sm text-slate-600" data-testid="month-data-cost">
      Données utilisées par Cartable ce mois-ci sur ce téléphone : {formatBytes(month)}, environ{' '}
      {formatDataCost(month, pricePerGb)} ·{' '}
      <Link to="/profile#donnees" className="font-medium text-primary-700 underline-offset-2 hover:underline">
        Économie de données {enabled ? 'activée' : 'désactivée'}
      </Link>
    </p>
  );
}
