import { roleRequestSchema } from '@cartable/contracts';
import {
  ApiError,
  Badge,
  Button,
  Checkbox,
  errorMessage,
  Input,
  isAdminUser,
  KeyIcon,
  LoadFailed,
  notify,
  PageHeader,
  PencilIcon,
  PlusIcon,
  Skeleton,
  TrashIcon,
  useDocumentTitle,
  useSession,
} from '@cartable/ui';
import { ConfirmDialog, Dialog } from '@cartable/ui/overlays';
import { Link } from '@cartable/ui/router';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import {
  type AdminRole,
  type RoleFields,
  useDeleteRole,
  usePermissions,
  useRoleHolders,
  useRoles,
  useSaveRole,
} from '../../entities/role/api/roles';
import { permissionLabel } from '../../entities/role/labels';
import { type Column, DataTable } from '../../shared/DataTable';
import { LOAD_ERROR } from '../../shared/messages';

/** Rules and French messages of the contract (POST /roles, PUT /roles/{id}). */
const roleResolver = zodResolver(roleRequestSchema);

function PermissionBadges({ role }: { role: AdminRole }) {
  if (!role.permissions.length) return <span className="text-slate-500">Aucune permission</span>;
  return (
    <span className="flex flex-wrap gap-1">
      {role.permissions.map((p) => (
        <Badge key={p.slug} tone="ocean">
          {permissionLabel(p.slug)}
        </Badge>
      ))}
    </span>
  );
}

/** Create or edit: name, identifier and permissions from the catalogue (GET /permissions). */
function RoleFormDialog({ role, onClose }: { role: AdminRole | 'new' | null; onClose: () => void }) {
  const permissions = usePermissions(role !== null);
  const editing = role !== null && role !== 'new' ? role : null;
  const form = useForm<z.input<typeof roleRequestSchema>, unknown, RoleFields>({
    resolver: roleResolver,
    defaultValues: { slug: '', name: '', permissions: [] },
  });
  useEffect(() => {
    if (role === null) return;
    form.reset(
      editing
        ? { slug: editing.slug, name: editing.name, permissions: editing.permissions.map((p) => p.slug) }
        : { slug: '', name: '', permissions: [] },
    );
  }, [role, editing, form]);

  const save = useSaveRole(editing, {
    onSuccess: (answer) => {
      void notify.success(answer.message);
      onClose();
    },
    onError: (error) => {
      if (error instanceof ApiError) {
        for (const [field, list] of Object.entries(error.errors ?? {})) {
          if (field === 'slug' || field === 'name' || field === 'permissions')
            form.setError(field, { message: list[0] });
        }
      }
      void notify.error(
        errorMessage(error, editing ? 'Erreur lors de la mise à jour du rôle' : 'Erreur lors de la création du rôle'),
      );
    },
  });
  const errors = form.formState.errors;

  return (
    <Dialog
      open={role !== null}
      onClose={() => (save.isPending ? undefined : onClose())}
      title={editing ? `Modifier le rôle « ${editing.name} »` : 'Nouveau rôle'}
      description={
        editing && editing.holders_count > 0
          ? `Les ${editing.holders_count} membre(s) qui détiennent ce rôle devront se reconnecter.`
          : undefined
      }
      size="lg"
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={save.isPending}>
            Annuler
          </Button>
          <Button type="submit" form="role-form" loading={save.isPending}>
            {editing ? 'Enregistrer' : 'Créer le rôle'}
          </Button>
        </>
      }
    >
      <form
        id="role-form"
        className="space-y-4"
        noValidate
        onSubmit={form.handleSubmit((fields) => save.mutate(fields))}
      >
        <Input label="Nom" error={errors.name?.message} {...form.register('name')} />
        <Input
          label="Identifiant"
          hint="Lettres minuscules, chiffres, _ et . (ex. moderateur_villes)"
          error={errors.slug?.message}
          {...form.register('slug')}
        />
        <fieldset>
          <legend className="mb-2 text-sm font-medium text-slate-800">Permissions</legend>
          {permissions.isError ? (
            <LoadFailed title={LOAD_ERROR} query={permissions} fallback="Les permissions n’ont pas pu être chargées." />
          ) : !permissions.data ? (
            <Skeleton className="h-24 w-full" />
          ) : (
            <Controller
              control={form.control}
              name="permissions"
              render={({ field }) => (
                <div className="grid gap-2 sm:grid-cols-2">
                  {permissions.data.map((perm) => (
                    <Checkbox
                      key={perm.id}
                      label={permissionLabel(perm.slug)}
                      hint={perm.slug}
                      checked={(field.value ?? []).includes(perm.slug)}
                      onChange={() =>
                        field.onChange(
                          (field.value ?? []).includes(perm.slug)
                            ? (field.value ?? []).filter((s) => s !== perm.slug)
                            : [...(field.value ?? []), perm.slug],
                        )
                      }
                    />
                  ))}
                </div>
              )}
            />
          )}
          {errors.permissions?.message ? (
            <p className="mt-1 text-sm text-red-700">{errors.permissions.message}</p>
          ) : null}
        </fieldset>
      </form>
    </Dialog>
  );
}

