import { classListKindLabels, classListStatuses, classListStatusLabels } from '@cartable/contracts/labels';
import {
  Badge,
  type BadgeTone,
  BookIcon,
  Button,
  buttonClasses,
  cn,
  PageHeader,
  Pagination,
  PlusIcon,
  Select,
  useDocumentTitle,
} from '@cartable/ui';
import { useCategoryHierarchy } from '@cartable/ui/categories';
import { Link, useNavigate } from '@cartable/ui/router';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { type Column, DataTable } from '../../shared/DataTable';
import { SearchField } from '../../shared/SearchField';
import { useListParams } from '../../shared/useListParams';
import { adminClassListsQuery, type ClassList, type ListFilters } from './api/class-lists';
import { ListFormDialog } from './dialogs/ListFormDialog';
import { ListCoverage } from './ListCoverage';
import { LevelOptions, levelGroups, schoolYearChoices } from './levels';

export const STATUS_TONES: Record<ClassList['status'], BadgeTone> = {
  draft: 'neutral',
  proposed: 'accent',
  published: 'success',
  rejected: 'danger',
};

export function ListStatusBadge({ status }: { status: ClassList['status'] }) {
  return <Badge tone={STATUS_TONES[status]}>{classListStatusLabels[status]}</Badge>;
}

/** The filter « official / school / proposed » of the brief: kind for the first two, status for the third. */
const TYPE_FILTERS = [
  { value: '', label: 'Toutes' },
  { value: 'official', label: 'Officielles (IPN)' },
  { value: 'school', label: 'D’établissement' },
  { value: 'proposed', label: 'Proposées (à valider)' },
] as const;

/** The screen's two views: the lists, and how well the listings cover the lists families saved. */
const VIEWS = [
  ['', 'Listes'],
  ['couverture', 'Couverture des listes'],
] as const;

function ViewTabs({ view, onView }: { view: string; onView: (view: string) => void }) {
  return (
    <div
      role="tablist"
      aria-label="Vue"
      className="mb-4 flex max-w-full rounded-lg border border-slate-200 bg-white p-1 sm:inline-flex"
    >
      {VIEWS.map(([value, label]) => (
        <button
          key={value}
          type="button"
          role="tab"
          aria-selected={view === value}
          className={cn(
            'min-h-11 flex-1 rounded-md px-4 text-sm font-semibold sm:whitespace-nowrap',
            view === value ? 'bg-primary-700 text-white' : 'text-slate-700 hover:bg-slate-100',
          )}
          onClick={() => onView(value)}
        >
          {label}
        </button>
      ))}
    </div>
  );
}

