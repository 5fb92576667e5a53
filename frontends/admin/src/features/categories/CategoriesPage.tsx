import {
  Button,
  ChevronDownIcon,
  errorMessage,
  Input,
  notify,
  PageHeader,
  PencilIcon,
  PlusIcon,
  Skeleton,
  SwapIcon,
  TrashIcon,
  useDocumentTitle,
  useSession,
} from '@cartable/ui';
import {
  type Category,
  CategoryHierarchyManager,
  CategorySelector,
  descendantIds,
  TreeIconButton,
  useCategoryHierarchy,
} from '@cartable/ui/categories';
import { ConfirmDialog, Dialog } from '@cartable/ui/overlays';
import { type FormEvent, useMemo, useState } from 'react';
import { categoryCalls, useCategoryChange, useCategoryStats } from './api/categories';

type Editing =
  | { kind: 'create'; parent: Category | null }
  | { kind: 'rename'; category: Category }
  | { kind: 'move'; category: Category }
  | { kind: 'delete'; category: Category };

const whole = new Intl.NumberFormat('fr-FR');

function Stats() {
  const stats = useCategoryStats();
  const cards: Array<[string, number | undefined]> = [
    ['Catégories', stats.data?.total],
    ['Racines (cycles)', stats.data?.roots],
    ['Feuilles (matières)', stats.data?.leaves],
    ['Profondeur maximale', stats.data?.max_depth],
    ['Avec des manuels', stats.data?.with_books],
  ];
  if (stats.isError) return null;
  return (
    <ul className="mb-5 grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-5" aria-label="Statistiques des catégories">
      {cards.map(([label, value]) => (
        <li key={label} className="rounded-xl border border-slate-200 bg-white p-3 shadow-sm">
          <span className="block text-xs font-medium text-slate-500">{label}</span>
          {value === undefined ? (
            <Skeleton className="mt-1 h-7 w-10" />
          ) : (
            <span className="block text-2xl font-bold text-slate-900">{whole.format(value)}</span>
          )}
        </li>
      ))}
    </ul>
  );
}

/**
 * Gestion des Cycles, Niveaux et Matières (categories.update; parent changes for admins, SPEC
 * section 6): the shared hierarchy manager, plus create, rename, reorder, move and delete.
 */
export default function CategoriesPage() {
  useDocumentTitle('Gestion des Cycles, Niveaux et Matières · Administration');
  const { isAdmin } = useSession();
  const hierarchy = useCategoryHierarchy();
  const roots = hierarchy.data ?? [];
  const [editing, setEditing] = useState<Editing | null>(null);
  const close = () => setEditing(null);
  const failed = (fallback: string) => (error: unknown) => void notify.error(errorMessage(error, fallback));

  const remove = useCategoryChange(categoryCalls.remove, {
    onSuccess: (answer) => {
      close();
      void notify.success(answer.message ?? 'Catégorie supprimée avec succès');
    },
    onError: (error) => {
      close();
      failed('Erreur lors de la suppression de la catégorie')(error);
    },
  });
  const reorder = useCategoryChange(categoryCalls.reorder, {
    onSuccess: () => void notify.success('Ordre enregistré avec succès'),
    onError: failed('Erreur lors du changement d’ordre'),
  });

  /** Swaps a category with its neighbour among the siblings shown, then numbers them all again. */
  const shift = (category: Category, siblings: Category[], step: -1 | 1) => {
    const ids = siblings.map((s) => s.id);
    const at = ids.indexOf(category.id);
    const to = at + step;
    if (at < 0 || to < 0 || to >= ids.length) return;
    [ids[at], ids[to]] = [ids[to]!, ids[at]!];
    reorder.mutate({ order: ids.map((id, index) => ({ id, order: index + 1 })) });
  };

  const rowActions = (category: Category, parent: Category | null, siblings: Category[]) => {
    const at = siblings.findIndex((s) => s.id === category.id);
    return (
      <>
        <TreeIconButton
          label={`Ajouter une sous-catégorie à ${category.name}`}
          onClick={() => setEditing({ kind: 'create', parent: category })}
        >
          <PlusIcon size={16} className="text-primary-700" />
        </TreeIconButton>
        <TreeIconButton label={`Renommer ${category.name}`} onClick={() => setEditing({ kind: 'rename', category })}>
          <PencilIcon size={16} />
        </TreeIconButton>
        <TreeIconButton
          label={`Monter ${category.name}${parent ? ` dans ${parent.name}` : ''}`}
          disabled={at <= 0 || reorder.isPending}
          onClick={() => shift(category, siblings, -1)}
        >
          <ChevronDownIcon size={16} className="rotate-180" />
        </TreeIconButton>
        <TreeIconButton
          label={`Descendre ${category.name}${parent ? ` dans ${parent.name}` : ''}`}
          disabled={at < 0 || at >= siblings.length - 1 || reorder.isPending}
          onClick={() => shift(category, siblings, 1)}
        >
          <ChevronDownIcon size={16} />
        </TreeIconButton>
        {isAdmin ? (
          <TreeIconButton label={`Déplacer ${category.name}`} onClick={() => setEditing({ kind: 'move', category })}>
            <SwapIcon size={16} />
          </TreeIconButton>
        ) : null}
        <TreeIconButton
          label={`Supprimer ${category.name}`}
          tone="danger"
          onClick={() => setEditing({ kind: 'delete', category })}
        >
          <TrashIcon size={16} />
        </TreeIconButton>
      </>
    );
  };

  return (
    <>
      <PageHeader
        title="Gestion des Cycles, Niveaux et Matières"
        description="Les cycles, leurs niveaux et les matières : l’arbre que les parents parcourent pour trouver un manuel."
      />
      <Stats />
      <CategoryHierarchyManager
        rowActions={rowActions}
        toolbar={
          <Button
            size="sm"
            leftIcon={<PlusIcon size={16} />}
            onClick={() => setEditing({ kind: 'create', parent: null })}
          >
            Nouvelle catégorie
          </Button>
        }
      />
      {editing?.kind === 'create' || editing?.kind === 'rename' ? (
        <NameDialog editing={editing} roots={roots} onClose={close} />
      ) : null}
      {editing?.kind === 'move' ? <MoveDialog category={editing.category} roots={roots} onClose={close} /> : null}
      <ConfirmDialog
        open={editing?.kind === 'delete'}
        title="Supprimer cette catégorie ?"
        description={
          editing?.kind === 'delete'
            ? `« ${editing.category.name} » sera supprimée définitivement. Une catégorie qui a des sous-catégories ou des manuels ne peut pas l’être.`
            : undefined
        }
        confirmLabel="Supprimer"
        loading={remove.isPending}
        onConfirm={() => editing?.kind === 'delete' && remove.mutate({ id: editing.category.id })}
        onCancel={close}
      />
    </>
  );
}