function HoldersDialog({ role, onClose }: { role: AdminRole | null; onClose: () => void }) {
  const holders = useRoleHolders(role?.id ?? null);
  return (
    <Dialog open={role !== null} onClose={onClose} title={role ? `Membres ayant le rôle « ${role.name} »` : ''}>
      {holders.isError ? (
        <LoadFailed title={LOAD_ERROR} query={holders} fallback="Les membres n’ont pas pu être chargés." />
      ) : !holders.data ? (
        <Skeleton className="h-16 w-full" />
      ) : holders.data.data.length === 0 ? (
        <p className="text-sm text-slate-500">Aucun membre ne détient ce rôle.</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {holders.data.data.map((h) => (
            <li key={h.id} className="py-2 text-sm">
              <Link to={`/admin/users/${h.id}`} className="font-medium text-primary-700 hover:underline">
                {h.name}
              </Link>
              <span className="block break-all text-xs text-slate-500">{h.email}</span>
            </li>
          ))}
          {holders.data.meta.total > holders.data.data.length ? (
            <li className="py-2 text-xs text-slate-500">
              … et {holders.data.meta.total - holders.data.data.length} autre(s) :{' '}
              <Link to={`/admin/users?role=${role?.slug}`} className="text-primary-700 hover:underline">
                voir la liste filtrée
              </Link>
            </li>
          ) : null}
        </ul>
      )}
    </Dialog>
  );
}

/** Roles (SPEC section 6): permissions and holders; administrators create, edit and delete. */
export default function RolesPage() {
  useDocumentTitle('Gestion des rôles · Administration');
  const { user: me } = useSession();
  const isAdmin = isAdminUser(me);
  const roles = useRoles();
  const [editing, setEditing] = useState<AdminRole | 'new' | null>(null);
  const [holdersOf, setHoldersOf] = useState<AdminRole | null>(null);
  const [deleting, setDeleting] = useState<AdminRole | null>(null);

  const remove = useDeleteRole({
    onSuccess: (answer) => {
      setDeleting(null);
      void notify.success(answer.message);
    },
    onError: (error) => {
      setDeleting(null);
      void notify.error(errorMessage(error, 'Erreur lors de la suppression du rôle'));
    },
  });

  const columns: Column<AdminRole>[] = [
    {
      key: 'role',
      header: 'Rôle',
      cell: (r) => (
        <>
          <p className="font-medium text-slate-900">{r.name}</p>
          <p className="text-xs text-slate-500">{r.slug}</p>
        </>
      ),
      className: 'w-56',
    },
    { key: 'permissions', header: 'Permissions', cell: (r) => <PermissionBadges role={r} /> },
    {
      key: 'holders',
      header: 'Membres',
      cell: (r) => (
        <Button
          variant="ghost"
          size="sm"
          onClick={() => setHoldersOf(r)}
          aria-label={`Voir les ${r.holders_count} membre(s) ayant le rôle ${r.name}`}
        >
          {r.holders_count.toLocaleString('fr-FR')}
        </Button>
      ),
      className: 'w-28',
    },
    ...(isAdmin
      ? [
          {
            key: 'actions',
            header: <span className="sr-only">Actions</span>,
            cell: (r: AdminRole) => roleActions(r),
            className: 'w-px',
          },
        ]
      : []),
  ];

  function roleActions(role: AdminRole) {
    return (
      <span className="flex gap-1">
        <Button
          variant="ghost"
          size="icon"
          aria-label={`Modifier le rôle ${role.name}`}
          onClick={() => setEditing(role)}
        >
          <PencilIcon size={18} />
        </Button>
        {role.slug === 'admin' ? null : (
          <Button
            variant="ghost"
            size="icon"
            className="text-red-700 hover:bg-red-50"
            aria-label={`Supprimer le rôle ${role.name}`}
            onClick={() => setDeleting(role)}
          >
            <TrashIcon size={18} />
          </Button>
        )}
      </span>
    );
  }

  return (
    <>
      <PageHeader
        title="Gestion des rôles"
        description="Les rôles regroupent des permissions du back office ; un membre peut en détenir plusieurs."
        actions={
          isAdmin ? (
            <Button leftIcon={<PlusIcon size={18} />} onClick={() => setEditing('new')}>
              Nouveau rôle
            </Button>
          ) : undefined
        }
      />

      <DataTable
        caption="Rôles"
        testId="role"
        columns={columns}
        rows={roles.data}
        rowKey={(r) => r.id}
        query={roles}
        errorText="Les rôles n’ont pas pu être chargés."
        card={(r) => (
          <div className="space-y-2">
            <div className="flex items-start justify-between gap-2">
              <div className="min-w-0">
                <p className="font-medium text-slate-900">{r.name}</p>
                <p className="text-xs text-slate-500">{r.slug}</p>
              </div>
              {isAdmin ? roleActions(r) : null}
            </div>
            <PermissionBadges role={r} />
            <Button variant="outline" size="sm" onClick={() => setHoldersOf(r)}>
              {r.holders_count} membre(s)
            </Button>
          </div>
        )}
        empty={{
          icon: <KeyIcon size={26} />,
          title: 'Aucun rôle',
          description: isAdmin ? 'Créez un rôle pour déléguer une partie du back office.' : undefined,
        }}
      />

      <RoleFormDialog role={editing} onClose={() => setEditing(null)} />
      <HoldersDialog role={holdersOf} onClose={() => setHoldersOf(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title="Supprimer ce rôle ?"
        description={
          deleting
            ? deleting.holders_count > 0
              ? `Le rôle « ${deleting.name} » est attribué à ${deleting.holders_count} membre${deleting.holders_count > 1 ? 's' : ''} : il leur sera retiré, avec ses permissions, et ils devront se reconnecter.`
              : `Le rôle « ${deleting.name} » sera supprimé définitivement.`
            : undefined
        }
        confirmLabel={deleting && deleting.holders_count > 0 ? 'Supprimer et retirer' : 'Supprimer'}
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </>
  );
}
