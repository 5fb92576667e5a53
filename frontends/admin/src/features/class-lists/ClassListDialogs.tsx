import {
  classListCopyRequestSchema,
  classListCreateRequestSchema,
  classListCsvColumns,
  classListItemRequestSchema,
  schoolYearOf,
} from '@cartable/contracts';
import {
  classListKindLabels,
  classListKinds,
  classListStatuses,
  classListStatusLabels,
} from '@cartable/contracts/labels';
import { ApiError, Button, errorMessage, Input, notify, Select, Textarea, useCities } from '@cartable/ui';
import { type Category, useCategoryHierarchy } from '@cartable/ui/categories';
import { Dialog } from '@cartable/ui/overlays';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo } from 'react';
import { type FieldValues, type Path, type UseFormSetError, useForm } from 'react-hook-form';
import { CsvImportDialog, type CsvRowNames } from '../../shared/CsvImportDialog';
import {
  adminClassListKeys,
  type ClassList,
  type ClassListDetail,
  type ClassListItem,
  importItems,
  useCopyList,
  useCreateList,
  useSaveItem,
  useUpdateList,
} from './api/class-lists';

const GABON = 266;

// ── levels and subjects from the category tree ───────────────────────────────────────────────

export interface LevelGroup {
  cycle: Category;
  levels: Category[];
}

/** Each level, or its series when it has some (« Terminale D »): what a list is for. */
export function levelGroups(tree: Category[] | undefined): LevelGroup[] {
  return (tree ?? [])
    .map((cycle) => ({
      cycle,
      levels: (cycle.children ?? []).flatMap((level) => {
        const series = (level.children ?? []).filter((c) => c.name.startsWith(`${level.name} `));
        return series.length ? series : [level];
      }),
    }))
    .filter((g) => g.levels.length > 0);
}

function subjectsOf(tree: Category[] | undefined, levelId: number | null): Category[] {
  const visit = (nodes: Category[]): Category | undefined => {
    for (const node of nodes) {
      if (node.id === levelId) return node;
      const inner = visit(node.children ?? []);
      if (inner) return inner;
    }
    return undefined;
  };
  const level = levelId ? visit(tree ?? []) : undefined;
  return (level?.children ?? []).filter((c) => !c.name.startsWith(`${level?.name} `));
}

export function LevelOptions({ groups }: { groups: LevelGroup[] }) {
  return (
    <>
      {groups.map((g) => (
        <optgroup key={g.cycle.id} label={g.cycle.name}>
          {g.levels.map((l) => (
            <option key={l.id} value={l.id}>
              {l.name}
            </option>
          ))}
        </optgroup>
      ))}
    </>
  );
}

/** Server field errors on the form's fields; true when one was placed. */
function applyServerErrors<T extends FieldValues>(
  error: unknown,
  fields: readonly string[],
  setError: UseFormSetError<T>,
) {
  let applied = false;
  if (error instanceof ApiError) {
    for (const field of fields) {
      const message = error.fieldError(field);
      if (message) {
        setError(field as Path<T>, { type: 'server', message });
        applied = true;
      }
    }
  }
  return applied;
}

const nullIfEmpty = (v: string) => (v.trim() === '' ? null : v);

// ── a list ───────────────────────────────────────────────────────────────────────────────────

interface ListForm {
  school_year: string;
  level_id: string;
  kind: 'official' | 'school';
  school_name: string;
  city_id: string;
  source_note: string;
  status: string;
}
const LIST_FIELDS = ['school_year', 'level_id', 'kind', 'school_name', 'city_id', 'source_note', 'status'] as const;
const listResolver = zodResolver(classListCreateRequestSchema);

const toListForm = (list: ClassList | null): ListForm => ({
  school_year: list?.school_year ?? schoolYearOf(),
  level_id: list ? String(list.level.id) : '',
  kind: list?.kind ?? 'official',
  school_name: list?.school_name ?? '',
  city_id: list?.city ? String(list.city.id) : '',
  source_note: list?.source_note ?? '',
  status: list?.status ?? 'draft',
});

