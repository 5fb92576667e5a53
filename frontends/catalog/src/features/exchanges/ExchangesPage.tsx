import {
  Alert,
  ApiError,
  Badge,
  BookIcon,
  Button,
  buttonClasses,
  CheckCircleIcon,
  ClockIcon,
  Container,
  EmptyState,
  errorMessage,
  formatPrice,
  LazyConfirmDialog,
  LoadFailed,
  MapPinIcon,
  MessageIcon,
  notify,
  PageHeader,
  RefreshIcon,
  Select,
  Skeleton,
  SwapIcon,
  TrashIcon,
  useDocumentTitle,
  useSession,
} from '@cartable/ui';
import { useCategoryHierarchy } from '@cartable/ui/categories';
import { Link } from '@cartable/ui/router';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useId, useMemo, useState } from 'react';
import { ClassListAutofill } from '../../entities/class-list/ClassListAutofill';
import { levelGroups, subjectsOf } from '../../entities/class-list/levels';

import {
  type ExchangeLeg,
  type ExchangeOverview,
  type ExchangeSuggestion,
  type ExchangeWish,
  overviewQuery,
  useAddWish,
  useAnswerSuggestion,
  useRemoveWish,
} from './api/exchanges';

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

function Section({ title, count, children }: { title: string; count?: number; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="flex items-center gap-2 text-lg font-semibold text-slate-900">
        {title}
        {count !== undefined ? <Badge tone="neutral">{count}</Badge> : null}
      </h2>
      <div className="mt-3">{children}</div>
    </section>
  );
}

// ── suggestions ──────────────────────────────────────────────────────────────────────────────

