import { classListCopyRequestSchema, schoolYearOf } from '@cartable/contracts';
import { Button, errorMessage, Input, notify } from '@cartable/ui';
import { Dialog } from '@cartable/ui/overlays';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId } from 'react';
import { useForm } from 'react-hook-form';
import { type ClassList, type ClassListDetail, useCopyList } from '../api/class-lists';
import { applyServerErrors } from './server-errors';

const copyResolver = zodResolver(classListCopyRequestSchema);

function nextYear(year: string) {
  const [a] = year.split('-').map(Number);
  return a ? `${a + 1}-${a + 2}` : schoolYearOf();
}

/** A list copied for another school year, as a draft to read again. */
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
