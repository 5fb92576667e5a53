import { classListItemRequestSchema } from '@cartable/contracts';
import { Button, errorMessage, Input, notify, Select } from '@cartable/ui';
import { useCategoryHierarchy } from '@cartable/ui/categories';
import { Dialog } from '@cartable/ui/overlays';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { type ClassListDetail, type ClassListItem, useReplaceItem, useSaveItem } from '../api/class-lists';
import { subjectsOf } from '../levels';
import { applyServerErrors, nullIfEmpty } from './server-errors';

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

/**
 * Add (item null) or edit a book of a list; or replace it (`replace`): the new book takes its
 * place, and the old one counts as withdrawn for the families and the sellers.
 */
export function ItemFormDialog({
  open,
  list,
  item,
  replace = false,
  onClose,
}: {
  open: boolean;
  list: ClassListDetail;
  item: ClassListItem | null;
  replace?: boolean;
  onClose: () => void;
}) {
  const formId = useId();
  const hierarchy = useCategoryHierarchy();
  const subjects = useMemo(() => subjectsOf(hierarchy.data, list.level.id), [hierarchy.data, list.level.id]);
  const edit = useSaveItem();
  const swap = useReplaceItem();
  const save = replace ? swap : edit;
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
    const done = {
      onSuccess: (answer: { message: string }) => {
        void notify.success(answer.message);
        onClose();
      },
      onError: (error: unknown) => {
        applyServerErrors(error, ITEM_FIELDS, setError);
        void notify.error(errorMessage(error, 'Le manuel n’a pas pu être enregistré.'));
      },
    };
    if (replace && item) swap.mutate({ listId: list.id, itemId: item.id, body: parsed }, done);
    else edit.mutate({ listId: list.id, itemId: item?.id, body: parsed }, done);
  });

  return (
    <Dialog
      open={open}
      onClose={() => (save.isPending ? undefined : onClose())}
      title={
        replace && item
          ? `Remplacer « ${item.title} »`
          : item
            ? `Modifier « ${item.title} »`
            : `Ajouter un manuel (${list.level.name})`
      }
      size="lg"
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={save.isPending}>
            Annuler
          </Button>
          <Button type="submit" form={formId} loading={save.isPending}>
            {replace ? 'Remplacer' : item ? 'Enregistrer' : 'Ajouter'}
          </Button>
        </>
      }
    >
      <form id={formId} noValidate className="grid grid-cols-1 gap-4 sm:grid-cols-2" onSubmit={(e) => void submit(e)}>
        {replace ? (
          <p className="text-sm text-slate-600 sm:col-span-2">
            Le manuel actuel est retiré de la liste et celui-ci prend sa place : les familles qui ont enregistré la
            liste et les vendeurs du manuel retiré sont prévenus.
          </p>
        ) : null}
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
