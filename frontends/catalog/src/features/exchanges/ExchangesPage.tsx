import {
  Alert,
  ApiError,
  Button,
  buttonClasses,
  Container,
  EmptyState,
  errorMessage,
  formatPrice,
  LoadFailed,
  notify,
  PageHeader,
  RefreshIcon,
  Select,
  Skeleton,
  SwapIcon,
  TrashIcon,
  useDocumentTitle,
} from '@cartable/ui';
import { useCategoryHierarchy } from '@cartable/ui/categories';
import { Link } from '@cartable/ui/router';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { ClassListAutofill } from '../../entities/class-list/ClassListAutofill';
import { levelGroups, subjectsOf } from '../../entities/class-list/levels';

import { type ExchangeOverview, type ExchangeWish, overviewQuery, useAddWish, useRemoveWish } from './api/exchanges';
import { Section } from './ExchangeSection';
import { Suggestions } from './Suggestions';

/** As libs/contracts EXCHANGE_WISHES_MAX (not imported: the page does not load the contracts). */
const WISHES_MAX = 30;

/**
 * « Échanges » (/echanges): the exchanges suggested to the member (each as its
 * legs: who gives which book to whom), what they offer (their listings open to exchange) and what
 * they look for (a book of the class lists, or a level and a subject).
 */
export default function ExchangesPage() {
  useDocumentTitle('Échanges');
  const overview = useQuery(overviewQuery());
  const data = overview.data;

  return (
    <Container className="max-w-3xl py-5 sm:py-8">
      <PageHeader
        title="Échanges"
        description="Échangez les manuels dont votre enfant n’a plus besoin contre ceux qu’il lui faut, avec des familles près de chez vous."
      />
      {overview.isError && !data ? (
        <LoadFailed title="Vos échanges n’ont pas pu être chargés" query={overview} />
      ) : !data ? (
        <div className="space-y-4" aria-busy="true" data-testid="exchanges-loading">
          <span className="sr-only" role="status">
            Chargement de vos échanges…
          </span>
          <Skeleton className="h-48 w-full rounded-xl" />
          <Skeleton className="h-32 w-full rounded-xl" />
          <Skeleton className="h-40 w-full rounded-xl" />
        </div>
      ) : (
        <div className="space-y-8">
          <Suggestions data={data} />
          <Offers data={data} />
          <Wishes data={data} />
        </div>
      )}
    </Container>
  );
}

// ── offers ───────────────────────────────────────────────────────────────────────────────────

function Offers({ data }: { data: ExchangeOverview }) {
  return (
    <Section title="Ce que je propose" count={data.offers.length}>
      {data.offers.length === 0 ? (
        <EmptyState
          icon={<SwapIcon size={26} />}
          title="Aucun manuel ouvert à l’échange"
          description="Cochez « Échange possible » dans vos annonces (Mes manuels, puis Modifier), ou publiez les manuels dont votre enfant n’a plus besoin."
          action={
            <>
              <Link to="/my-books" className={buttonClasses('primary')}>
                Mes manuels
              </Link>
              <Link to="/books/add" className={buttonClasses('outline')}>
                Ajouter un manuel
              </Link>
            </>
          }
        />
      ) : (
        <>
          <ul
            className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white"
            data-testid="exchange-offers"
          >
            {data.offers.map((offer) => (
              <li key={offer.id}>
                <Link
                  to={`/books/${offer.id}`}
                  className="flex min-h-12 items-center justify-between gap-3 px-4 py-2 text-sm hover:bg-slate-50 focus-visible:ring-2 focus-visible:ring-primary-600 focus-visible:outline-none"
                >
                  <span className="min-w-0 font-medium text-slate-900">{offer.title}</span>
                  <span className="shrink-0 text-slate-600">{formatPrice(offer.price, { zeroLabel: 'Don' })}</span>
                </Link>
              </li>
            ))}
          </ul>
          <p className="mt-2 text-sm text-slate-700">
            D’autres manuels à échanger ? Cochez « Échange possible » dans l’annonce.{' '}
            <Link to="/my-books" className="font-semibold text-primary-700 underline underline-offset-2">
              Mes manuels
            </Link>
          </p>
        </>
      )}
    </Section>
  );
}

// ── wishes ───────────────────────────────────────────────────────────────────────────────────

function Wishes({ data }: { data: ExchangeOverview }) {
  const remove = useRemoveWish();
  const full = data.wishes.length >= WISHES_MAX;
  return (
    <Section title="Ce que je cherche" count={data.wishes.length}>
      {data.wishes.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white p-4 text-sm text-slate-700">
          Vous ne cherchez encore aucun manuel. Choisissez-en un dans les listes de classe, ou une classe et une
          matière.
        </p>
      ) : (
        <ul
          className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white"
          data-testid="exchange-wishes"
        >
          {data.wishes.map((wish) => (
            <li key={wish.id} className="flex items-center justify-between gap-2 py-1 pr-1 pl-4">
              <span className="min-w-0 text-sm">
                <span className="block font-medium text-slate-900">{wish.label}</span>
                <span className="text-xs text-slate-600">
                  {wish.kind === 'item' ? 'Manuel d’une liste de classe' : 'Tout manuel de cette classe et matière'}
                </span>
              </span>
              <RemoveWish
                wish={wish}
                pending={remove.isPending && remove.variables === wish.id}
                onRemove={remove.mutate}
              />
            </li>
          ))}
        </ul>
      )}
      {full ? (
        <p className="mt-3 text-sm text-slate-700">
          Vous cherchez déjà {WISHES_MAX} manuels : retirez-en un pour en ajouter un autre.
        </p>
      ) : (
        <AddWish />
      )}
    </Section>
  );
}

