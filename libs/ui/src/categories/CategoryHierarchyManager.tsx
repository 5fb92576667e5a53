import {
  Alert,
  Badge,
  Button,
  ChevronRightIcon,
  CloseIcon,
  cn,
  EmptyState,
  errorMessage,
  InfoIcon,
  LayersIcon,
  LazyConfirmDialog,
  LazyDialog,
  notify,
  PlusIcon,
  RefreshIcon,
  SearchIcon,
  Skeleton,
  Spinner,
  useSession,
} from '@cartable/ui';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useId, useMemo, useState } from 'react';
import { categoryDetailsQuery, useAddParent, useCategoryHierarchy, useRemoveParent } from './api';
import { CategorySelector, INDENT_PX } from './CategorySelector';
import { IconButton } from './IconButton';
import { messages } from './messages';
import {
  bookCount,
  type Category,
  type CategoryNodeRef,
  descendantIds,
  flattenTree,
  MAX_DEPTH,
  normalise,
  parentCounts,
} from './tree';

interface Target {
  category: Category;
}

interface RemoveTarget {
  category: Category;
  parent: { id: number; name: string };
}

/**
 * Category hierarchy manager (SPEC section 2): a searchable tree with expand/collapse,
 * "N parents" badges, a details dialog and a refresh button; admins also add a parent to a
 * category and remove one.
 */
export interface CategoryHierarchyManagerProps {
  /**
   * More buttons on each line (the back office's rename, move, reorder, delete). `parent` is the
   * category it is shown under here (null for a root), `siblings` the categories beside it there.
   */
  rowActions?: (category: Category, parent: Category | null, siblings: Category[]) => ReactNode;
  /** More buttons beside « Actualiser » (the back office's « Nouvelle catégorie »). */
  toolbar?: ReactNode;
}