function NameDialog({
  editing,
  roots,
  onClose,
}: {
  editing: Extract<Editing, { kind: 'create' | 'rename' }>;
  roots: Category[];
  onClose: () => void;
}) {
  const creating = editing.kind === 'create';
  const [name, setName] = useState(creating ? '' : editing.category.name);
  const [parent, setParent] = useState<number[]>(creating && editing.parent ? [editing.parent.id] : []);
  const [error, setError] = useState<string | undefined>();
  const save = useCategoryChange(
    (body: { name: string; parent_id: number | null }) =>
      creating ? categoryCalls.create(body) : categoryCalls.rename({ id: editing.category.id, name: body.name }),
    {
      onSuccess: (answer) => {
        void notify.success(
          answer.message ?? (creating ? 'Catégorie créée avec succès' : 'Catégorie renommée avec succès'),
        );
        onClose();
      },
      onError: (failure) => {
        const message = errorMessage(
          failure,
          creating ? 'Erreur lors de la création de la catégorie' : 'Erreur lors du renommage',
        );
        setError(message);
        void notify.error(message);
      },
    },
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed.length < 2) {
      setError('Le nom doit contenir au moins 2 caractères');
      return;
    }
    save.mutate({ name: trimmed, parent_id: parent[0] ?? null });
  };

  return (
    <Dialog
      open
      onClose={save.isPending ? () => {} : onClose}
      title={creating ? 'Nouvelle catégorie' : `Renommer « ${editing.category.name} »`}
      size="lg"
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={save.isPending}>
            Annuler
          </Button>
          <Button type="submit" form="category-name-form" loading={save.isPending}>
            {creating ? 'Créer la catégorie' : 'Renommer'}
          </Button>
        </>
      }
    >
      <form id="category-name-form" onSubmit={submit} className="space-y-4" noValidate>
        <Input
          label="Nom"
          value={name}
          maxLength={80}
          autoFocus
          onChange={(event) => {
            setName(event.target.value);
            setError(undefined);
          }}
          error={error}
        />
        {creating ? (
          <div className="min-h-[20rem]">
            <CategorySelector
              categories={roots}
              value={parent}
              onChange={setParent}
              multiple={false}
              label="Catégorie parente (facultatif)"
              hint="Sans parent, la catégorie est une racine (un cycle)."
              placeholder="Sélectionner des catégories..."
            />
          </div>
        ) : null}
      </form>
    </Dialog>
  );
}

function MoveDialog({ category, roots, onClose }: { category: Category; roots: Category[]; onClose: () => void }) {
  const [parent, setParent] = useState<number[]>([]);
  const [toRoot, setToRoot] = useState(false);
  const [error, setError] = useState<string | undefined>();
  // Not under itself nor under one of its descendants (a cycle).
  const exclude = useMemo(() => descendantIds(roots, category.id), [roots, category.id]);
  const move = useCategoryChange(categoryCalls.move, {
    onSuccess: () => {
      void notify.success('Catégorie déplacée avec succès');
      onClose();
    },
    onError: (failure) => {
      const message = errorMessage(failure, 'Erreur lors du déplacement de la catégorie');
      setError(message);
      void notify.error(message);
    },
  });
  return (
    <Dialog
      open
      onClose={move.isPending ? () => {} : onClose}
      title={`Déplacer « ${category.name} »`}
      description="La catégorie quitte tous ses parents actuels pour celui choisi, avec ses sous-catégories."
      size="lg"
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={move.isPending}>
            Annuler
          </Button>
          <Button
            loading={move.isPending}
            onClick={() => {
              if (!toRoot && !parent[0]) {
                setError('Choisissez la nouvelle catégorie parente');
                return;
              }
              move.mutate({ id: category.id, parent_id: toRoot ? null : (parent[0] ?? null) });
            }}
          >
            Déplacer
          </Button>
        </>
      }
    >
      <div className="min-h-[22rem] space-y-4">
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input
            type="checkbox"
            className="h-5 w-5 accent-primary-700"
            checked={toRoot}
            onChange={(event) => {
              setToRoot(event.target.checked);
              setError(undefined);
            }}
          />
          En faire une racine (un cycle)
        </label>
        <CategorySelector
          categories={roots}
          value={parent}
          onChange={(ids) => {
            setParent(ids);
            setError(undefined);
          }}
          multiple={false}
          exclude={exclude}
          disabled={toRoot}
          label="Nouvelle catégorie parente"
          placeholder="Sélectionner des catégories..."
          error={error}
        />
      </div>
    </Dialog>
  );
}
