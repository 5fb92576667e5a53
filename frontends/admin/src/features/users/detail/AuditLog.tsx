import {
  Alert,
  Button,
  Card,
  CardBody,
  CardHeader,
  CardTitle,
  errorMessage,
  formatDateTime,
  hasPermission,
  useSession,
} from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import { useRoles } from '../../../entities/role/api/roles';
import { LOAD_ERROR } from '../../../shared/messages';
import { type AdminUserDetail, useUserAudit } from '../api/users';
import { describeAudit } from '../audit-labels';
import { Retry } from './CardParts';

/** What administrators did to this account, newest first, page after page. */
export function AuditLog({ detail }: { detail: AdminUserDetail }) {
  const audit = useUserAudit(detail.user.id, detail.audit);
  const entries = audit.data ? audit.data.pages.flatMap((p) => p.data) : detail.audit.data;
  const { user } = useSession();
  const roles = useRoles(hasPermission('roles.view', user));
  const roleName = (slug: string) => roles.data?.find((role) => role.slug === slug)?.name ?? slug;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Journal d’administration</CardTitle>
      </CardHeader>
      <CardBody>
        {audit.isError && !audit.data ? (
          <Alert
            tone="error"
            title={LOAD_ERROR}
            action={<Retry onRetry={() => void audit.refetch()} loading={audit.isFetching} />}
          >
            {errorMessage(audit.error, 'Le journal n’a pas pu être chargé.')}
          </Alert>
        ) : entries.length === 0 ? (
          <p className="text-sm text-slate-500">Aucune action d’administration sur ce compte.</p>
        ) : (
          <ol className="space-y-3" aria-label="Journal d’administration" data-testid="audit-log">
            {entries.map((entry) => (
              <li key={entry.id} className="border-l-2 border-primary-200 pl-3 text-sm" data-testid="audit-entry">
                <p className="text-slate-900">{describeAudit(entry, roleName)}</p>
                <p className="text-xs text-slate-500">
                  {entry.actor ? (
                    <>
                      par{' '}
                      <Link to={`/admin/users/${entry.actor.id}`} className="text-primary-700 hover:underline">
                        {entry.actor.name}
                      </Link>
                    </>
                  ) : (
                    'par le système'
                  )}{' '}
                  · {formatDateTime(entry.created_at)}
                </p>
              </li>
            ))}
          </ol>
        )}
        {audit.hasNextPage ? (
          <Button
            className="mt-3"
            variant="outline"
            size="sm"
            loading={audit.isFetchingNextPage}
            onClick={() => void audit.fetchNextPage()}
          >
            Voir plus
          </Button>
        ) : null}
      </CardBody>
    </Card>
  );
}
