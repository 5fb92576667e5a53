import { classListCreateRequestSchema, schoolYearOf } from '@cartable/contracts';
import {
  classListKindLabels,
  classListKinds,
  classListStatuses,
  classListStatusLabels,
} from '@cartable/contracts/labels';
import { Button, errorMessage, Input, notify, Select, Textarea, useCities } from '@cartable/ui';
import { useCategoryHierarchy } from '@cartable/ui/categories';
import { Dialog } from '@cartable/ui/overlays';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { type ClassList, type ClassListDetail, useCreateList, useUpdateList } from '../api/class-lists';
import { LevelOptions, levelGroups } from '../levels';
import { applyServerErrors, nullIfEmpty } from './server-errors';

const GABON = 266;

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
