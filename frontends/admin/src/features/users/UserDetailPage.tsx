import {
  Alert,
  ApiError,
  ChevronLeftIcon,
  errorMessage,
  formatDateTime,
  isAdminUser,
  PageHeader,
  Skeleton,
  useDocumentTitle,
  useSession,
} from '@cartable/ui';
import { Link, useParams } from '@cartable/ui/router';
import { LOAD_ERROR } from '../../shared/messages';
import { useUserDetail } from './api/users';
import { AccountActions } from './detail/AccountActions';
import { Activity } from './detail/Activity';
import { AuditLog } from './detail/AuditLog';
import { Retry } from './detail/CardParts';
import { IdentityCard } from './detail/IdentityCard';
import { Listings } from './detail/Listings';
import { Rights } from './detail/Rights';
import { UserBadges } from './UserBadges';

/** A member in the back office: identity, listings, activity, rights, access and their trail. */
export default function UserDetailPage() {
  const { id = '' } = useParams();
  const { user: me } = useSession();
  const detail = useUserDetail(id);
  useDocumentTitle(detail.data ? `${detail.data.user.name} · Utilisateurs` : 'Utilisateur · Administration');

  const back = (
    <Link
      to="/admin/users"
      className="mb-3 inline-flex items-center gap-1 text-sm font-medium text-primary-700 hover:underline"
    >
      <ChevronLeftIcon size={16} /> Utilisateurs
    </Link>
  );

  if (detail.isError) {
    const missing = detail.error instanceof ApiError && detail.error.status === 404;
    return (
      <>
        {back}
        {/* The page's heading for screen readers: the alert is all the page says. */}
        <h1 className="sr-only">{missing ? 'Utilisateur introuvable' : LOAD_ERROR}</h1>
        <Alert
          tone="error"
          title={missing ? 'Utilisateur introuvable' : LOAD_ERROR}
          action={missing ? undefined : <Retry onRetry={() => void detail.refetch()} loading={detail.isFetching} />}
        >
          {missing ? 'Ce compte a peut-être été supprimé.' : errorMessage(detail.error, '')}
        </Alert>
      </>
    );
  }
  if (!detail.data) {
    return (
      <>
        {back}
        <div className="space-y-4" data-testid="user-loading">
          <Skeleton className="h-9 w-2/3" />
          <Skeleton className="h-48 w-full" />
        </div>
      </>
    );
  }

  const data = detail.data;
  const user = data.user;

  return (
    <>
      {back}
      <PageHeader
        title={user.name}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <span className="break-all">{user.email}</span> <UserBadges user={user} />
          </span>
        }
        actions={<AccountActions user={user} />}
      />

      {user.deactivated_at ? (
        <Alert tone="error" title={`Compte désactivé le ${formatDateTime(user.deactivated_at)}`} className="mb-4">
          Motif : {user.deactivation_reason ?? '—'}. Le membre ne peut plus se connecter et ses annonces sont masquées
          du catalogue.
        </Alert>
      ) : null}

      <div className="grid gap-4 lg:grid-cols-2">
        <div className="min-w-0 space-y-4">
          <IdentityCard user={user} />
          <Listings userId={user.id} />
          <Activity detail={data} />
        </div>
        <div className="min-w-0 space-y-4">
          <Rights detail={data} canEdit={isAdminUser(me)} />
          <AuditLog detail={data} />
        </div>
      </div>
    </>
  );
}