function RemoveWish({
  wish,
  pending,
  onRemove,
}: {
  wish: ExchangeWish;
  pending: boolean;
  onRemove: ReturnType<typeof useRemoveWish>['mutate'];
}) {
  return (
    <Button
      variant="ghost"
      size="icon"
      loading={pending}
      aria-label={`Retirer « ${wish.label} »`}
      onClick={() =>
        onRemove(wish.id, {
          onSuccess: (res) => void notify.success(res?.message ?? 'Souhait retiré'),
          onError: (error) => void notify.error(errorMessage(error, 'L’opération n’a pas abouti. Réessayez.')),
        })
      }
    >
      {pending ? null : <TrashIcon size={18} />}
    </Button>
  );
}

function AddWish() {
  const [mode, setMode] = useState<'item' | 'subject'>('item');
  const add = useAddWish();
  const [formError, setFormError] = useState<string | null>(null);
  const busy = add.isPending;

  const done = (error: unknown) => {
    const message =
      error instanceof ApiError
        ? [error.message, ...Object.values(error.errors).flat()].filter(Boolean)[0]
        : errorMessage(error, 'Le souhait n’a pas pu être enregistré. Réessayez.');
    setFormError(message ?? 'Le souhait n’a pas pu être enregistré. Réessayez.');
  };
  const send = (body: { class_list_item_id: number } | { level_id: number; subject_id: number }) =>
    add.mutate(body, {
      onSuccess: (res) => {
        setFormError(null);
        void notify.success(res.message);
      },
      onError: done,
    });

  return (
    <div className="mt-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="add-wish">
      <h3 className="font-semibold text-slate-900">Ajouter un manuel recherché</h3>
      <fieldset className="mt-3 grid grid-cols-2 gap-2">
        <legend className="sr-only">Ce que vous cherchez</legend>
        {(
          [
            ['item', 'Un manuel précis'],
            ['subject', 'Une classe et une matière'],
          ] as const
        ).map(([value, label]) => (
          <button
            key={value}
            type="button"
            aria-pressed={mode === value}
            onClick={() => {
              setMode(value);
              setFormError(null);
            }}
            className={`min-h-11 rounded-lg border px-2 text-sm font-semibold focus-visible:ring-2 focus-visible:ring-primary-600 focus-visible:outline-none ${
              mode === value
                ? 'border-primary-700 bg-primary-700 text-white'
                : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-50'
            }`}
          >
            {label}
          </button>
        ))}
      </fieldset>
      <div className="mt-3">
        {mode === 'item' ? (
          <ClassListAutofill
            label="Chercher dans les listes de classe"
            hint="Tapez le titre, l’auteur ou l’ISBN du manuel qu’il vous faut, puis choisissez-le."
            disabled={busy}
            // The suggestion names the book of the lists it stands for.
            onChoose={(s) => send({ class_list_item_id: s.item_id })}
          />
        ) : (
          <SubjectWish busy={busy} onSubmit={send} />
        )}
      </div>
      <div aria-live="polite">
        {busy ? <p className="mt-2 text-sm text-slate-600">Enregistrement…</p> : null}
        {formError ? <Alert tone="error" title={formError} className="mt-3" /> : null}
      </div>
    </div>
  );
}

function SubjectWish({
  busy,
  onSubmit,
}: {
  busy: boolean;
  onSubmit: (body: { level_id: number; subject_id: number }) => void;
}) {
  const hierarchy = useCategoryHierarchy();
  const groups = useMemo(() => levelGroups(hierarchy.data), [hierarchy.data]);
  const [levelId, setLevelId] = useState('');
  const [subjectId, setSubjectId] = useState('');
  const [missing, setMissing] = useState(false);
  const subjects = useMemo(() => subjectsOf(hierarchy.data, Number(levelId) || null), [hierarchy.data, levelId]);

  if (hierarchy.isError && !hierarchy.data) {
    return (
      <Alert
        tone="error"
        title="Les classes n’ont pas pu être chargées"
        action={
          <Button
            variant="outline"
            size="sm"
            leftIcon={<RefreshIcon size={16} />}
            onClick={() => void hierarchy.refetch()}
          >
            Réessayer
          </Button>
        }
      />
    );
  }
  return (
    <form
      className="grid grid-cols-1 gap-3 sm:grid-cols-2"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!levelId || !subjectId) {
          setMissing(true);
          return;
        }
        onSubmit({ level_id: Number(levelId), subject_id: Number(subjectId) });
      }}
    >
      <Select
        label="Classe"
        value={levelId}
        disabled={hierarchy.isPending}
        error={missing && !levelId ? 'Choisissez la classe' : undefined}
        onChange={(e) => {
          setLevelId(e.target.value);
          setSubjectId('');
        }}
      >
        <option value="">{hierarchy.isPending ? 'Chargement…' : 'Choisissez la classe'}</option>
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
      <Select
        label="Matière"
        value={subjectId}
        disabled={!levelId}
        error={missing && levelId && !subjectId ? 'Choisissez la matière' : undefined}
        onChange={(e) => setSubjectId(e.target.value)}
      >
        <option value="">{levelId ? 'Choisissez la matière' : 'Choisissez d’abord la classe'}</option>
        {subjects.map((subject) => (
          <option key={subject.id} value={subject.id}>
            {subject.name}
          </option>
        ))}
      </Select>
      <Button type="submit" loading={busy} className="sm:col-span-2">
        Ajouter ce souhait
      </Button>
    </form>
  );
}