function Suggestions({ data }: { data: ExchangeOverview }) {
  const shown = data.suggestions.filter((s) => s.status === 'open' || s.status === 'accepted');
  return (
    <Section title="Échanges proposés" count={shown.length}>
      {shown.length === 0 ? (
        <div className="rounded-xl border border-dashed border-slate-300 bg-white p-4 text-sm text-slate-700">
          <p className="font-semibold text-slate-900">Aucune proposition pour le moment</p>
          <p className="mt-1">
            {data.offers.length === 0
              ? 'Ouvrez au moins un de vos manuels à l’échange, et dites ce que vous cherchez : '
              : data.wishes.length === 0
                ? 'Dites ce que vous cherchez : '
                : 'Nous cherchons régulièrement des familles de votre ville ou de votre province : '}
            dès qu’une famille a ce qu’il vous faut et cherche ce que vous proposez, l’échange apparaît ici et vous êtes
            prévenu.
          </p>
        </div>
      ) : (
        <ul className="space-y-4" data-testid="exchange-suggestions">
          {shown.map((s) => (
            <li key={s.id}>
              <SuggestionCard suggestion={s} />
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

/** The legs from the viewer's point of view: what they give first, then around the loop. */
function orderLegs(legs: ExchangeLeg[], me: string | undefined): ExchangeLeg[] {
  const first = legs.find((l) => l.from.id === me) ?? legs[0];
  if (!first) return [];
  const ordered = [first];
  while (ordered.length < legs.length) {
    const last = ordered[ordered.length - 1] as ExchangeLeg;
    const next = legs.find((l) => !ordered.includes(l) && l.from.id === last.to.id);
    if (!next) break;
    ordered.push(next);
  }
  return ordered.length === legs.length ? ordered : [first, ...legs.filter((l) => l !== first)];
}

function SuggestionCard({ suggestion }: { suggestion: ExchangeSuggestion }) {
  const { user } = useSession();
  const me = user?.id ? String(user.id) : undefined;
  const answer = useAnswerSuggestion();
  const [declining, setDeclining] = useState(false);
  const legs = orderLegs(suggestion.legs, me);
  const members = useMemo(() => {
    const seen = new Map<string, string>();
    for (const leg of legs) seen.set(leg.from.id, leg.from.name);
    return [...seen.entries()];
  }, [legs]);
  const cycle = suggestion.kind === 'cycle';
  const accepted = suggestion.status === 'accepted';
  const titleId = `exchange-${suggestion.id}`;
  const who = (id: string, name: string) => (id === me ? 'Vous' : name);

  const respond = (kind: 'accept' | 'decline') =>
    answer.mutate(
      { id: suggestion.id, answer: kind },
      {
        onSuccess: (res) => {
          setDeclining(false);
          void notify.success(res.message);
        },
        onError: (error) => {
          setDeclining(false);
          void notify.error(errorMessage(error, 'Votre réponse n’a pas pu être enregistrée. Réessayez.'));
        },
      },
    );

  return (
    <article
      aria-labelledby={titleId}
      data-testid="exchange-suggestion"
      className={`rounded-xl border bg-white p-4 shadow-sm ${accepted ? 'border-primary-300' : 'border-slate-200'}`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={cycle ? 'accent' : 'ocean'}>
          <SwapIcon size={12} /> {cycle ? 'Échange à trois' : 'Échange à deux'}
        </Badge>
        <span className="inline-flex items-center gap-1 text-sm text-slate-700">
          <MapPinIcon size={14} /> {suggestion.area}
        </span>
        <Badge tone={accepted ? 'success' : 'neutral'} className="ml-auto">
          {suggestion.status_label}
        </Badge>
      </div>
      <h3 id={titleId} className="sr-only">
        {legs.map((l) => `${who(l.from.id, l.from.name)} donne « ${l.book.title} »`).join(', ')}
      </h3>

      <ol className="mt-3 space-y-2" aria-label={cycle ? 'La boucle de l’échange' : 'Les deux côtés de l’échange'}>
        {legs.map((leg, index) => (
          <li key={`${leg.book.id}-${leg.to.id}`}>
            <LegLine leg={leg} me={me} />
            {cycle && index < legs.length - 1 ? (
              <span aria-hidden="true" className="ml-5 block h-3 border-l-2 border-dashed border-accent-300" />
            ) : null}
          </li>
        ))}
      </ol>
      {cycle ? (
        <p className="mt-2 flex items-center gap-1.5 text-xs text-slate-600">
          <RefreshIcon size={14} className="shrink-0" /> La boucle se referme : chacun donne un manuel et en reçoit un.
        </p>
      ) : null}

      <ul className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm" aria-label="Réponses" data-testid="exchange-answers">
        {members.map(([id, name]) => {
          const yes = suggestion.accepted_by.includes(id);
          return (
            <li key={id} className={`inline-flex items-center gap-1 ${yes ? 'text-primary-800' : 'text-slate-600'}`}>
              {yes ? <CheckCircleIcon size={16} /> : <ClockIcon size={16} />}
              {id === me
                ? yes
                  ? 'Vous avez accepté'
                  : 'Votre réponse est attendue'
                : `${name} ${yes ? 'a accepté' : 'n’a pas encore répondu'}`}
            </li>
          );
        })}
      </ul>

      {accepted ? (
        <div className="mt-3 rounded-lg bg-primary-50 p-3 text-sm text-primary-900">
          <p className="font-semibold">Tout le monde a accepté : organisez la remise.</p>
          <ul className="mt-2 space-y-2">
            {legs
              .filter((l) => l.conversation_url && (l.from.id === me || l.to.id === me))
              .map((l) => {
                const other = l.from.id === me ? l.to : l.from;
                return (
                  <li key={`${l.book.id}-${l.to.id}`}>
                    <Link
                      to={l.conversation_url as string}
                      className="flex min-h-12 items-center gap-3 rounded-lg border border-primary-200 bg-white px-3 py-2 hover:bg-primary-50 focus-visible:ring-2 focus-visible:ring-primary-600 focus-visible:outline-none"
                      data-testid="exchange-conversation"
                    >
                      <MessageIcon size={18} className="shrink-0 text-primary-700" />
                      <span className="min-w-0">
                        <span className="block font-semibold text-primary-800">Écrire à {other.name}</span>
                        <span className="block text-xs text-slate-700">à propos de « {l.book.title} »</span>
                      </span>
                    </Link>
                  </li>
                );
              })}
          </ul>
        </div>
      ) : suggestion.my_answer === 'accepted' ? (
        <p className="mt-3 text-sm text-slate-700">
          Vous avez accepté. Nous vous prévenons dès que{' '}
          {cycle ? 'les autres familles acceptent' : 'l’autre famille accepte'}.
        </p>
      ) : suggestion.status === 'open' ? (
        <div className="mt-4 grid grid-cols-2 gap-2">
          <Button
            loading={answer.isPending && answer.variables?.answer === 'accept'}
            disabled={answer.isPending}
            onClick={() => respond('accept')}
          >
            Accepter
          </Button>
          <Button variant="outline" disabled={answer.isPending} onClick={() => setDeclining(true)}>
            Refuser
          </Button>
        </div>
      ) : null}

      {declining ? (
        <LazyConfirmDialog
          open
          title="Refuser cet échange ?"
          description="Cette proposition disparaîtra : elle ne vous sera plus proposée."
          confirmLabel="Refuser"
          loading={answer.isPending}
          onCancel={() => setDeclining(false)}
          onConfirm={() => respond('decline')}
        />
      ) : null}
    </article>
  );
}

function LegLine({ leg, me }: { leg: ExchangeLeg; me: string | undefined }) {
  const giving = leg.from.id === me;
  const receiving = leg.to.id === me;
  const sentence = giving ? (
    <>
      Vous donnez <strong>« {leg.book.title} »</strong> à {leg.to.name}
    </>
  ) : receiving ? (
    <>
      Vous recevez <strong>« {leg.book.title} »</strong> de {leg.from.name}
    </>
  ) : (
    <>
      {leg.from.name} donne <strong>« {leg.book.title} »</strong> à {leg.to.name}
    </>
  );
  return (
    <div
      className={`flex items-start gap-3 rounded-lg border p-3 ${giving ? 'border-accent-200 bg-accent-50' : receiving ? 'border-primary-200 bg-primary-50' : 'border-slate-200 bg-slate-50'}`}
      data-testid="exchange-leg"
    >
      {leg.book.thumbnail ? (
        <img
          src={leg.book.thumbnail}
          alt=""
          loading="lazy"
          decoding="async"
          width={40}
          height={52}
          className="h-13 w-10 shrink-0 rounded bg-slate-100 object-cover"
        />
      ) : (
        <span aria-hidden="true" className="flex h-13 w-10 shrink-0 items-center justify-center rounded bg-white">
          <BookIcon size={18} className="text-primary-300" />
        </span>
      )}
      <div className="min-w-0 text-sm text-slate-800">
        <p>{sentence}</p>
        <p className="mt-0.5 text-xs text-slate-600">
          {leg.book.condition_label} ·{' '}
          {leg.book.price === 0 ? 'proposé en don' : `annoncé ${formatPrice(leg.book.price)}`}
          {receiving ? ` · vous cherchiez : ${leg.wish}` : ''}
        </p>
        <Link
          to={`/books/${leg.book.id}`}
          className="inline-flex min-h-11 items-center text-sm font-semibold text-primary-700 underline-offset-2 hover:underline"
        >
          Voir l’annonce<span className="sr-only"> « {leg.book.title} »</span>
        </Link>
      </div>
    </div>
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
