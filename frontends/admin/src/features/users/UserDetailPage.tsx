import { deactivateRequestSchema } from '@cartable/contracts';
import {
  Alert,
  ApiError,
  Badge,
  Button,
  Card,
  CardBody,
  CardHeader,
  CardTitle,
  Checkbox,
  ChevronLeftIcon,
  errorMessage,
  formatDate,
  formatDateTime,
  formatPrice,
  hasPermission,
  isAdminUser,
  MailIcon,
  notify,
  PageHeader,
  Skeleton,
  Textarea,
  useDocumentTitle,
  useSession,
} from '@cartable/ui';
import { ConfirmDialog, Dialog } from '@cartable/ui/overlays';
import { Link, useParams } from '@cartable/ui/router';
import { zodResolver } from '@hookform/resolvers/zod';
import { type ReactNode, useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { usePermissions, useRoles } from '../../entities/role/api/roles';
import { permissionLabel } from '../../entities/role/labels';
import { LOAD_ERROR } from '../../shared/messages';
import {
  type AdminUserDetail,
  type UserAction,
  useUserAction,
  useUserAudit,
  useUserBooks,
  useUserDetail,
} from './api/users';
import { describeAudit } from './audit-labels';
import { UserBadges } from './UserBadges';

const deactivateResolver = zodResolver(deactivateRequestSchema);

/** French fallbacks when the server says nothing (SPEC section 8 style). */
const FALLBACKS: Record<UserAction['kind'], string> = {
  promote: 'Erreur lors de la promotion',
  revoke: 'Erreur lors du retrait des droits',
  deactivate: 'Erreur lors de la désactivation du compte',
  reactivate: 'Erreur lors de la réactivation du compte',
  resend: "Erreur lors de l'envoi de l'email de vérification",
  roles: 'Erreur lors de la mise à jour des rôles',
  permissions: 'Erreur lors de la mise à jour des permissions',
};

function Retry({ onRetry, loading }: { onRetry: () => void; loading: boolean }) {
  return (
    <Button variant="outline" size="sm" onClick={onRetry} loading={loading}>
      Réessayer
    </Button>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium text-slate-500">{label}</dt>
      <dd className="text-sm break-words text-slate-900">{children}</dd>
    </div>
  );
}

function Listings({ userId }: { userId: string }) {
  const books = useUserBooks(userId);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Annonces</CardTitle>
      </CardHeader>
      <CardBody>
        {books.isError ? (
          <Alert
            tone="error"
            title="Erreur lors du chargement des manuels"
            action={<Retry onRetry={() => void books.refetch()} loading={books.isFetching} />}
          >
            {errorMessage(books.error, 'Les annonces de ce membre n’ont pas pu être chargées.')}
          </Alert>
        ) : !books.data ? (
          <Skeleton className="h-20 w-full" />
        ) : books.data.data.length === 0 ? (
          <p className="text-sm text-slate-500">Aucune annonce.</p>
        ) : (
          <ul className="divide-y divide-slate-100" aria-label="Annonces du membre">
            {books.data.data.map((book) => (
              <li key={book.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                <Link to={`/books/${book.id}`} className="min-w-0 font-medium text-primary-700 hover:underline">
                  {book.title}
                </Link>
                <span className="flex items-center gap-2 text-slate-600">
                  {formatPrice(book.price)} <Badge>{book.status_label}</Badge>
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardBody>
    </Card>
  );
}

function Activity({ detail }: { detail: AdminUserDetail }) {
  const s = detail.stats;
  const figures: Array<[string, number]> = [
    ['Annonces', s.books_total],
    ['Disponibles', s.books_available],
    ['Vendues', s.books_sold],
    ['Conversations', s.conversations],
    ['Messages reçus', s.messages_received],
    ['Commentaires', s.comments],
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Activité</CardTitle>
      </CardHeader>
      <CardBody className="space-y-4">
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
          {figures.map(([label, value]) => (
            <Field key={label} label={label}>
              <span className="text-lg font-semibold">{value.toLocaleString('fr-FR')}</span>
            </Field>
          ))}
        </dl>
        {detail.activities.length === 0 ? (
          <p className="text-sm text-slate-500">Aucune activité récente.</p>
        ) : (
          <ul className="space-y-1 text-sm" aria-label="Activité récente">
            {detail.activities.map((a) => (
              <li key={a.id} className="flex flex-wrap justify-between gap-2">
                <span className="text-slate-800">{a.title}</span>
                <span className="text-xs text-slate-500">{formatDateTime(a.occurred_at)}</span>
              </li>
            ))}
          </ul>
        )}
      </CardBody>
    </Card>
  );
}

function AuditLog({ detail }: { detail: AdminUserDetail }) {
  const audit = useUserAudit(detail.user.id, detail.audit);
  const entries = audit.data ? audit.data.pages.flatMap((p) => p.data) : detail.audit.data;
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
                <p className="text-slate-900">{describeAudit(entry)}</p>
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

/** Roles and direct permissions: checkboxes for administrators, a read-only list for others. */
function Rights({
  detail,
  canEdit,
  onSave,
  saving,
}: {
  detail: AdminUserDetail;
  canEdit: boolean;
  onSave: (action: UserAction) => void;
  saving: UserAction['kind'] | null;
}) {
  const user = detail.user;
  const roles = useRoles(canEdit);
  const permissions = usePermissions(canEdit);
  const [roleSet, setRoleSet] = useState<string[]>([]);
  const [permSet, setPermSet] = useState<string[]>([]);
  useEffect(() => {
    setRoleSet(user.roles.map((r) => r.slug));
    setPermSet(user.permissions.map((p) => p.slug));
  }, [user]);
  const toggle = (list: string[], slug: string) =>
    list.includes(slug) ? list.filter((s) => s !== slug) : [...list, slug];
  const same = (a: string[], b: string[]) => [...a].sort().join() === [...b].sort().join();

  if (!canEdit) {
    return (
      <Card>
        <CardHeader>
          <CardTitle>Rôles et permissions</CardTitle>
        </CardHeader>
        <CardBody className="space-y-3 text-sm">
          <Field label="Rôles">{user.roles.length ? user.roles.map((r) => r.name).join(', ') : 'Aucun'}</Field>
          <Field label="Permissions directes">
            {user.permissions.length ? user.permissions.map((p) => permissionLabel(p.slug)).join(', ') : 'Aucune'}
          </Field>
        </CardBody>
      </Card>
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Rôles et permissions</CardTitle>
      </CardHeader>
      <CardBody className="space-y-5">
        <fieldset>
          <legend className="mb-2 text-sm font-semibold text-slate-800">Rôles</legend>
          {roles.isError ? (
            <Alert
              tone="error"
              title={LOAD_ERROR}
              action={<Retry onRetry={() => void roles.refetch()} loading={roles.isFetching} />}
            >
              {errorMessage(roles.error, 'Les rôles n’ont pas pu être chargés.')}
            </Alert>
          ) : !roles.data ? (
            <Skeleton className="h-16 w-full" />
          ) : (
            <div className="space-y-2">
              {roles.data.map((role) => (
                <Checkbox
                  key={role.id}
                  label={role.name}
                  hint={role.permissions.map((p) => permissionLabel(p.slug)).join(', ') || undefined}
                  checked={roleSet.includes(role.slug)}
                  onChange={() => setRoleSet((current) => toggle(current, role.slug))}
                />
              ))}
            </div>
          )}
          <Button
            className="mt-3"
            size="sm"
            disabled={same(
              roleSet,
              user.roles.map((r) => r.slug),
            )}
            loading={saving === 'roles'}
            onClick={() => onSave({ kind: 'roles', roles: roleSet })}
          >
            Enregistrer les rôles
          </Button>
        </fieldset>
        <fieldset>
          <legend className="mb-2 text-sm font-semibold text-slate-800">Permissions directes</legend>
          {permissions.isError ? (
            <Alert
              tone="error"
              title={LOAD_ERROR}
              action={<Retry onRetry={() => void permissions.refetch()} loading={permissions.isFetching} />}
            >
              {errorMessage(permissions.error, 'Les permissions n’ont pas pu être chargées.')}
            </Alert>
          ) : !permissions.data ? (
            <Skeleton className="h-16 w-full" />
          ) : (
            <div className="grid gap-2 sm:grid-cols-2">
              {permissions.data.map((perm) => (
                <Checkbox
                  key={perm.id}
                  label={permissionLabel(perm.slug)}
                  checked={permSet.includes(perm.slug)}
                  onChange={() => setPermSet((current) => toggle(current, perm.slug))}
                />
              ))}
            </div>
          )}
          <Button
            className="mt-3"
            size="sm"
            disabled={same(
              permSet,
              user.permissions.map((p) => p.slug),
            )}
            loading={saving === 'permissions'}
            onClick={() => onSave({ kind: 'permissions', permissions: permSet })}
          >
            Enregistrer les permissions
          </Button>
        </fieldset>
        <p className="text-xs text-slate-500">
          Un changement de droits met fin aux sessions ouvertes du membre : il devra se reconnecter.
        </p>
      </CardBody>
    </Card>
  );
}

type Pending = 'promote' | 'revoke' | 'reactivate' | 'deactivate' | null;

/** A member in the back office: identity, listings, activity, rights, access and their trail. */
export default function UserDetailPage() {
  const { id = '' } = useParams();
  const { user: me } = useSession();
  const isAdmin = isAdminUser(me);
  const detail = useUserDetail(id);
  useDocumentTitle(detail.data ? `${detail.data.user.name} · Utilisateurs` : 'Utilisateur · Administration');
  const [pending, setPending] = useState<Pending>(null);
  const form = useForm<{ reason: string }>({ resolver: deactivateResolver, defaultValues: { reason: '' } });

  const action = useUserAction(id, {
    onSuccess: (done, answer) => {
      setPending(null);
      if (done.kind === 'deactivate') form.reset();
      void notify.success(answer.message);
    },
    onError: (done, error) => {
      setPending(null);
      void notify.error(errorMessage(error, FALLBACKS[done.kind]));
    },
  });
  const running = action.isPending ? (action.variables?.kind ?? null) : null;

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
  const self = me?.id === user.id;
  const confirmTexts = {
    promote: {
      title: 'Promouvoir administrateur ?',
      description: `${user.name} aura tous les droits sur le back office.`,
      label: 'Promouvoir',
    },
    revoke: {
      title: 'Retirer les droits d’administrateur ?',
      description: `${user.name} perdra l’accès au back office et ses sessions seront fermées.`,
      label: 'Retirer',
    },
    reactivate: {
      title: 'Réactiver ce compte ?',
      description: `${user.name} pourra de nouveau se connecter et ses annonces réapparaîtront.`,
      label: 'Réactiver',
    },
  } as const;
  const confirm = pending && pending !== 'deactivate' ? confirmTexts[pending] : null;

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
        actions={
          <div className="flex flex-wrap gap-2">
            {!user.email_verified && hasPermission('users.view.any', me) ? (
              <Button
                variant="outline"
                leftIcon={<MailIcon size={16} />}
                loading={running === 'resend'}
                onClick={() => action.mutate({ kind: 'resend' })}
              >
                Renvoyer l’email de vérification
              </Button>
            ) : null}
            {isAdmin && !self ? (
              <>
                {user.is_admin ? (
                  <Button variant="outline" onClick={() => setPending('revoke')}>
                    Retirer les droits d’admin
                  </Button>
                ) : (
                  <Button variant="outline" onClick={() => setPending('promote')}>
                    Promouvoir administrateur
                  </Button>
                )}
                {user.deactivated_at ? (
                  <Button onClick={() => setPending('reactivate')}>Réactiver le compte</Button>
                ) : (
                  <Button variant="danger" onClick={() => setPending('deactivate')}>
                    Désactiver le compte
                  </Button>
                )}
              </>
            ) : null}
          </div>
        }
      />

      {user.deactivated_at ? (
        <Alert tone="error" title={`Compte désactivé le ${formatDateTime(user.deactivated_at)}`} className="mb-4">
          Motif : {user.deactivation_reason ?? '—'}. Le membre ne peut plus se connecter et ses annonces sont masquées
          du catalogue.
        </Alert>
      ) : null}

      <div className="grid gap-4 lg:grid-cols-2">
        <div className="min-w-0 space-y-4">
          <Card>
            <CardHeader>
              <CardTitle>Identité</CardTitle>
            </CardHeader>
            <CardBody>
              <dl className="grid gap-3 sm:grid-cols-2">
                <Field label="Nom">{user.name}</Field>
                <Field label="Pseudonyme">@{user.username}</Field>
                <Field label="Email">{user.email}</Field>
                <Field label="Email vérifié">{user.email_verified ? 'Oui' : 'Non'}</Field>
                <Field label="Administrateur">{user.is_admin ? 'Oui' : 'Non'}</Field>
                <Field label="Vérification en deux étapes">{user.two_factor_enabled ? 'Activée' : 'Désactivée'}</Field>
                <Field label="Inscrit le">{formatDate(user.created_at)}</Field>
                <Field label="Dernière modification">{formatDateTime(user.updated_at)}</Field>
              </dl>
            </CardBody>
          </Card>
          <Listings userId={user.id} />
          <Activity detail={data} />
        </div>
        <div className="min-w-0 space-y-4">
          <Rights
            detail={data}
            canEdit={isAdmin}
            saving={running === 'roles' || running === 'permissions' ? running : null}
            onSave={(change) => action.mutate(change)}
          />
          <AuditLog detail={data} />
        </div>
      </div>

      <ConfirmDialog
        open={confirm !== null}
        title={confirm?.title}
        description={confirm?.description}
        confirmLabel={confirm?.label ?? ''}
        tone={pending === 'revoke' ? 'danger' : 'primary'}
        loading={action.isPending}
        onConfirm={() => pending && pending !== 'deactivate' && action.mutate({ kind: pending })}
        onCancel={() => setPending(null)}
      />

      <Dialog
        open={pending === 'deactivate'}
        onClose={() => (action.isPending ? undefined : setPending(null))}
        role="alertdialog"
        title="Désactiver ce compte ?"
        description={`${user.name} ne pourra plus se connecter, ses sessions seront fermées et ses annonces masquées du catalogue.`}
        footer={
          <>
            <Button variant="outline" onClick={() => setPending(null)} disabled={action.isPending}>
              Annuler
            </Button>
            <Button variant="danger" type="submit" form="deactivate-form" loading={running === 'deactivate'}>
              Désactiver
            </Button>
          </>
        }
      >
        <form
          id="deactivate-form"
          onSubmit={form.handleSubmit(({ reason }) => action.mutate({ kind: 'deactivate', reason }))}
          noValidate
        >
          <Textarea
            label="Motif (visible par les administrateurs)"
            rows={3}
            maxLength={500}
            error={form.formState.errors.reason?.message}
            {...form.register('reason')}
          />
        </form>
      </Dialog>
    </>
  );
}
