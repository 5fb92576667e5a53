import type { ClassListProposalRequest } from '@cartable/contracts';
import {
  Alert,
  ApiError,
  Button,
  buttonClasses,
  Card,
  CheckCircleIcon,
  Container,
  EmptyState,
  errorMessage,
  Input,
  PageHeader,
  PlusIcon,
  Select,
  Textarea,
  TrashIcon,
  useDocumentTitle,
  useSubmissionKey,
} from '@cartable/ui';
import { useCategoryHierarchy } from '@cartable/ui/categories';
import { Link, useSearchParams } from '@cartable/ui/router';
import { useMemo, useRef, useState } from 'react';
import { Controller, useFieldArray, useForm } from 'react-hook-form';
import { levelGroups, subjectsOf } from '../../entities/class-list/levels';
import { useGabonCities } from '../../shared/cities';
import { CitySelect } from '../../shared/components/CitySelect';
import { type ClassListDetail, currentSchoolYear, useProposeList } from './api/class-lists';
import { proposalChecks } from './checks';

interface ItemForm {
  title: string;
  author: string;
  publisher: string;
  year: string;
  isbn: string;
  subject_id: string;
  requirement: 'required' | 'recommended';
}

interface ProposalForm {
  school_year: string;
  level_id: string;
  kind: 'official' | 'school';
  school_name: string;
  city_id: string;
  source_note: string;
  items: ItemForm[];
}

const EMPTY_ITEM: ItemForm = {
  title: '',
  author: '',
  publisher: '',
  year: '',
  isbn: '',
  subject_id: '',
  requirement: 'required',
};

const nullIfEmpty = (v: string) => (v.trim() === '' ? null : v);

/** The form's strings as the contract reads them: an empty choice is « none », not 0. */
function toRequest(values: ProposalForm) {
  return {
    ...values,
    city_id: nullIfEmpty(values.city_id),
    school_name: values.kind === 'school' ? values.school_name : null,
    items: values.items.map((item) => ({ ...item, subject_id: nullIfEmpty(item.subject_id) })),
  };
}

/**
 * « Proposer une liste » (/ma-liste/proposer): a teacher or a school sends the
 * list of a level for a school year with its books (POST /class-lists/proposals); an
 * administrator checks it before it is published.
 */