const toListBody = (v: ListForm) => ({
  ...v,
  city_id: nullIfEmpty(v.city_id),
  school_name: v.kind === 'school' ? v.school_name : null,
});

/** Create (list null) or edit a list's fields, checked by the contract's schema. */
export function ListFormDialog({
  open,
  list,
  onClose,
  onCreated,
}: {
  open: boolean;
  list: ClassList | null;
  onClose: () => void;
  onCreated?: (list: ClassListDetail) => void;
}) {
  const formId = useId();
  const hierarchy = useCategoryHierarchy();
  const groups = useMemo(() => levelGroups(hierarchy.data), [hierarchy.data]);
  const cities = useCities(GABON);
  const create = useCreateList();
  const update = useUpdateList();
  const pending = create.isPending || update.isPending;
  const {
    register,
    handleSubmit,
    reset,
    watch,
    setError,
    formState: { errors },
  } = useForm<ListForm>({
    resolver: async (values, context, options) => {
      // The create schema checks the fields; an edit may also set proposed or rejected.
      const checked = await listResolver(
        { ...toListBody(values), status: list ? 'draft' : values.status } as never,
        context,
        options as never,
      );
      return checked.errors && Object.keys(checked.errors).length ? (checked as never) : { values, errors: {} };
    },
    defaultValues: toListForm(list),
  });
  useEffect(() => {
    if (open) reset(toListForm(list));
  }, [open, list, reset]);
  const kind = watch('kind');

  const submit = handleSubmit((values) => {
    const body = {
      ...toListBody(values),
      level_id: Number(values.level_id),
      city_id: values.city_id ? Number(values.city_id) : null,
    };
    const handlers = {
      onError: (error: unknown) => {
        applyServerErrors(error, LIST_FIELDS, setError);
        void notify.error(errorMessage(error, 'La liste n’a pas pu être enregistrée.'));
      },
    };
    if (list) {
      update.mutate(
        { id: list.id, body: body as never },
        {
          ...handlers,
          onSuccess: (answer) => {
            void notify.success(answer.message);
            onClose();
          },
        },
      );
    } else {
      create.mutate(body as never, {
        ...handlers,
        onSuccess: (answer) => {
          void notify.success(answer.message);
          onClose();
          if (answer.list) onCreated?.(answer.list);
        },
      });
    }
  });

  return (
    <Dialog
      open={open}
      onClose={() => (pending ? undefined : onClose())}
      title={list ? `Modifier la liste ${list.level.name} ${list.school_year}` : 'Nouvelle liste de manuels'}
      size="lg"
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={pending}>
            Annuler
          </Button>
          <Button type="submit" form={formId} loading={pending}>
            {list ? 'Enregistrer' : 'Créer la liste'}
          </Button>
        </>
      }
    >
      <form id={formId} noValidate className="grid grid-cols-1 gap-4 sm:grid-cols-2" onSubmit={(e) => void submit(e)}>
        <Select label="Classe" error={errors.level_id?.message} {...register('level_id')}>
          <option value="">{hierarchy.data ? 'Choisissez la classe' : 'Chargement…'}</option>
          <LevelOptions groups={groups} />
        </Select>
        <Input
          label="Année scolaire"
          placeholder="2026-2027"
          error={errors.school_year?.message}
          {...register('school_year')}
        />
        <Select label="Type" error={errors.kind?.message} {...register('kind')}>
          {classListKinds.map((k) => (
            <option key={k} value={k}>
              {classListKindLabels[k]}
            </option>
          ))}
        </Select>
        {kind === 'school' ? (
          <Input
            label="Établissement"
            maxLength={120}
            error={errors.school_name?.message}
            {...register('school_name')}
          />
        ) : null}
        <Select label="Ville" error={errors.city_id?.message} {...register('city_id')}>
          <option value="">Aucune</option>
          {(cities.data ?? []).map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </Select>
        <Select label="État" error={errors.status?.message} {...register('status')}>
          {(list ? classListStatuses : (['draft', 'published'] as const)).map((s) => (
            <option key={s} value={s}>
              {classListStatusLabels[s]}
            </option>
          ))}
        </Select>
        <Textarea
          label="Source"
          rows={2}
          className="sm:col-span-2"
          placeholder="Liste IPN 2026-2027, circulaire n°…"
          error={errors.source_note?.message}
          {...register('source_note')}
        />
      </form>
    </Dialog>
  );
}