export function CategoryHierarchyManager({ rowActions, toolbar }: CategoryHierarchyManagerProps = {}) {
  const { isAdmin } = useSession();
  const _queryClient = useQueryClient();
  const hierarchy = useCategoryHierarchy();
  const [search, setSearch] = useState('');
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set());
  const [details, setDetails] = useState<Category | null>(null);
  const [adding, setAdding] = useState<Target | null>(null);
  const [removing, setRemoving] = useState<RemoveTarget | null>(null);
  const searchId = useId();

  const roots = hierarchy.data ?? [];
  const entries = useMemo(() => flattenTree(roots), [roots]);
  const counts = useMemo(() => parentCounts(entries), [entries]);
  const term = normalise(search);

  /** Keys of the places that match the search, and of their ancestors (shown expanded). */
  const visible = useMemo(() => {
    if (!term) return null;
    const keys = new Set<string>();
    for (const entry of entries) {
      if (!normalise(entry.category.name).includes(term)) continue;
      for (let i = 1; i <= entry.pathIds.length; i++) keys.add(entry.pathIds.slice(0, i).join('/'));
    }
    return keys;
  }, [entries, term]);

  const remove = useRemoveParent({
    onSuccess: (data) => {
      setRemoving(null);
      void notify.success(data?.message ?? messages.removeParentSuccess);
    },
    onError: (error) => {
      setRemoving(null);
      void notify.error(errorMessage(error, messages.removeParentError));
    },
  });

  const toggle = (key: string) =>
    setExpanded((set) => {
      const next = new Set(set);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  const expandAll = () => setExpanded(new Set(entries.filter((e) => e.category.children?.length).map((e) => e.key)));

  const renderNodes = (nodes: Category[], level: number, pathIds: number[], parent: Category | null) => {
    if (level >= MAX_DEPTH) return null;
    const items = nodes.filter((node) => !pathIds.includes(node.id));
    return (
      <ul className={level === 0 ? 'divide-y divide-slate-100' : undefined} role={level === 0 ? undefined : 'group'}>
        {items.map((node) => {
          const ids = [...pathIds, node.id];
          const key = ids.join('/');
          if (visible && !visible.has(key)) return null;
          const hasChildren = Boolean(node.children?.length) && level + 1 < MAX_DEPTH;
          const open = visible ? true : expanded.has(key);
          const parents = counts.get(node.id) ?? 0;
          const books = bookCount(node);
          const matches = term && normalise(node.name).includes(term);
          return (
            <li key={key}>
              <div
                className="flex flex-wrap items-start gap-1.5 py-1.5 pr-1 hover:bg-slate-50 sm:flex-nowrap sm:items-center sm:pr-2"
                style={{ paddingLeft: 8 + level * INDENT_PX }}
              >
                {hasChildren ? (
                  <button
                    type="button"
                    onClick={() => toggle(key)}
                    aria-expanded={open}
                    aria-label={`${open ? 'Replier' : 'Déplier'} ${node.name}`}
                    disabled={Boolean(visible)}
                    className="flex h-8 w-8 shrink-0 items-center justify-center rounded-md text-slate-600 hover:bg-slate-200 disabled:opacity-50"
                  >
                    <ChevronRightIcon size={16} className={cn('transition-transform', open && 'rotate-90')} />
                  </button>
                ) : (
                  <span aria-hidden="true" className="flex h-8 w-8 shrink-0 items-center justify-center text-slate-300">
                    •
                  </span>
                )}
                {/* Phones: the badges go under the name, which keeps the whole line. */}
                <div className="flex min-w-0 flex-1 flex-col gap-1 py-1.5 sm:flex-row sm:items-center sm:gap-2 sm:py-0">
                  <span
                    className={cn(
                      'min-w-0 text-sm sm:flex-1 sm:truncate',
                      matches ? 'font-bold text-primary-900' : 'text-slate-900',
                    )}
                  >
                    {node.name}
                  </span>
                  {typeof books === 'number' || parents > 1 ? (
                    <span className="flex flex-wrap gap-1">
                      {typeof books === 'number' ? (
                        <Badge title="Manuels dans cette catégorie">
                          {books} manuel{books > 1 ? 's' : ''}
                        </Badge>
                      ) : null}
                      {parents > 1 ? <Badge tone="ocean">{parents} parents</Badge> : null}
                    </span>
                  ) : null}
                </div>
                {/* Phones: the actions take a line of their own under the name, which keeps its width. */}
                <div className="flex w-full flex-wrap items-center justify-end sm:w-auto sm:shrink-0 sm:flex-nowrap">
                  <IconButton label={`Détails de ${node.name}`} onClick={() => setDetails(node)}>
                    <InfoIcon size={16} />
                  </IconButton>
                  {isAdmin ? (
                    <IconButton
                      label={`Ajouter un parent à ${node.name}`}
                      onClick={() => setAdding({ category: node })}
                    >
                      <PlusIcon size={16} />
                    </IconButton>
                  ) : null}
                  {isAdmin && parent ? (
                    <IconButton
                      label={`Retirer ${node.name} du parent ${parent.name}`}
                      tone="danger"
                      disabled={remove.isPending}
                      onClick={() => setRemoving({ category: node, parent: { id: parent.id, name: parent.name } })}
                    >
                      <CloseIcon size={16} />
                    </IconButton>
                  ) : null}
                  {rowActions?.(node, parent, items)}
                </div>
              </div>
              {hasChildren && open ? renderNodes(node.children ?? [], level + 1, ids, node) : null}
            </li>
          );
        })}
      </ul>
    );
  };

  return (
    <div>
      <div className="flex flex-col gap-3">
        <div>
          <label htmlFor={searchId} className="mb-1.5 block text-sm font-medium text-slate-800">
            Rechercher une catégorie
          </label>
          <div className="relative">
            <SearchIcon
              size={18}
              className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-slate-400"
            />
            <input
              id={searchId}
              type="search"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              placeholder="Ex. : Mathématiques"
              className="block h-11 w-full rounded-lg border border-slate-300 bg-white pr-3 pl-10 text-base focus:border-primary-600 focus:ring-2 focus:ring-primary-100 focus:outline-none sm:text-sm"
            />
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" onClick={expandAll} disabled={Boolean(visible)}>
            Tout déplier
          </Button>
          <Button variant="outline" size="sm" onClick={() => setExpanded(new Set())} disabled={Boolean(visible)}>
            Tout replier
          </Button>
          <Button
            variant="outline"
            size="sm"
            leftIcon={<RefreshIcon size={16} />}
            loading={hierarchy.isFetching}
            onClick={() => void hierarchy.refetch()}
          >
            Actualiser
          </Button>
          {toolbar}
        </div>
      </div>

      <div
        className="mt-4 overflow-hidden rounded-xl border border-slate-200 bg-white"
        aria-busy={hierarchy.isFetching}
      >
        {hierarchy.isError && !hierarchy.data ? (
          <div className="p-4">
            <Alert
              tone="error"
              title={messages.hierarchyError}
              action={
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => void hierarchy.refetch()}
                  loading={hierarchy.isFetching}
                >
                  Réessayer
                </Button>
              }
            >
              {errorMessage(hierarchy.error, 'Vérifiez votre connexion internet puis réessayez.')}
            </Alert>
          </div>
        ) : !hierarchy.data ? (
          <div className="space-y-2 p-4">
            <span className="sr-only" role="status">
              Chargement de la hiérarchie…
            </span>
            {['a', 'b', 'c', 'd'].map((key) => (
              <Skeleton key={key} className="h-8 w-full" />
            ))}
          </div>
        ) : roots.length === 0 ? (
          <EmptyState icon={<LayersIcon size={26} />} title={messages.noRoots} className="border-0" />
        ) : visible && visible.size === 0 ? (
          <p className="p-6 text-center text-sm text-slate-600">Aucune catégorie ne correspond à « {search} ».</p>
        ) : (
          renderNodes(roots, 0, [], null)
        )}
      </div>

      <DetailsDialog category={details} onClose={() => setDetails(null)} />
      <AddParentDialog target={adding} roots={roots} onClose={() => setAdding(null)} />
      <LazyConfirmDialog
        open={removing !== null}
        title="Retirer ce parent ?"
        description={
          removing
            ? `« ${removing.category.name} » ne sera plus rangée sous « ${removing.parent.name} ». Ses autres parents sont gardés.`
            : undefined
        }
        confirmLabel="Retirer le parent"
        loading={remove.isPending}
        onConfirm={() => removing && remove.mutate({ categoryId: removing.category.id, parentId: removing.parent.id })}
        onCancel={() => setRemoving(null)}
      />
    </div>
  );
}