export default function ProposeListPage() {
  useDocumentTitle('Proposer une liste de manuels');
  const [params] = useSearchParams();
  const hierarchy = useCategoryHierarchy();
  const groups = useMemo(() => levelGroups(hierarchy.data), [hierarchy.data]);
  const cities = useGabonCities();
  const submission = useSubmissionKey();
  const alertRef = useRef<HTMLDivElement>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [sent, setSent] = useState<{ message: string; list: ClassListDetail } | null>(null);

  const {
    register,
    control,
    handleSubmit,
    watch,
    setError,
    formState: { errors },
  } = useForm<ProposalForm, unknown, ClassListProposalRequest>({
    resolver: proposalChecks.resolver(
      (checks) => (values, context, options) =>
        checks.proposalResolver(toRequest(values) as never, context, options as never) as never,
    ),
    defaultValues: {
      school_year: currentSchoolYear(),
      level_id: params.get('level') ?? '',
      kind: 'school',
      school_name: '',
      city_id: '',
      source_note: '',
      items: [{ ...EMPTY_ITEM }],
    },
  });
  const items = useFieldArray({ control, name: 'items' });
  const levelId = Number(watch('level_id')) || null;
  const kind = watch('kind');
  const subjects = useMemo(() => subjectsOf(hierarchy.data, levelId), [hierarchy.data, levelId]);

  const propose = useProposeList({
    onSuccess: (data) => {
      submission.renew();
      setSent(data);
      window.scrollTo({ top: 0 });
    },
    onError: (error) => {
      let applied = 0;
      if (error instanceof ApiError) {
        for (const [key, messages] of Object.entries(error.errors)) {
          const message = messages[0];
          if (!message) continue;
          setError(key as never, { type: 'server', message });
          applied++;
        }
      }
      setFormError(errorMessage(error, 'Votre liste n’a pas pu être envoyée.'));
      if (!applied) requestAnimationFrame(() => alertRef.current?.scrollIntoView({ block: 'center' }));
    },
  });

  const onSubmit = handleSubmit(
    (body) => {
      setFormError(null);
      propose.mutate({ body, key: submission.current() });
    },
    () => setFormError('Veuillez corriger les erreurs dans le formulaire'),
  );

  if (sent) {
    return (
      <Container className="max-w-2xl py-8">
        <EmptyState
          icon={<CheckCircleIcon size={26} />}
          title="Liste envoyée"
          description={sent.message}
          action={
            <Link to={`/ma-liste?level=${sent.list.level.id}`} className={buttonClasses('primary')}>
              Retour à Ma liste
            </Link>
          }
        />
      </Container>
    );
  }

  return (
    <Container className="max-w-3xl py-6 sm:py-8">
      <PageHeader
        title="Proposer une liste de manuels"
        description="Enseignant, directeur ou parent délégué : envoyez la liste de votre classe. Un administrateur la vérifie avant de la publier."
      />
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="space-y-5" {...proposalChecks.loadOnTouch}>
        <div ref={alertRef}>{formError ? <Alert tone="error" title={formError} /> : null}</div>
        <Card className="grid grid-cols-1 gap-4 p-4 sm:grid-cols-2 sm:p-6">
          <Select label="Classe *" error={errors.level_id?.message} {...register('level_id')}>
            <option value="">{hierarchy.data ? 'Choisissez la classe' : 'Chargement…'}</option>
            {groups.map((group) => (
              <optgroup key={group.cycle.id} label={group.cycle.name}>
                {group.levels.map((level) => (
                  <option key={level.id} value={level.id}>
                    {level.name}
                  </option>
                ))}
              </optgroup>
            ))}
          </Select>
          <Input
            label="Année scolaire *"
            placeholder="2026-2027"
            inputMode="numeric"
            error={errors.school_year?.message}
            {...register('school_year')}
          />
          <Select label="Type de liste" error={errors.kind?.message} {...register('kind')}>
            <option value="school">Liste de l’établissement</option>
            <option value="official">Liste officielle (IPN)</option>
          </Select>
          {kind === 'school' ? (
            <Input
              label="Établissement *"
              maxLength={120}
              autoComplete="organization"
              error={errors.school_name?.message}
              {...register('school_name')}
            />
          ) : null}
          <Controller
            control={control}
            name="city_id"
            render={({ field, fieldState }) => (
              <CitySelect
                label="Ville"
                cities={cities.data}
                emptyLabel="Choisissez une ville"
                error={fieldState.error?.message}
                name={field.name}
                ref={field.ref}
                value={field.value}
                onBlur={field.onBlur}
                onChange={(event) => field.onChange(event.target.value)}
              />
            )}
          />
          <Textarea
            label="Qui êtes-vous ? (source)"
            rows={2}
            className="sm:col-span-2"
            placeholder="Ex. : Professeur principal de 6e au lycée…"
            error={errors.source_note?.message}
            {...register('source_note')}
          />
        </Card>

        <section aria-labelledby="proposal-books" className="space-y-3">
          <h2 id="proposal-books" className="text-lg font-semibold text-slate-900">
            Les manuels ({items.fields.length})
          </h2>
          {errors.items?.message || errors.items?.root?.message ? (
            <Alert tone="error" title={errors.items?.message ?? errors.items?.root?.message} />
          ) : null}
          {items.fields.map((field, index) => {
            const e = errors.items?.[index];
            return (
              <Card key={field.id} className="grid grid-cols-1 gap-3 p-4 sm:grid-cols-2" data-testid="proposal-item">
                <div className="flex items-center justify-between sm:col-span-2">
                  <h3 className="font-semibold text-slate-800">Manuel {index + 1}</h3>
                  {items.fields.length > 1 ? (
                    <Button
                      variant="ghost"
                      size="sm"
                      leftIcon={<TrashIcon size={15} />}
                      onClick={() => items.remove(index)}
                    >
                      Retirer<span className="sr-only"> le manuel {index + 1}</span>
                    </Button>
                  ) : null}
                </div>
                <Input
                  label="Titre *"
                  className="sm:col-span-2"
                  autoComplete="off"
                  error={e?.title?.message}
                  {...register(`items.${index}.title`)}
                />
                <Input
                  label="Auteur"
                  autoComplete="off"
                  error={e?.author?.message}
                  {...register(`items.${index}.author`)}
                />
                <Input
                  label="Éditeur"
                  autoComplete="off"
                  error={e?.publisher?.message}
                  {...register(`items.${index}.publisher`)}
                />
                <Input
                  label="Année d’édition"
                  inputMode="numeric"
                  maxLength={4}
                  error={e?.year?.message}
                  {...register(`items.${index}.year`)}
                />
                <Input label="ISBN" inputMode="numeric" error={e?.isbn?.message} {...register(`items.${index}.isbn`)} />
                <Select label="Matière" error={e?.subject_id?.message} {...register(`items.${index}.subject_id`)}>
                  <option value="">{levelId ? 'Choisissez la matière' : 'Choisissez d’abord la classe'}</option>
                  {subjects.map((s) => (
                    <option key={s.id} value={s.id}>
                      {s.name}
                    </option>
                  ))}
                </Select>
                <Select
                  label="Obligatoire ?"
                  error={e?.requirement?.message}
                  {...register(`items.${index}.requirement`)}
                >
                  <option value="required">Obligatoire</option>
                  <option value="recommended">Conseillé</option>
                </Select>
              </Card>
            );
          })}
          <Button
            variant="outline"
            leftIcon={<PlusIcon size={16} />}
            onClick={() => items.append({ ...EMPTY_ITEM })}
            disabled={items.fields.length >= 60}
          >
            Ajouter un manuel
          </Button>
        </section>

        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Link to={levelId ? `/ma-liste?level=${levelId}` : '/ma-liste'} className={buttonClasses('outline', 'lg')}>
            Annuler
          </Link>
          <Button type="submit" size="lg" loading={propose.isPending}>
            Envoyer la liste
          </Button>
        </div>
      </form>
    </Container>
  );
}
