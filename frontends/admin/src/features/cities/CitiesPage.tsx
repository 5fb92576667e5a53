import {
  Badge,
  Button,
  CityIcon,
  DownloadIcon,
  errorMessage,
  notify,
  PageHeader,
  Pagination,
  PencilIcon,
  PlusIcon,
  Select,
  TrashIcon,
  useDocumentTitle,
} from '@cartable/ui';
import { ConfirmDialog } from '@cartable/ui/overlays';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type Column, DataTable } from '../../shared/DataTable';
import { SearchField } from '../../shared/SearchField';
import { useListParams } from '../../shared/useListParams';
import { type AdminCity, type CityQuery, useAdminCities, useDeleteCity, useProvinces } from './api/cities';
import { CityFormDialog, CityImportDialog } from './CityDialogs';

const PER_PAGE = 25;

/** Cities (SPEC section 2 « Gestion des villes »): search, filters, create, edit, delete, CSV import. */
export default function CitiesPage() {
  useDocumentTitle('Gestion des villes · Administration');
  const { params, update, page } = useListParams();
  const queryClient = useQueryClient();
  const search = params.get('search') ?? '';
  const [editing, setEditing] = useState<{ city: AdminCity | null } | null>(null);
  const [toDelete, setToDelete] = useState<AdminCity | null>(null);
  const [importing, setImporting] = useState(false);
  const provinces = useProvinces();

  const major = params.get('major_only');
  const query: CityQuery = {
    search,
    province: params.get('province') ?? '',
    major_only: major === 'true' || major === 'false' ? major : '',
    page,
    per_page: PER_PAGE,
  };
  const list = useAdminCities(query);

  const remove = useDeleteCity(queryClient, {
    onSuccess: (answer) => {
      setToDelete(null);
      void notify.success(answer.message ?? 'Ville supprimée avec succès');
    },
    onError: (error) => {
      setToDelete(null);
      void notify.error(errorMessage(error, 'La ville n’a pas pu être supprimée.'));
    },
  });

  const usage = (city: AdminCity) =>
    `${city.books_count} annonce${city.books_count > 1 ? 's' : ''} · ${city.members_count} membre${city.members_count > 1 ? 's' : ''}`;

  const actions = (city: AdminCity, withLabels = false) => (
    <div className={withLabels ? 'flex flex-wrap gap-1' : 'flex gap-1'}>
      <Button
        variant="ghost"
        size={withLabels ? 'sm' : 'icon'}
        aria-label={`Modifier ${city.name}`}
        title="Modifier"
        onClick={() => setEditing({ city })}
        leftIcon={withLabels ? <PencilIcon size={16} /> : undefined}
      >
        {withLabels ? 'Modifier' : <PencilIcon size={18} />}
      </Button>
      <Button
        variant="ghost"
        size={withLabels ? 'sm' : 'icon'}
        className="text-red-700 hover:bg-red-50"
        aria-label={`Supprimer ${city.name}`}
        title="Supprimer"
        onClick={() => setToDelete(city)}
        leftIcon={withLabels ? <TrashIcon size={16} /> : undefined}
      >
        {withLabels ? 'Supprimer' : <TrashIcon size={18} />}
      </Button>
    </div>
  );

  const columns: Column<AdminCity>[] = [
    {
      key: 'name',
      header: 'Ville',
      cell: (city) => (
        <span className="font-medium text-slate-900">
          {city.name} {city.is_major ? <Badge tone="primary">Principale</Badge> : null}
        </span>
      ),
    },
    { key: 'province', header: 'Province', cell: (city) => city.province ?? '—' },
    { key: 'books', header: 'Annonces', cell: (city) => city.books_count.toLocaleString('fr-FR'), className: 'w-28' },
    {
      key: 'members',
      header: 'Membres',
      cell: (city) => city.members_count.toLocaleString('fr-FR'),
      className: 'w-28',
    },
    {
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      cell: (city) => actions(city),
      // As wide as its buttons, side by side: a row stays one line high.
      className: 'w-px',
    },
  ];

  const filtered = Boolean(search || query.province || query.major_only);
  const meta = list.data?.meta;

  return (
    <>
      <PageHeader
        title="Gestion des villes"
        description={meta ? `${meta.total.toLocaleString('fr-FR')} ville${meta.total > 1 ? 's' : ''}` : undefined}
        actions={
          <>
            <Button
              variant="outline"
              size="sm"
              leftIcon={<DownloadIcon size={16} />}
              onClick={() => setImporting(true)}
            >
              Importer (CSV)
            </Button>
            <Button size="sm" leftIcon={<PlusIcon size={16} />} onClick={() => setEditing({ city: null })}>
              Nouvelle ville
            </Button>
          </>
        }
      />

      <div className="mb-4 grid gap-3 sm:grid-cols-[minmax(0,1fr)_14rem_12rem]">
        <SearchField
          label="Rechercher"
          placeholder="Nom de la ville…"
          value={search}
          onSearch={(next) => update({ search: next })}
        />
        <Select label="Province" value={query.province} onChange={(e) => update({ province: e.target.value })}>
          <option value="">Toutes les provinces</option>
          {(provinces.data ?? []).map((p) => (
            <option key={p.id} value={p.name}>
              {p.name}
            </option>
          ))}
        </Select>
        <Select label="Importance" value={query.major_only} onChange={(e) => update({ major_only: e.target.value })}>
          <option value="">Toutes</option>
          <option value="true">Principales</option>
          <option value="false">Secondaires</option>
        </Select>
      </div>

      <DataTable
        caption="Villes"
        testId="city"
        oneLine
        columns={columns}
        rows={list.data?.data}
        rowKey={(city) => city.id}
        query={list}
        errorText="Les villes n’ont pas pu être chargées."
        empty={{
          icon: <CityIcon size={26} />,
          title: filtered ? 'Aucune ville ne correspond à ces critères' : 'Aucune ville',
          action: filtered ? (
            <Button
              variant="outline"
              onClick={() => {
                update({ search: null, province: null, major_only: null });
              }}
            >
              Effacer les filtres
            </Button>
          ) : (
            <Button onClick={() => setEditing({ city: null })}>Nouvelle ville</Button>
          ),
        }}
        card={(city) => (
          <div className="space-y-1">
            <p className="font-medium text-slate-900">
              {city.name} {city.is_major ? <Badge tone="primary">Principale</Badge> : null}
            </p>
            <p className="text-sm text-slate-600">{city.province ?? 'Sans province'}</p>
            <p className="text-xs text-slate-500">{usage(city)}</p>
            {actions(city, true)}
          </div>
        )}
      />

      <Pagination
        edges
        compact
        className="mt-5"
        page={meta?.current_page ?? page}
        lastPage={meta?.last_page ?? 1}
        onPage={(target) => update({ page: target > 1 ? target : null })}
      />

      <CityFormDialog open={editing !== null} city={editing?.city ?? null} onClose={() => setEditing(null)} />
      <CityImportDialog open={importing} onClose={() => setImporting(false)} />
      <ConfirmDialog
        open={toDelete !== null}
        title="Supprimer la ville ?"
        description={
          toDelete
            ? `${toDelete.name} sera supprimée (${usage(toDelete)}). Une ville utilisée par des annonces ou des membres ne peut pas être supprimée.`
            : undefined
        }
        confirmLabel="Supprimer"
        loading={remove.isPending}
        onConfirm={() => toDelete && remove.mutate(toDelete.id)}
        onCancel={() => setToDelete(null)}
      />
    </>
  );
}