function RefList({ title, items }: { title: string; items: CategoryNodeRef[] }) {
  return (
    <div>
      <h3 className="text-sm font-semibold text-slate-900">
        {title} <span className="font-normal text-slate-500">({items.length})</span>
      </h3>
      {items.length ? (
        <ul className="mt-1.5 flex flex-wrap gap-1.5">
          {items.map((item) => (
            <li key={item.id}>
              <Badge>
                {item.name}
                {typeof item.depth === 'number' ? <span className="text-slate-500">· niv. {item.depth}</span> : null}
              </Badge>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-1 text-sm text-slate-500">Aucune</p>
      )}
    </div>
  );
}

function DetailsDialog({ category, onClose }: { category: Category | null; onClose: () => void }) {
  const details = useQuery(categoryDetailsQuery(category?.id ?? null));
  return (
    <LazyDialog
      open={category !== null}
      onClose={onClose}
      title={category ? `Détails : ${category.name}` : ''}
      size="lg"
    >
      {details.isError ? (
        <Alert tone="error" title={messages.detailsError}>
          {errorMessage(details.error, 'Réessayez dans un instant.')}
        </Alert>
      ) : !details.data ? (
        <div className="flex justify-center py-6 text-primary-700">
          <Spinner label="Chargement des détails…" />
        </div>
      ) : (
        <div className="space-y-4">
          <p className="text-sm text-slate-600">
            Identifiant {details.data.category.id}
            {typeof details.data.category.depth === 'number' ? ` · profondeur ${details.data.category.depth}` : ''}
          </p>
          <RefList title="Parents directs" items={details.data.direct_parents} />
          <RefList title="Enfants directs" items={details.data.direct_children} />
          <RefList title="Tous les ancêtres" items={details.data.all_ancestors} />
          <RefList title="Tous les descendants" items={details.data.all_descendants} />
        </div>
      )}
    </LazyDialog>
  );
}

function AddParentDialog({
  target,
  roots,
  onClose,
}: {
  target: Target | null;
  roots: Category[];
  onClose: () => void;
}) {
  const [parent, setParent] = useState<number[]>([]);
  const [error, setError] = useState<string | undefined>();
  const category = target?.category;
  // Not itself, nor one of its descendants (a cycle), nor a parent it already has.
  const exclude = useMemo(() => {
    if (!category) return new Set<number>();
    const ids = descendantIds(roots, category.id);
    for (const entry of flattenTree(roots)) {
      if (entry.category.id === category.id && entry.parentId !== null) ids.add(entry.parentId);
    }
    return ids;
  }, [roots, category]);

  const close = () => {
    setParent([]);
    setError(undefined);
    onClose();
  };

  const add = useAddParent({
    onSuccess: (data) => {
      void notify.success(data?.message ?? messages.addParentSuccess);
      close();
    },
    onError: (failure) => {
      const message = errorMessage(failure, messages.addParentError);
      setError(message);
      void notify.error(message);
    },
  });

  return (
    <LazyDialog
      open={target !== null}
      onClose={add.isPending ? () => {} : close}
      title="Ajouter un parent"
      description={category ? `« ${category.name} » apparaîtra aussi sous la catégorie choisie.` : undefined}
      size="lg"
      footer={
        <>
          <Button variant="outline" onClick={close} disabled={add.isPending}>
            Annuler
          </Button>
          <Button
            onClick={() => {
              if (!parent[0]) {
                setError('Choisissez la catégorie parente');
                return;
              }
              add.mutate({ categoryId: category?.id as number, parentId: parent[0] as number });
            }}
            loading={add.isPending}
          >
            Ajouter le parent
          </Button>
        </>
      }
    >
      <div className="min-h-[24rem]">
        <CategorySelector
          categories={roots}
          value={parent}
          onChange={(ids) => {
            setParent(ids);
            setError(undefined);
          }}
          multiple={false}
          exclude={exclude}
          label="Catégorie parente"
          placeholder="Sélectionner une catégorie..."
          error={error}
        />
      </div>
    </LazyDialog>
  );
}
