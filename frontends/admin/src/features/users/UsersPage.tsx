import {
  Button,
  formatDate,
  hasPermission,
  Input,
  PageHeader,
  Pagination,
  Select,
  UsersIcon,
  useDocumentTitle,
  useSession,
} from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import { useRoles } from '../../entities/role/api/roles';
import { type Column, DataTable } from '../../shared/DataTable';
import { SearchField } from '../../shared/SearchField';
import { useListParams } from '../../shared/useListParams';
import { type AdminUser, type UserListFilters, useUsers } from './api/users';
import { UserBadges } from './UserBadges';

const PER_PAGE = 20;
const SORTS: Record<string, string> = {
  name_asc: 'Nom (A → Z)',
  name_desc: 'Nom (Z → A)',
  created_at_desc: 'Inscription (récentes d’abord)',
  created_at_asc: 'Inscription (anciennes d’abord)',
};
const FILTERS = ['search', 'verified', 'admin', 'role', 'created_from', 'created_to', 'status'] as const;

const userLink = (user: AdminUser) => (
  <Link to={`/admin/users/${user.id}`} className="font-medium text-primary-700 hover:underline">
    {user.name}
  </Link>
);
const roleNames = (user: AdminUser) => (user.roles.length ? user.roles.map((r) => r.name).join(', ') : '—');

/** Members (SPEC section 2, admin "users"): search, filters, sort and page in the URL. */
export default function UsersPage() {
  useDocumentTitle('Gestion des utilisateurs · Administration');
  const { user: me } = useSession();
  const { params, update, page } = useListParams();
  const get = (name: string) => params.get(name) ?? '';
  const search = get('search');
  const roles = useRoles(hasPermission('roles.view', me));

  const sortKey = `${get('sort') || 'name'}_${get('direction') || (get('sort') === 'created_at' ? 'desc' : 'asc')}`;
  const filters: UserListFilters = {
    search,
    verified: get('verified'),
    admin: get('admin'),
    role: get('role'),
    created_from: get('created_from'),
    created_to: get('created_to'),
    status: get('status'),
    sort: get('sort'),
    direction: get('direction'),
    page,
    per_page: PER_PAGE,
  };
  const list = useUsers(filters);
  const filtered = FILTERS.some((name) => get(name));

  const columns: Column<AdminUser>[] = [
    {
      key: 'member',
      header: 'Membre',
      cell: (u) => (
        <>
          {userLink(u)}
          <p className="text-xs break-all text-slate-500">
            {u.email} · @{u.username}
          </p>
        </>
      ),
    },
    { key: 'state', header: 'État', cell: (u) => <UserBadges user={u} />, className: 'w-52' },
    { key: 'roles', header: 'Rôles', cell: (u) => <span className="text-slate-700">{roleNames(u)}</span> },
    {
      key: 'created',
      header: 'Inscrit le',
      cell: (u) => <span className="whitespace-nowrap text-slate-600">{formatDate(u.created_at)}</span>,
      className: 'w-32',
    },
    {
      key: 'open',
      header: <span className="sr-only">Actions</span>,
      cell: (u) => (
        <Link
          to={`/admin/users/${u.id}`}
          className="text-sm font-medium text-primary-700 hover:underline"
          aria-label={`Voir la fiche de ${u.name}`}
        >
          Voir
        </Link>
      ),
      className: 'w-16',
    },
  ];

  const clear = () => {
    update(Object.fromEntries(FILTERS.map((name) => [name, null])));
  };

  return (
    <>
      <PageHeader
        title="Gestion des utilisateurs"
        description={
          list.data ? `${list.data.meta.total.toLocaleString('fr-FR')} membre(s)` : 'Les membres inscrits sur Cartable.'
        }
      />

      <form
        className="mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-4"
        aria-label="Filtres des utilisateurs"
        onSubmit={(event) => event.preventDefault()}
      >
        <div className="sm:col-span-2">
          <SearchField
            label="Rechercher"
            placeholder="Nom, email ou pseudonyme…"
            value={search}
            onSearch={(next) => update({ search: next })}
          />
        </div>
        <Select label="Statut" value={get('status')} onChange={(e) => update({ status: e.target.value })}>
          <option value="">Tous</option>
          <option value="active">Actifs</option>
          <option value="deactivated">Désactivés</option>
        </Select>
        <Select label="Email" value={get('verified')} onChange={(e) => update({ verified: e.target.value })}>
          <option value="">Tous</option>
          <option value="true">Vérifié</option>
          <option value="false">Non vérifié</option>
        </Select>
        <Select label="Administrateur" value={get('admin')} onChange={(e) => update({ admin: e.target.value })}>
          <option value="">Tous</option>
          <option value="true">Administrateurs</option>
          <option value="false">Non administrateurs</option>
        </Select>
        {roles.data ? (
          <Select label="Rôle" value={get('role')} onChange={(e) => update({ role: e.target.value })}>
            <option value="">Tous les rôles</option>
            {roles.data.map((role) => (
              <option key={role.id} value={role.slug}>
                {role.name}
              </option>
            ))}
          </Select>
        ) : null}
        <Input
          label="Inscrit à partir du"
          type="date"
          value={get('created_from')}
          max={get('created_to') || undefined}
          onChange={(e) => update({ created_from: e.target.value })}
        />
        <Input
          label="Inscrit jusqu’au"
          type="date"
          value={get('created_to')}
          min={get('created_from') || undefined}
          onChange={(e) => update({ created_to: e.target.value })}
        />
        <Select
          label="Trier par"
          value={sortKey}
          onChange={(e) => {
            const [sort, direction] = e.target.value.split(/_(?=asc|desc)/);
            update({ sort: sort === 'name' ? null : sort, direction });
          }}
        >
          {Object.entries(SORTS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </Select>
        {filtered ? (
          <div className="flex items-end">
            <Button type="button" variant="outline" onClick={clear}>
              Effacer les filtres
            </Button>
          </div>
        ) : null}
      </form>

      <DataTable
        caption="Utilisateurs"
        testId="user"
        columns={columns}
        rows={list.data?.data}
        rowKey={(u) => u.id}
        query={list}
        errorText="Les utilisateurs n’ont pas pu être chargés."
        rowClassName={(u) => (u.deactivated_at ? 'bg-red-50/40' : undefined)}
        card={(u) => (
          <div className="min-w-0 space-y-1">
            <div className="flex items-start justify-between gap-2">
              {userLink(u)}
              <span className="text-xs whitespace-nowrap text-slate-500">{formatDate(u.created_at)}</span>
            </div>
            <p className="text-sm break-all text-slate-600">{u.email}</p>
            <UserBadges user={u} />
            <p className="text-xs text-slate-500">Rôles : {roleNames(u)}</p>
          </div>
        )}
        empty={{
          icon: <UsersIcon size={26} />,
          title: 'Aucun utilisateur',
          description: filtered ? 'Aucun membre ne correspond à ces critères.' : undefined,
          action: filtered ? (
            <Button variant="outline" onClick={clear}>
              Effacer les filtres
            </Button>
          ) : undefined,
        }}
      />

      <Pagination
        edges
        className="mt-5"
        page={list.data?.meta.current_page ?? page}
        lastPage={list.data?.meta.last_page ?? 1}
        onPage={(target) => update({ page: target > 1 ? target : null })}
      />
    </>
  );
}
