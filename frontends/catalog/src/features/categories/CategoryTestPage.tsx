import { Alert, Card, Container, cn, PageHeader, useDocumentTitle, useSession } from '@cartable/ui';
import {
  CategoryHierarchyManager,
  CategorySelector,
  entriesById,
  flattenTree,
  useCategoryHierarchy,
} from '@cartable/ui/categories';
import { useMemo, useState } from 'react';
import { messages } from '../../shared/messages';

/** /category-test: the category selector and the hierarchy manager side by side (SPEC section 2). */
export default function CategoryTestPage() {
  useDocumentTitle('Test des catégories');
  const { isAdmin } = useSession();
  const hierarchy = useCategoryHierarchy();
  const [multiple, setMultiple] = useState(true);
  const [value, setValue] = useState<number[]>([]);
  const byId = useMemo(() => entriesById(flattenTree(hierarchy.data ?? [])), [hierarchy.data]);

  const switchMode = (next: boolean) => {
    setMultiple(next);
    if (!next) setValue((v) => v.slice(0, 1));
  };

  return (
    <Container className="py-6 sm:py-10">
      <PageHeader
        title="Test des catégories"
        description="Le sélecteur de catégories et le gestionnaire de la hiérarchie Cycles, Niveaux et Matières."
      />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <Card className="self-start p-4 sm:p-6">
          <h2 className="text-lg font-semibold text-slate-900">Sélecteur de catégories</h2>
          <fieldset className="mt-3 grid grid-cols-2 rounded-lg bg-slate-100 p-1 text-sm">
            <legend className="sr-only">Mode du sélecteur</legend>
            {(
              [
                [false, 'Sélection simple'],
                [true, 'Sélection multiple'],
              ] as const
            ).map(([mode, label]) => (
              <button
                key={label}
                type="button"
                aria-pressed={multiple === mode}
                onClick={() => switchMode(mode)}
                className={cn(
                  'h-9 rounded-md font-medium',
                  multiple === mode ? 'bg-white text-primary-800 shadow-sm' : 'text-slate-600 hover:text-slate-900',
                )}
              >
                {label}
              </button>
            ))}
          </fieldset>
          <div className="mt-4">
            {hierarchy.isError && !hierarchy.data ? (
              <Alert tone="error" title={messages.categoriesError} />
            ) : (
              <CategorySelector
                categories={hierarchy.data ?? []}
                loading={hierarchy.isPending}
                value={value}
                onChange={setValue}
                multiple={multiple}
                label={multiple ? 'Catégories' : 'Catégorie'}
              />
            )}
          </div>
          <div className="mt-4 rounded-lg bg-slate-50 p-3 text-sm" aria-live="polite">
            <p className="font-medium text-slate-800">Valeur sélectionnée</p>
            {value.length === 0 ? (
              <p className="mt-1 text-slate-500">Aucune catégorie</p>
            ) : (
              <ul className="mt-1 space-y-1">
                {value.map((id) => (
                  <li key={id} className="text-slate-700">
                    <code className="mr-2 rounded bg-white px-1.5 py-0.5 text-xs">{id}</code>
                    {byId.get(id)?.path.join(' › ') ?? `Catégorie ${id}`}
                  </li>
                ))}
              </ul>
            )}
          </div>
        </Card>
        <Card className="p-4 sm:p-6">
          <h2 className="text-lg font-semibold text-slate-900">Gestionnaire de hiérarchie</h2>
          <p className="mt-1 mb-4 text-sm text-slate-600">
            {isAdmin
              ? 'Une catégorie peut avoir plusieurs parents : ajoutez-en ou retirez-en depuis l’arbre.'
              : 'Parcourez l’arbre des catégories. Seuls les administrateurs peuvent modifier les parents.'}
          </p>
          <CategoryHierarchyManager />
        </Card>
      </div>
    </Container>
  );
}