// ── a book of the list ───────────────────────────────────────────────────────────────────────

interface ItemForm {
  title: string;
  author: string;
  publisher: string;
  edition: string;
  year: string;
  isbn: string;
  subject_id: string;
  requirement: 'required' | 'recommended';
  position: string;
}
const ITEM_FIELDS = [
  'title',
  'author',
  'publisher',
  'edition',
  'year',
  'isbn',
  'subject_id',
  'requirement',
  'position',
] as const;
const itemResolver = zodResolver(classListItemRequestSchema);

const toItemForm = (item: ClassListItem | null): ItemForm => ({
  title: item?.title ?? '',
  author: item?.author ?? '',
  publisher: item?.publisher ?? '',
  edition: item?.edition ?? '',
  year: item?.year ? String(item.year) : '',
  isbn: item?.isbn ?? '',
  subject_id: item?.subject ? String(item.subject.id) : '',
  requirement: item?.requirement ?? 'required',
  position: item ? String(item.position) : '',
});

const toItemBody = (v: ItemForm) => {
  const { position, ...rest } = v;
  return { ...rest, subject_id: nullIfEmpty(v.subject_id), ...(position.trim() ? { position } : {}) };
};

/** Add (item null) or edit a book of a list. */
export function ItemFormDialog({
  open,
  list,
  item,
  onClose,
}: {
  open: boolean;
  list: ClassListDetail;
  item: ClassListItem | null;
  onClose: () => void;
}) {
  const formId = useId();
  const hierarchy = useCategoryHierarchy();
  const subjects = useMemo(() => subjectsOf(hierarchy.data, list.level.id), [hierarchy.data, list.level.id]);
  const save = useSaveItem();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<ItemForm>({
    resolver: async (values, context, options) => {
      const checked = await itemResolver(toItemBody(values) as never, context, options as never);
      return checked.errors && Object.keys(checked.errors).length ? (checked as never) : { values, errors: {} };
    },
    defaultValues: toItemForm(item),
  });
  useEffect(() => {
    if (open) reset(toItemForm(item));
  }, [open, item, reset]);

  const submit = handleSubmit((values) => {
    const parsed = classListItemRequestSchema.parse(toItemBody(values));
    save.mutate(
      { listId: list.id, itemId: item?.id, body: parsed },
      {
        onSuccess: (answer) => {
          void notify.success(answer.message);
          onClose();
        },
        onError: (error) => {
          applyServerErrors(error, ITEM_FIELDS, setError);
          void notify.error(errorMessage(error, 'Le manuel n’a pas pu être enregistré.'));
        },
      },
    );
  });

  return (
    <Dialog
      open={open}
      onClose={() => (save.isPending ? undefined : onClose())}
      title={item ? `Modifier « ${item.title} »` : `Ajouter un manuel (${list.level.name})`}
      size="lg"
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={save.isPending}>
            Annuler
          </Button>
          <Button type="submit" form={formId} loading={save.isPending}>
            {item ? 'Enregistrer' : 'Ajouter'}
          </Button>
        </>
      }
    >
      <form id={formId} noValidate className="grid grid-cols-1 gap-4 sm:grid-cols-2" onSubmit={(e) => void submit(e)}>
        <Input label="Titre" className="sm:col-span-2" error={errors.title?.message} {...register('title')} />
        <Input label="Auteur" error={errors.author?.message} {...register('author')} />
        <Input label="Éditeur" error={errors.publisher?.message} {...register('publisher')} />
        <Input
          label="Édition"
          placeholder="Nouvelle édition"
          error={errors.edition?.message}
          {...register('edition')}
        />
        <Input label="Année" inputMode="numeric" maxLength={4} error={errors.year?.message} {...register('year')} />
        <Input label="ISBN" inputMode="numeric" error={errors.isbn?.message} {...register('isbn')} />
        <Select label="Matière" error={errors.subject_id?.message} {...register('subject_id')}>
          <option value="">Aucune</option>
          {subjects.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </Select>
        <Select label="Obligatoire ?" error={errors.requirement?.message} {...register('requirement')}>
          <option value="required">Obligatoire</option>
          <option value="recommended">Conseillé</option>
        </Select>
        <Input
          label="Position"
          inputMode="numeric"
          hint="Vide : à la fin"
          error={errors.position?.message}
          {...register('position')}
        />
      </form>
    </Dialog>
  );
}