/** « Listes de manuels » (lists.manage): every list, proposals first; filters in the URL. */
export default function ClassListsPage() {
  useDocumentTitle('Listes de manuels · Administration');
  const navigate = useNavigate();
  const { params, update, page } = useListParams();
  const hierarchy = useCategoryHierarchy();
  const groups = useMemo(() => levelGroups(hierarchy.data), [hierarchy.data]);
  const [creating, setCreating] = useState(false);
  const q = params.get('q') ?? '';
  const type = params.get('type') ?? '';
  const statusParam = params.get('status') ?? '';
  const view = params.get('vue') === 'couverture' ? 'couverture' : '';

  const query: ListFilters = {
    page,
    ...(params.get('level_id') ? { level_id: Number(params.get('level_id')) } : {}),
    ...(params.get('school_year') ? { school_year: params.get('school_year') ?? undefined } : {}),
    ...(type === 'official' || type === 'school' ? { kind: type } : {}),
    ...(type === 'proposed'
      ? { status: 'proposed' as const }
      : statusParam
        ? { status: statusParam as ClassList['status'] }
        : {}),
    ...(q ? { q } : {}),
  };
  const list = useQuery({ ...adminClassListsQuery(query), enabled: view === '' });

  const name = (l: ClassList) => (l.kind === 'official' ? 'Liste officielle' : (l.school_name ?? 'Établissement'));
  const columns: Column<ClassList>[] = [
    {
      key: 'level',
      header: 'Classe',
      cell: (l) => (
        <Link to={`/admin/class-lists/${l.id}`} className="font-semibold text-primary-800 hover:underline">
          {l.level.name}
        </Link>
      ),
      className: 'w-28',
    },
    { key: 'year', header: 'Année', cell: (l) => l.school_year, className: 'w-28' },
    {
      key: 'name',
      header: 'Liste',
      cell: (l) => (
        <span>
          {name(l)}
          {l.city ? <span className="text-slate-500"> · {l.city.name}</span> : null}
        </span>
      ),
    },
    { key: 'items', header: 'Manuels', cell: (l) => l.items_count, className: 'w-24' },
    { key: 'status', header: 'État', cell: (l) => <ListStatusBadge status={l.status} />, className: 'w-32' },
  ];
  const filtered = Boolean(query.level_id || query.school_year || type || statusParam || q);
  const meta = list.data?.meta;

  return (
    <>
      <PageHeader
        title="Listes de manuels"
        description={meta ? `${meta.total.toLocaleString('fr-FR')} liste${meta.total > 1 ? 's' : ''}` : undefined}
        actions={
          <Button size="sm" leftIcon={<PlusIcon size={16} />} onClick={() => setCreating(true)}>
            Nouvelle liste
          </Button>
        }
      />
      <ViewTabs view={view} onView={(next) => update({ vue: next })} />
      {view === 'couverture' ? (
        <ListCoverage />
      ) : (
        <>
          <div className="mb-4 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-6">
            {/* Two columns on a laptop: its placeholder is read whole. */}
            <div className="sm:col-span-2">
              <SearchField
                label="Rechercher"
                placeholder="Établissement, source…"
                value={q}
                onSearch={(next) => update({ q: next })}
              />
            </div>
            <Select
              label="Année scolaire"
              value={query.school_year ?? ''}
              onChange={(e) => update({ school_year: e.target.value })}
            >
              <option value="">Toutes</option>
              {schoolYearChoices().map((y) => (
                <option key={y} value={y}>
                  {y}
                </option>
              ))}
            </Select>
            <Select
              label="Classe"
              value={params.get('level_id') ?? ''}
              onChange={(e) => update({ level_id: e.target.value })}
            >
              <option value="">Toutes</option>
              <LevelOptions groups={groups} />
            </Select>
            <Select label="Type" value={type} onChange={(e) => update({ type: e.target.value })}>
              {TYPE_FILTERS.map((f) => (
                <option key={f.value} value={f.value}>
                  {f.label}
                </option>
              ))}
            </Select>
            <Select
              label="État"
              value={type === 'proposed' ? 'proposed' : statusParam}
              disabled={type === 'proposed'}
              onChange={(e) => update({ status: e.target.value })}
            >
              <option value="">Tous</option>
              {classListStatuses.map((s) => (
                <option key={s} value={s}>
                  {classListStatusLabels[s]}
                </option>
              ))}
            </Select>
          </div>

          <DataTable
            caption="Listes de manuels"
            testId="class-list"
            columns={columns}
            rows={list.data?.data}
            rowKey={(l) => l.id}
            query={list}
            errorText="Les listes n’ont pas pu être chargées."
            empty={{
              icon: <BookIcon size={26} />,
              title: filtered ? 'Aucune liste ne correspond à ces critères' : 'Aucune liste de manuels',
              action: filtered ? (
                <Button
                  variant="outline"
                  onClick={() => {
                    update({ q: null, school_year: null, level_id: null, type: null, status: null });
                  }}
                >
                  Effacer les filtres
                </Button>
              ) : (
                <Button onClick={() => setCreating(true)}>Nouvelle liste</Button>
              ),
            }}
            card={(l) => (
              <div className="space-y-1">
                <div className="flex items-center justify-between gap-2">
                  <p className="font-semibold text-slate-900">
                    {l.level.name} · {l.school_year}
                  </p>
                  <ListStatusBadge status={l.status} />
                </div>
                <p className="text-sm text-slate-700">
                  {/* An official list's name is already its kind. */}
                  {l.kind === 'official' ? classListKindLabels.official : name(l)}
                  {l.city ? ` · ${l.city.name}` : ''}
                  {l.kind === 'school' ? ` · ${classListKindLabels.school}` : ''}
                </p>
                <p className="text-xs text-slate-500">
                  {l.items_count} manuel{l.items_count > 1 ? 's' : ''}
                </p>
                <Link to={`/admin/class-lists/${l.id}`} className={buttonClasses('outline', 'sm', 'mt-1')}>
                  {l.status === 'proposed' ? 'Examiner' : 'Ouvrir'}
                </Link>
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
        </>
      )}
      <ListFormDialog
        open={creating}
        list={null}
        onClose={() => setCreating(false)}
        onCreated={(created) => navigate(`/admin/class-lists/${created.id}`)}
      />
    </>
  );
}
