import { bookConditions, conditionLabels } from '@cartable/contracts/labels';
import {
  Alert,
  ApiError,
  Button,
  buttonClasses,
  Card,
  Checkbox,
  Container,
  EmptyState,
  errorMessage,
  formatPrice,
  hasPermission,
  Input,
  isNotFound,
  LoadFailed,
  LockIcon,
  notify,
  PageHeader,
  PageSpinner,
  Select,
  Textarea,
  useDocumentTitle,
  useSession,
  useSubmissionKey,
} from '@cartable/ui';
import { CategorySelector, useCategoryHierarchy } from '@cartable/ui/categories';
import { Link, useNavigate, useParams } from '@cartable/ui/router';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useMemo, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { ClassListAutofill } from '../../entities/class-list/ClassListAutofill';
import { useSaveBook } from '../../entities/listing/api/listing';
import { bookQuery } from '../../shared/api/books';
import { type Book, sameId } from '../../shared/books';
import { useGabonCities } from '../../shared/cities';
import { CitySelect } from '../../shared/components/CitySelect';
import { messages } from '../../shared/messages';
import {
  BOOK_FORM_FIELDS,
  type BookFormField,
  type BookFormValues,
  bookToForm,
  EMPTY_BOOK_FORM,
  MAX_BOOK_CATEGORIES,
  type PhotoSlot,
  toFormData,
} from './bookForm';
import { ConditionFlagFields, PhotoGuidance } from './ConditionFlags';
import { bookChecks } from './checks';
import { EMPTY_SLOT, PhotoSlots } from './PhotoSlots';
import { PriceGuide } from './PriceGuide';
import { IsbnScan } from './scan/IsbnScan';
import { useIsbnAutofill } from './scan/useIsbnAutofill';

/** /books/add, /books/create and /books/edit/:id. */
export default function BookFormPage() {
  const { id } = useParams();
  const { user } = useSession();
  const editing = id !== undefined;
  useDocumentTitle(editing ? 'Modifier mon annonce' : 'Ajouter un manuel');

  const book = useQuery({
    ...bookQuery(id ?? ''),
    enabled: editing,
    retry: (failures, error) => !isNotFound(error) && failures < 1,
  });

  if (!editing) return <BookForm />;
  if (book.isError) {
    return (
      <Container className="py-8 sm:py-12">
        <PageHeader title="Modifier mon annonce" />
        {isNotFound(book.error) ? (
          <EmptyState
            tone="warning"
            title="Annonce introuvable"
            description="Elle n’existe pas ou a été supprimée : vos annonces sont dans « Mes manuels »."
            action={
              <Link to="/my-books" className={buttonClasses('primary')}>
                Mes manuels
              </Link>
            }
          />
        ) : (
          <LoadFailed title={messages.detailError} query={book} />
        )}
      </Container>
    );
  }
  if (!book.data) return <PageSpinner label="Chargement de l'annonce…" />;
  if (!sameId(book.data.user_id, user?.id) && !hasPermission('books.update.any')) {
    return (
      <Container className="py-8 sm:py-12">
        <EmptyState
          icon={<LockIcon size={26} />}
          tone="warning"
          title="Vous ne pouvez pas modifier cette annonce"
          description="Seul le vendeur peut modifier son annonce."
          action={
            <Link to={`/books/${book.data.id}`} className={buttonClasses('primary')}>
              Voir l'annonce
            </Link>
          }
        />
      </Container>
    );
  }
  return <BookForm book={book.data} />;
}

function Section({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <Card className="p-4 sm:p-6">
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      {description ? <p className="mt-1 text-sm text-slate-600">{description}</p> : null}
      <div className="mt-4 space-y-4">{children}</div>
    </Card>
  );
}