// ── copy to another school year ──────────────────────────────────────────────────────────────

const copyResolver = zodResolver(classListCopyRequestSchema);

function nextYear(year: string) {
  const [a] = year.split('-').map(Number);
  return a ? `${a + 1}-${a + 2}` : schoolYearOf();
}

export function CopyListDialog({
  open,
  list,
  onClose,
  onCopied,
}: {
  open: boolean;
  list: ClassList;
  onClose: () => void;
  onCopied: (copy: ClassListDetail) => void;
}) {
  const formId = useId();
  const copy = useCopyList();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<{ school_year: string }>({
    resolver: copyResolver as never,
    defaultValues: { school_year: nextYear(list.school_year) },
  });
  useEffect(() => {
    if (open) reset({ school_year: nextYear(list.school_year) });
  }, [open, list, reset]);
  const submit = handleSubmit((values) =>
    copy.mutate(
      { id: list.id, school_year: values.school_year },
      {
        onSuccess: (answer) => {
          void notify.success(answer.message);
          onClose();
          if (answer.list) onCopied(answer.list);
        },
        onError: (error) => {
          applyServerErrors(error, ['school_year'], setError);
          void notify.error(errorMessage(error, 'La liste n’a pas pu être copiée.'));
        },
      },
    ),
  );
  return (
    <Dialog
      open={open}
      onClose={() => (copy.isPending ? undefined : onClose())}
      title="Copier pour une nouvelle année"
      description={`Les ${list.items_count} manuels de la liste ${list.level.name} ${list.school_year} dans une nouvelle liste (brouillon), à relire avant de la publier.`}
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={copy.isPending}>
            Annuler
          </Button>
          <Button type="submit" form={formId} loading={copy.isPending}>
            Copier
          </Button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={(e) => void submit(e)}>
        <Input
          label="Nouvelle année scolaire"
          placeholder="2027-2028"
          error={errors.school_year?.message}
          {...register('school_year')}
        />
      </form>
    </Dialog>
  );
}

// ── CSV import ───────────────────────────────────────────────────────────────────────────────

const bookNames: CsvRowNames = {
  count: (n) => `${n} manuel${n > 1 ? 's' : ''}`,
  imported: (n) => `importé${n > 1 ? 's' : ''}`,
};

/** The CSV import of a list's books (CsvImportDialog); a subject is read by its name among the level's. */
export function ImportItemsDialog({ open, list, onClose }: { open: boolean; list: ClassList; onClose: () => void }) {
  const queryClient = useQueryClient();
  return (
    <CsvImportDialog
      open={open}
      onClose={onClose}
      title={`Importer des manuels (${list.level.name} ${list.school_year})`}
      description={`Colonnes : ${classListCsvColumns.join(' ; ')} (required : oui/non) ; séparateur ; ou , ; UTF-8. La première ligne peut être un en-tête. La matière se lit par son nom.`}
      names={bookNames}
      send={(file, dryRun) => importItems(list.id, file, dryRun)}
      onImported={(report) => {
        void queryClient.invalidateQueries({ queryKey: adminClassListKeys.all });
        void notify.success(`${bookNames.count(report.imported)} ${bookNames.imported(report.imported)}`);
      }}
      renderRow={(row) => (
        <>
          {row.title}
          <span className="text-slate-500">
            {[row.author, row.publisher, row.year, row.isbn, row.subject?.name]
              .filter(Boolean)
              .map((v) => ` · ${v}`)
              .join('')}
            {row.requirement === 'recommended' ? ' · conseillé' : ''}
          </span>
        </>
      )}
    />
  );
}
