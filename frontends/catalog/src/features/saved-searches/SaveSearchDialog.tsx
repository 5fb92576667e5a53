import {
  type SavedSearchCreateRequest,
  type SavedSearchFrequency,
  savedSearchCreateRequestSchema,
  savedSearchMessages,
} from '@cartable/contracts';
import { Alert, ApiError, Button, cn, errorMessage, Input, type NotifyOptions, notify } from '@cartable/ui';
import { Dialog } from '@cartable/ui/overlays';
import { useNavigate } from '@cartable/ui/router';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { FREQUENCIES, SAVED_SEARCHES_PATH, useCreateSavedSearch } from './api/saved-searches';

interface SaveForm {
  name: string;
  frequency: SavedSearchFrequency;
}

const formSchema = savedSearchCreateRequestSchema.pick({ name: true, frequency: true });
const schemaResolver = zodResolver(formSchema);

/**
 * The save dialog of /books (loaded on the first tap): the name, prefilled from what the search
 * understood (« Mathématiques 6e à Libreville »), and how often to hear of new listings. The
 * filters are the page's whole query string: the server keeps those that filter.
 */
export default function SaveSearchDialog({
  open,
  onClose,
  suggestedName,
  filters,
}: {
  open: boolean;
  onClose: () => void;
  suggestedName: string;
  filters: Record<string, string>;
}) {
  const formId = useId();
  const navigate = useNavigate();
  const create = useCreateSavedSearch();
  const [formError, setFormError] = useState<string | null>(null);
  /** The member typed a name of their own: the suggestion no longer replaces it. */
  const edited = useRef(false);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    setValue,
    formState: { errors },
  } = useForm<SaveForm>({
    resolver: schemaResolver as never,
    defaultValues: { name: suggestedName, frequency: 'instant' },
  });

  // Each opening starts from the current search's name.
  // biome-ignore lint/correctness/useExhaustiveDependencies: on opening only
  useEffect(() => {
    if (open) {
      reset({ name: suggestedName, frequency: 'instant' });
      edited.current = false;
      setFormError(null);
      create.reset();
    }
  }, [open]);

  // What the search understood (or the town's name) may arrive after the opening: an untouched name follows it.
  useEffect(() => {
    if (!edited.current) setValue('name', suggestedName);
  }, [suggestedName, setValue]);

  const submit = handleSubmit((values) => {
    setFormError(null);
    const body: SavedSearchCreateRequest = { ...values, filters };
    create.mutate(body, {
      onSuccess: (answer) => {
        onClose();
        const options: NotifyOptions & { action: { label: string; onClick: () => void } } = {
          description: `« ${answer.saved_search.name} » · ${answer.saved_search.frequency_label}`,
          duration: 8000,
          action: { label: 'Mes recherches', onClick: () => navigate(SAVED_SEARCHES_PATH) },
        };
        void notify.success(answer.message || savedSearchMessages.created, options);
      },
      onError: (failure) => {
        const nameError =
          failure instanceof ApiError
            ? (failure.fieldError('name') ??
              (failure.status === 409 && failure.message === savedSearchMessages.nameTaken
                ? failure.message
                : undefined))
            : undefined;
        if (nameError) setError('name', { message: nameError }, { shouldFocus: true });
        else setFormError(errorMessage(failure, 'La recherche n’a pas pu être enregistrée. Réessayez.'));
      },
    });
  });

  return (
    <Dialog
      open={open}
      onClose={create.isPending ? () => {} : onClose}
      title="Enregistrer cette recherche"
      description="Nous vous prévenons par e-mail et dans vos notifications quand une nouvelle annonce correspond."
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={create.isPending}>
            Annuler
          </Button>
          <Button type="submit" form={formId} loading={create.isPending}>
            Enregistrer
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate className="space-y-4">
        {formError ? (
          <Alert tone="error" title="Recherche non enregistrée">
            {formError}
          </Alert>
        ) : null}
        <Input
          label="Nom de la recherche"
          maxLength={80}
          autoComplete="off"
          error={errors.name?.message}
          {...register('name', {
            onChange: () => {
              edited.current = true;
            },
          })}
        />
        <fieldset>
          <legend className="mb-2 text-sm font-medium text-slate-800">Recevoir les alertes</legend>
          <div className="space-y-2">
            {FREQUENCIES.map((f) => (
              <label
                key={f.value}
                className={cn(
                  'flex cursor-pointer items-start gap-3 rounded-lg border border-slate-200 p-3 has-[:checked]:border-primary-600 has-[:checked]:bg-primary-50',
                )}
              >
                <input
                  type="radio"
                  value={f.value}
                  className="mt-0.5 h-5 w-5 shrink-0 accent-primary-700"
                  {...register('frequency')}
                />
                <span>
                  <span className="block text-sm font-semibold text-slate-900">{f.label}</span>
                  <span className="block text-sm text-slate-600">{f.hint}</span>
                </span>
              </label>
            ))}
          </div>
          {errors.frequency?.message ? <p className="mt-1 text-sm text-red-700">{errors.frequency.message}</p> : null}
        </fieldset>
      </form>
    </Dialog>
  );
}