function BookForm({ book }: { book?: Book }) {
  const editing = book !== undefined;
  const navigate = useNavigate();
  const hierarchy = useCategoryHierarchy();
  const cities = useGabonCities();
  const alertRef = useRef<HTMLDivElement>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [slots, setSlots] = useState<PhotoSlot[]>(() =>
    [book?.image1, book?.image2, book?.image3].map((url) => ({ ...EMPTY_SLOT, existing: url ?? null })),
  );
  const [photoErrors, setPhotoErrors] = useState<Array<string | undefined>>([undefined, undefined, undefined]);
  const { user } = useSession();
  const memberCity = user?.city_id ? String(user.city_id) : '';
  // A new listing starts in the member's own town, the usual place to meet.
  const defaults = useMemo(
    () => (book ? bookToForm(book) : { ...EMPTY_BOOK_FORM, city_id: memberCity }),
    [book, memberCity],
  );

  const {
    register,
    control,
    handleSubmit,
    getValues,
    setError,
    watch,
    setValue,
    formState: { errors },
  } = useForm<BookFormValues>({
    resolver: bookChecks.resolver((checks) => checks.bookFormResolver),
    defaultValues: defaults,
  });
  const isbnAutofill = useIsbnAutofill({ getValues, setValue, validate: formError !== null });

  const submission = useSubmissionKey();
  const save = useSaveBook(book?.id, {
    onSuccess: (data) => {
      submission.renew();
      const saved = data.book;
      void notify.success(
        data.message ?? (editing ? 'Annonce mise à jour avec succès' : 'Annonce publiée avec succès'),
      );
      navigate(`/books/${saved?.id ?? book?.id ?? ''}`, { replace: editing });
    },
    onError: (error) => {
      // Offline, a new listing waits on the phone with its photos (« En attente d'envoi »).
      if (error instanceof ApiError && error.isQueued) {
        submission.renew();
        void notify.info(error.message);
        navigate('/my-books');
        return;
      }
      let applied = 0;
      const others: string[] = [];
      if (error instanceof ApiError) {
        for (const [key, messages] of Object.entries(error.errors)) {
          const message = messages[0];
          if (!message) continue;
          const field = key.split('.')[0] as string;
          const image = /^(?:remove_)?image([123])$/.exec(field);
          if (image) {
            const index = Number(image[1]) - 1;
            setPhotoErrors((list) => list.map((v, i) => (i === index ? message : v)));
            applied++;
          } else if ((BOOK_FORM_FIELDS as string[]).includes(field)) {
            setError(field as BookFormField, { type: 'server', message }, { shouldFocus: applied === 0 });
            applied++;
          } else {
            others.push(message);
          }
        }
      }
      const message = [errorMessage(error, messages.saveError), ...others].join(' ');
      setFormError(applied ? `${message} Corrigez les champs signalés.` : message);
      if (!applied) requestAnimationFrame(() => alertRef.current?.scrollIntoView({ block: 'center' }));
    },
  });

  const onSubmit = handleSubmit(
    (values) => {
      setFormError(null);
      if (photoErrors.some(Boolean)) return;
      save.mutate({ form: toFormData(values, slots, editing), idempotencyKey: submission.current() });
    },
    () => setFormError('Veuillez corriger les erreurs dans le formulaire'),
  );

  const price = watch('price');
  const priceNumber = /^\d+$/.test(price.replace(/\s/g, '')) ? Number(price.replace(/\s/g, '')) : null;

  return (
    <Container className="max-w-3xl py-6 sm:py-10">
      <PageHeader
        title={editing ? 'Modifier mon annonce' : 'Ajouter un manuel'}
        description={
          editing
            ? 'Mettez à jour les informations et les photos de votre manuel.'
            : 'Quelques informations et une photo suffisent. Votre annonce est visible immédiatement.'
        }
      />
      <form onSubmit={onSubmit} noValidate className="space-y-5" {...bookChecks.loadOnTouch}>
        <div ref={alertRef}>{formError ? <Alert tone="error" title={formError} /> : null}</div>

        <Section title="Le manuel">
          <IsbnScan autofill={isbnAutofill} />
          <ClassListAutofill
            onChoose={(s) => {
              const fill = { shouldDirty: true, shouldValidate: formError !== null };
              setValue('title', s.title, fill);
              if (s.author) setValue('author', s.author, fill);
              setValue('publisher', s.publisher ?? '', fill);
              setValue('isbn', s.isbn ?? '', fill);
              if (s.year) setValue('publication_year', String(s.year), fill);
              if (s.category_ids.length) setValue('category_ids', s.category_ids.slice(0, MAX_BOOK_CATEGORIES), fill);
              void notify.success(`« ${s.title} » : champs remplis. Vérifiez-les et complétez l’état et le prix.`);
            }}
          />
          <Input label="Titre *" autoComplete="off" error={errors.title?.message} {...register('title')} />
          <Input label="Auteur *" autoComplete="off" error={errors.author?.message} {...register('author')} />
          <Controller
            control={control}
            name="category_ids"
            render={({ field, fieldState }) => (
              <CategorySelector
                categories={hierarchy.data ?? []}
                loading={hierarchy.isPending}
                value={field.value}
                onChange={field.onChange}
                label="Catégories * (cycle, niveau, matière)"
                error={
                  fieldState.error?.message ??
                  (hierarchy.isError && !hierarchy.data ? messages.categoriesError : undefined)
                }
                hint={`Par exemple « 3e » et « Mathématiques ». ${MAX_BOOK_CATEGORIES} catégories au plus.`}
                max={MAX_BOOK_CATEGORIES}
                plain
              />
            )}
          />
          <Select label="État *" error={errors.condition?.message} {...register('condition')}>
            <option value="">Choisissez l'état</option>
            {bookConditions.map((value) => (
              <option key={value} value={value}>
                {conditionLabels[value]}
              </option>
            ))}
          </Select>
          <ConditionFlagFields registration={register('condition_flags')} />
          <Textarea
            label="Description"
            rows={5}
            hint="Annotations, pages abîmées, édition… Soyez précis : cela rassure l'acheteur."
            error={errors.description?.message}
            {...register('description')}
          />
        </Section>

        <Section title="Détails de l'édition" description="Facultatif, mais utile pour retrouver la bonne édition.">
          <div className="grid gap-4 sm:grid-cols-2">
            <Input label="Éditeur" autoComplete="off" error={errors.publisher?.message} {...register('publisher')} />
            <Input
              label="Année de publication"
              inputMode="numeric"
              maxLength={4}
              autoComplete="off"
              error={errors.publication_year?.message}
              {...register('publication_year')}
            />
          </div>
          <div>
            <Input
              label="ISBN"
              inputMode="numeric"
              autoComplete="off"
              hint="10 ou 13 chiffres, au dos du livre : le manuel est recherché quand vous quittez le champ."
              error={errors.isbn?.message}
              {...register('isbn', { onBlur: (event) => isbnAutofill.fromTyped(event.target.value, false) })}
            />
            <button
              type="button"
              className="mt-2 text-sm font-semibold text-ocean-700 underline-offset-2 hover:underline"
              onClick={() => isbnAutofill.fromTyped(getValues('isbn'), true)}
            >
              Rechercher ce manuel par son ISBN
            </button>
          </div>
        </Section>

        <Section title="Prix et remise">
          <div>
            <Input
              label="Prix (FCFA) *"
              inputMode="numeric"
              autoComplete="off"
              error={errors.price?.message}
              hint={
                priceNumber === null
                  ? 'Nombre entier. Mettez 0 pour donner le manuel.'
                  : `Affiché : ${formatPrice(priceNumber, { zeroLabel: 'Don' })}`
              }
              trailing={<span className="pr-3 text-sm text-slate-500">FCFA</span>}
              {...register('price')}
            />
            <button
              type="button"
              className="mt-2 text-sm font-semibold text-ocean-700 underline-offset-2 hover:underline"
              onClick={() => setValue('price', '0', { shouldValidate: Boolean(errors.price) })}
            >
              Je donne ce manuel (0 FCFA)
            </button>
            <PriceGuide
              book={{
                title: watch('title'),
                isbn: watch('isbn'),
                condition: watch('condition'),
                excludeId: editing ? book.id : undefined,
              }}
              onUse={(value) =>
                setValue('price', String(value), { shouldDirty: true, shouldValidate: Boolean(errors.price) })
              }
            />
          </div>
          <Controller
            control={control}
            name="city_id"
            render={({ field, fieldState }) => (
              <CitySelect
                label="Ville *"
                cities={cities.data}
                emptyLabel="Choisissez une ville"
                error={fieldState.error?.message ?? (cities.isError ? messages.citiesError : undefined)}
                name={field.name}
                ref={field.ref}
                value={field.value}
                onBlur={field.onBlur}
                onChange={(event) => field.onChange(event.target.value)}
              />
            )}
          />
          <div className="space-y-3">
            <Checkbox label="Prix négociable" {...register('is_negociable')} />
            <Checkbox
              label="Échange possible"
              hint="Vous acceptez d'échanger ce manuel contre un autre."
              {...register('is_exchange_possible')}
            />
          </div>
        </Section>

        <Section
          title="Photos"
          description="Jusqu'à 3 photos (JPEG, PNG ou WebP, 5 Mo au plus). La première est la photo principale."
        >
          <PhotoGuidance flags={watch('condition_flags')} />
          <PhotoSlots
            slots={slots}
            onChange={setSlots}
            errors={photoErrors}
            onError={(index, message) => setPhotoErrors((list) => list.map((v, i) => (i === index ? message : v)))}
            disabled={save.isPending}
          />
        </Section>

        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Link to={editing ? `/books/${book.id}` : '/my-books'} className={buttonClasses('outline', 'lg')}>
            Annuler
          </Link>
          <Button type="submit" size="lg" loading={save.isPending}>
            {editing ? 'Enregistrer les modifications' : "Publier l'annonce"}
          </Button>
        </div>
      </form>
    </Container>
  );
}
