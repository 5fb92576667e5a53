import { Alert, Button, Card, CardBody, CardHeader, CardTitle, Checkbox, errorMessage, Skeleton } from '@cartable/ui';
import { useEffect, useState } from 'react';
import { usePermissions, useRoles } from '../../../entities/role/api/roles';
import { permissionLabel } from '../../../entities/role/labels';
import { LOAD_ERROR } from '../../../shared/messages';
import type { AdminUserDetail } from '../api/users';
import { Field, Retry } from './CardParts';
import { useNotifiedUserAction } from './user-action';

/** Roles and direct permissions: checkboxes for administrators, a read-only list for others. */
export function Rights({ detail, canEdit }: { detail: AdminUserDetail; canEdit: boolean }) {
  const user = detail.user;
  const save = useNotifiedUserAction(user.id);
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
            loading={save.running === 'roles'}
            onClick={() => save.mutate({ kind: 'roles', roles: roleSet })}
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
            loading={save.running === 'permissions'}
            onClick={() => save.mutate({ kind: 'permissions', permissions: permSet })}
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
