import {
  Badge,
  BookIcon,
  Button,
  buttonClasses,
  CheckCircleIcon,
  Container,
  EmptyState,
  errorMessage,
  formatPrice,
  LoadFailed,
  MapPinIcon,
  notify,
  Select,
  Skeleton,
  SwapIcon,
  useDocumentTitle,
  useSession,
} from '@cartable/ui';
import { useCategoryHierarchy } from '@cartable/ui/categories';
import { Link, useLocation, useSearchParams } from '@cartable/ui/router';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useState } from 'react';
import { findLevel, type LevelGroup, levelGroups } from '../../entities/class-list/levels';
import { useGabonCities } from '../../shared/cities';
import { CitySelect } from '../../shared/components/CitySelect';
import {
  availabilityQuery,
  type ClassList,
  type ClassListAvailability,
  type ClassListBookCard,
  type ClassListItemAvailability,
  currentSchoolYear,
  levelListsQuery,
  useForgetList,
  useSaveList,
} from './api/class-lists';

const PROXIMITY: Record<ClassListBookCard['proximity'], string> = {
  city: 'Dans votre ville',
  province: 'Dans votre province',
  elsewhere: 'Ailleurs au Gabon',
};

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n > 1 ? many : one}`;
/** A total of zero is no gift: « 0 F CFA ». */
const ZERO = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'XOF', maximumFractionDigits: 0 }).format(0);
const total = (value: number) => (value === 0 ? ZERO : formatPrice(value));

/**
 * « Ma liste » (/ma-liste): pick the class (and the school's list, and the town),
 * then every book of the list with the listings near the town, the cheapest price, gifts and
 * exchanges, a « déjà obtenu » mark, and the total still to pay. The choice lives in the URL
 * (?level, ?list, ?city) so that the page can be shared and reopened.
 */
export default function MyListPage() {
  useDocumentTitle('Ma liste de manuels');
  const [params, setParams] = useSearchParams();
  const { user } = useSession();
  const hierarchy = useCategoryHierarchy();
  const groups = useMemo(() => levelGroups(hierarchy.data), [hierarchy.data]);
  const levelId = Number(params.get('level')) || null;
  const level = findLevel(groups, levelId);

  const cityParam = params.get('city');
  const cityId = cityParam === 'all' ? null : Number(cityParam) || user?.city_id || null;

  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === '') next.delete(key);
      else next.set(key, value);
    }
    setParams(next, { replace: true });
  };

  return (
    <Container className="max-w-3xl py-5 sm:py-8">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Ma liste de manuels</h1>
      <p className="mt-1 text-sm text-slate-600">
        Les manuels demandés pour la classe, et où les trouver d’occasion près de chez vous.
      </p>

      {!levelId ? (
        <LevelPicker
          groups={groups}
          loading={hierarchy.isPending}
          error={hierarchy.isError && !hierarchy.data}
          onRetry={() => void hierarchy.refetch()}
        />
      ) : (
        <ListForLevel
          key={levelId}
          levelId={levelId}
          levelName={level?.name ?? (hierarchy.data ? 'Classe inconnue' : '…')}
          groups={groups}
          listId={Number(params.get('list')) || null}
          cityId={cityId}
          onLevel={(id) => update({ level: id, list: null })}
          onList={(id) => update({ list: id })}
          onCity={(id) => update({ city: id || 'all' })}
        />
      )}
    </Container>
  );
}

/** Step one: the classes as large buttons, by cycle (one tap opens the list). */
function LevelPicker({
  groups,
  loading,
  error,
  onRetry,
}: {
  groups: LevelGroup[];
  loading: boolean;
  error: boolean;
  onRetry: () => void;
}) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="mt-6" data-testid="level-picker">
      <h2 id={id} className="text-lg font-semibold text-slate-900">
        Quelle est la classe de votre enfant ?
      </h2>
      {error ? (
        <LoadFailed
          title="Les classes n’ont pas pu être chargées"
          // The picker is told only that the categories failed: no reason to show, nothing pending.
          query={{ error: undefined, isFetching: false, refetch: onRetry }}
          className="mt-4"
        />
      ) : loading ? (
        <div className="mt-4 space-y-5" aria-busy="true">
          <span className="sr-only" role="status">
            Chargement des classes…
          </span>
          {[0, 1, 2].map((n) => (
            <div key={n}>
              <Skeleton className="h-5 w-24" />
              <div className="mt-2 grid grid-cols-3 gap-2 sm:grid-cols-4">
                {[0, 1, 2, 3, 4, 5].map((m) => (
                  <Skeleton key={m} className="h-12 w-full rounded-lg" />
                ))}
              </div>
            </div>
          ))}
        </div>
      ) : (
        <div className="mt-4 space-y-5">
          {groups.map((group) => (
            <div key={group.cycle.id}>
              <h3 className="text-sm font-semibold tracking-wide text-slate-600 uppercase">{group.cycle.name}</h3>
              <ul className="mt-2 grid grid-cols-3 gap-2 sm:grid-cols-4">
                {group.levels.map((level) => (
                  <li key={level.id}>
                    <Link
                      to={`/ma-liste?level=${level.id}`}
                      className="flex min-h-12 items-center justify-center rounded-lg border border-primary-200 bg-white px-2 text-center text-sm font-semibold text-primary-800 shadow-sm hover:bg-primary-50 focus-visible:ring-2 focus-visible:ring-primary-600 focus-visible:outline-none"
                    >
                      {level.name}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      )}
    </section>
  );
}

/** The official list first, then the schools' (as the API orders them); the current school year first. */
function pickDefault(lists: ClassList[]): ClassList | undefined {
  const year = currentSchoolYear();
  return (
    lists.find((l) => l.school_year === year && l.kind === 'official') ??
    lists.find((l) => l.kind === 'official') ??
    lists[0]
  );
}

const listLabel = (l: ClassList) =>
  `${l.kind === 'official' ? 'Liste officielle' : (l.school_name ?? 'Établissement')}${l.city && l.kind === 'school' ? ` (${l.city.name})` : ''} · ${l.school_year}`;

function ListForLevel({
  levelId,
  levelName,
  groups,
  listId,
  cityId,
  onLevel,
  onList,
  onCity,
}: {
  levelId: number;
  levelName: string;
  groups: LevelGroup[];
  listId: number | null;
  cityId: number | null;
  onLevel: (id: string) => void;
  onList: (id: string) => void;
  onCity: (id: string) => void;
}) {
  const id = useId();
  const lists = useQuery(levelListsQuery(levelId));
  const cities = useGabonCities();
  const chosen = lists.data?.find((l) => l.id === listId) ?? (lists.data ? pickDefault(lists.data) : undefined);

  return (
    <>
      <div className="mt-5 grid grid-cols-1 gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2">
        <Select label="Classe" value={String(levelId)} onChange={(e) => onLevel(e.target.value)}>
          {groups.length === 0 ? <option value={levelId}>{levelName}</option> : null}
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
        <CitySelect
          label="Ville"
          cities={cities.data}
          emptyLabel="Tout le Gabon"
          value={cityId ? String(cityId) : ''}
          onChange={(e) => onCity(e.target.value)}
        />
        {lists.data && lists.data.length > 1 ? (
          <div className="sm:col-span-2">
            <Select
              label="Liste"
              id={`${id}-list`}
              value={chosen ? String(chosen.id) : ''}
              onChange={(e) => onList(e.target.value)}
            >
              {lists.data.map((l) => (
                <option key={l.id} value={l.id}>
                  {listLabel(l)}
                </option>
              ))}
            </Select>
            <p className="mt-1 text-xs text-slate-600">
              L’école de votre enfant a sa propre liste ? Choisissez-la ici.
            </p>
          </div>
        ) : null}
      </div>

      {lists.isError && !lists.data ? (
        <LoadFailed title="Les listes de cette classe n’ont pas pu être chargées" query={lists} className="mt-4" />
      ) : !lists.data ? (
        <ListSkeleton />
      ) : !chosen ? (
        <EmptyState
          className="mt-6"
          icon={<BookIcon size={26} />}
          title={`Pas encore de liste pour la ${levelName}`}
          description="La liste de cette classe n’est pas encore publiée. Vous pouvez chercher les manuels un par un, ou proposer la liste de votre école."
          action={
            <div className="flex flex-wrap justify-center gap-2">
              <Link
                to={`/books?category_ids=${levelId}${cityId ? `&city_id=${cityId}` : ''}`}
                className={buttonClasses('primary')}
              >
                Voir les manuels
              </Link>
              <Link to={`/ma-liste/proposer?level=${levelId}`} className={buttonClasses('outline')}>
                Proposer une liste
              </Link>
            </div>
          }
        />
      ) : (
        <Availability key={`${chosen.id}`} list={chosen} cityId={cityId} />
      )}
      <p className="mt-8 rounded-xl bg-ocean-50 p-4 text-sm text-ocean-900">
        Votre école a sa propre liste ?{' '}
        <Link to={`/ma-liste/proposer?level=${levelId}`} className="font-semibold underline underline-offset-2">
          Proposez-la
        </Link>{' '}
        : après vérification, les autres parents la trouveront ici.
      </p>
    </>
  );
}

/** Skeletons of the real size: the summary card and three books with their listing strip. */
function ListSkeleton() {
  return (
    <div className="mt-5 space-y-4" aria-busy="true" data-testid="my-list-loading">
      <span className="sr-only" role="status">
        Chargement de la liste…
      </span>
      <Skeleton className="h-36 w-full rounded-xl" />
      {[0, 1, 2].map((n) => (
        <Skeleton key={n} className="h-72 w-full rounded-xl" />
      ))}
    </div>
  );
}

function Availability({ list, cityId }: { list: ClassList; cityId: number | null }) {
  const { isAuthenticated } = useSession();
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  const availability = useQuery(availabilityQuery(list.id, cityId));
  const data = availability.data;
  // The marks: from the answer (a member's saved marks) until the reader changes one.
  const [owned, setOwned] = useState<Set<number> | null>(null);
  useEffect(() => {
    if (data && owned === null) setOwned(new Set(data.items.filter((i) => i.owned).map((i) => i.item.id)));
  }, [data, owned]);
  const marks = owned ?? new Set(data?.items.filter((i) => i.owned).map((i) => i.item.id) ?? []);
  const save = useSaveList();
  const forget = useForgetList();

  if (availability.isError && !data) {
    return <LoadFailed title="La liste n’a pas pu être chargée" query={availability} className="mt-4" />;
  }
  if (!data) return <ListSkeleton />;

  const persist = (next: Set<number>) => save.mutateAsync({ listId: list.id, cityId, owned: [...next] });

  const toggle = (itemId: number) => {
    const next = new Set(marks);
    if (next.has(itemId)) next.delete(itemId);
    else next.add(itemId);
    setOwned(next);
    // A saved list keeps its marks in the account (the alerts skip the books already obtained).
    if (data.saved)
      persist(next).catch((error) => notify.error(errorMessage(error, 'Votre marque n’a pas pu être enregistrée.')));
  };

  const missing = data.items.filter((i) => !marks.has(i.item.id));
  const found = missing.filter((i) => i.match === 'exact');
  const cost = found.reduce((sum, i) => sum + (i.cheapest_price ?? 0), 0);
  const requiredCost = found
    .filter((i) => i.item.requirement === 'required')
    .reduce((sum, i) => sum + (i.cheapest_price ?? 0), 0);
  const town = data.city?.name;

  return (
    <div className={availability.isFetching ? 'opacity-70 transition-opacity' : undefined}>
      <section
        aria-label="Résumé de la liste"
        className="mt-5 rounded-xl border border-primary-200 bg-primary-50 p-4"
        data-testid="list-summary"
      >
        <p className="text-xs font-semibold tracking-wide text-primary-800 uppercase">
          {list.kind === 'official' ? 'Liste officielle' : list.school_name} · {list.level.name} · {list.school_year}
        </p>
        <div aria-live="polite" aria-atomic="true">
          <p className="mt-2 text-sm text-slate-700">Reste à acheter, aux meilleurs prix</p>
          <p className="text-3xl font-extrabold text-primary-900" data-testid="list-total">
            {total(cost)}
          </p>
          <p className="mt-1 text-sm text-slate-800" data-testid="list-found">
            {missing.length === 0
              ? 'Vous avez tous les manuels de la liste.'
              : `${found.length} manuel${found.length > 1 ? 's' : ''} sur ${missing.length} à trouver ${found.length > 1 ? 'sont proposés' : 'est proposé'}${town ? '' : ' au Gabon'}`}
            {marks.size > 0 ? ` · ${plural(marks.size, 'déjà obtenu')}` : ''}
          </p>
          {requiredCost !== cost ? (
            <p className="text-xs text-slate-600">Dont obligatoires : {total(requiredCost)}</p>
          ) : null}
        </div>
        {list.source_note ? <p className="mt-2 text-xs text-slate-700">{list.source_note}</p> : null}
        <div className="mt-3 flex flex-wrap gap-2">
          {!isAuthenticated ? (
            <>
              <Link to={`/login?return_url=${encodeURIComponent(here)}`} className={buttonClasses('primary', 'sm')}>
                Enregistrer ma liste
              </Link>
              <span className="basis-full text-xs text-slate-600">
                Connectez-vous pour être prévenu quand un manuel manquant est proposé près de chez vous.
              </span>
            </>
          ) : data.saved ? (
            <>
              <span
                className="inline-flex min-h-11 items-center gap-1.5 text-sm font-semibold text-primary-800"
                data-testid="list-saved"
              >
                <CheckCircleIcon size={18} /> Liste enregistrée : vous serez prévenu
              </span>
              <Button
                variant="ghost"
                size="sm"
                loading={forget.isPending}
                onClick={() =>
                  forget.mutate(list.id, {
                    onSuccess: (res) => void notify.success(res?.message ?? 'Liste retirée de votre compte'),
                    onError: (error) =>
                      void notify.error(errorMessage(error, 'L’opération n’a pas abouti. Réessayez.')),
                  })
                }
              >
                Ne plus suivre
              </Button>
            </>
          ) : (
            <Button
              size="sm"
              loading={save.isPending}
              onClick={() =>
                persist(marks).then(
                  (res) => void notify.success(res.message),
                  (error) => void notify.error(errorMessage(error, 'La liste n’a pas pu être enregistrée.')),
                )
              }
            >
              Enregistrer ma liste
            </Button>
          )}
          {isAuthenticated ? (
            <Link to="/mes-listes" className={buttonClasses('ghost', 'sm')}>
              Mes listes
            </Link>
          ) : null}
        </div>
      </section>

      {data.items.length === 0 ? (
        <EmptyState className="mt-6" icon={<BookIcon size={26} />} title="Cette liste ne compte encore aucun manuel" />
      ) : (
        <ol className="mt-5 space-y-4" data-testid="list-items">
          {data.items.map((entry) => (
            <li key={entry.item.id}>
              <ItemCard
                entry={entry}
                owned={marks.has(entry.item.id)}
                onToggle={() => toggle(entry.item.id)}
                data={data}
                cityId={cityId}
              />
            </li>
          ))}
        </ol>
      )}

      <section
        aria-labelledby={`finished-${list.id}`}
        className="mt-6 rounded-xl border border-accent-200 bg-accent-50 p-4"
        data-testid="finished-level"
      >
        <h2 id={`finished-${list.id}`} className="font-semibold text-slate-900">
          Votre enfant a fini la {list.level.name} ?
        </h2>
        <p className="mt-1 text-sm text-slate-700">
          Ses manuels serviront à un autre élève : vendez-les, donnez-les ou échangez-les contre ceux de sa nouvelle
          classe.
        </p>
        <div className="mt-3 flex flex-wrap gap-2">
          <Link to={`/ma-liste/vendre?list=${list.id}`} className={buttonClasses('primary', 'sm')}>
            Vendre ma liste
          </Link>
          <Link to="/echanges" className={buttonClasses('outline', 'sm')}>
            <SwapIcon size={16} /> Échanger mes anciens manuels
          </Link>
        </div>
      </section>
    </div>
  );
}

function ItemCard({
  entry,
  owned,
  onToggle,
  data,
  cityId,
}: {
  entry: ClassListItemAvailability;
  owned: boolean;
  onToggle: () => void;
  data: ClassListAvailability;
  cityId: number | null;
}) {
  const { item } = entry;
  const id = `item-${item.id}`;
  const search = new URLSearchParams({ query: item.title });
  if (cityId) search.set('city_id', String(cityId));
  return (
    <article
      aria-labelledby={id}
      data-testid="list-item"
      className={`rounded-xl border bg-white p-4 shadow-sm ${owned ? 'border-primary-200 bg-slate-50' : 'border-slate-200'}`}
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <div className="flex flex-wrap gap-1">
            <Badge tone={item.requirement === 'required' ? 'primary' : 'neutral'}>{item.requirement_label}</Badge>
            {item.subject ? <Badge tone="ocean">{item.subject.name}</Badge> : null}
          </div>
          <h3 id={id} className={`mt-1 font-semibold text-slate-900 ${owned ? 'text-slate-600 line-through' : ''}`}>
            {item.title}
          </h3>
          <p className="text-sm text-slate-600">
            {[item.author, item.publisher, item.edition ?? item.year].filter(Boolean).join(' · ')}
            {item.isbn ? <span className="block text-xs text-slate-500">ISBN {item.isbn}</span> : null}
          </p>
        </div>
        <button
          type="button"
          aria-pressed={owned}
          onClick={onToggle}
          className={`inline-flex min-h-11 shrink-0 items-center gap-1.5 self-start rounded-lg border px-3 text-sm font-semibold focus-visible:ring-2 focus-visible:ring-primary-600 focus-visible:outline-none ${
            owned
              ? 'border-primary-700 bg-primary-700 text-white'
              : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-50'
          }`}
        >
          <CheckCircleIcon size={18} />
          Déjà obtenu
          <span className="sr-only"> : {item.title}</span>
        </button>
      </div>

      {owned ? null : (
        <>
          <MatchLine entry={entry} town={data.city?.name ?? null} />
          {entry.books.length > 0 ? (
            <ul
              className="-mx-1 mt-3 flex snap-x gap-2 overflow-x-auto px-1 pb-1"
              aria-label={`Annonces pour ${item.title}`}
            >
              {entry.books.map((book) => (
                <li key={book.id} className="w-36 shrink-0 snap-start">
                  <BookTile book={book} />
                </li>
              ))}
            </ul>
          ) : null}
          {entry.count > entry.books.length ? (
            <Link
              to={`/books?${search}`}
              className="mt-2 inline-flex min-h-11 items-center text-sm font-semibold text-primary-700 underline-offset-2 hover:underline"
            >
              Voir les {entry.count} annonces
            </Link>
          ) : null}
        </>
      )}
    </article>
  );
}

function MatchLine({ entry, town }: { entry: ClassListItemAvailability; town: string | null }) {
  if (entry.match === 'none') {
    return (
      <p className="mt-3 rounded-lg bg-slate-100 px-3 py-2 text-sm text-slate-700" data-testid="match-none">
        Aucune annonce pour le moment. Enregistrez la liste pour être prévenu.
      </p>
    );
  }
  const near = town ? ` · ${entry.city_count} à ${town}` : '';
  return (
    <div className="mt-3 space-y-1 text-sm" data-testid={`match-${entry.match}`}>
      {entry.match === 'exact' ? (
        <p className="font-medium text-primary-800">
          {plural(entry.count, 'annonce')} de ce manuel{near}
        </p>
      ) : (
        <p className="text-accent-900">
          <strong>Pas ce manuel exact</strong> : {plural(entry.count, 'annonce')} de la même matière et de la même
          classe{near}
        </p>
      )}
      <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-slate-700">
        {entry.cheapest_price !== null ? (
          <span>
            {entry.cheapest_price === 0 ? (
              <strong className="text-ocean-700">Disponible en don</strong>
            ) : (
              <>
                À partir de <strong className="text-primary-800">{formatPrice(entry.cheapest_price)}</strong>
              </>
            )}
          </span>
        ) : null}
        {entry.lot_count > 0 ? (
          <span>{entry.lot_count > 1 ? `dont ${entry.lot_count} dans des lots` : 'dont 1 dans un lot'}</span>
        ) : null}
        {entry.gift_count > 0 ? <Badge tone="ocean">{plural(entry.gift_count, 'don')}</Badge> : null}
        {entry.exchange_count > 0 ? (
          <Badge tone="accent">
            <SwapIcon size={12} /> {plural(entry.exchange_count, 'échange possible', 'échanges possibles')}
          </Badge>
        ) : null}
      </p>
    </div>
  );
}

function BookTile({ book }: { book: ClassListBookCard }) {
  return (
    <Link
      to={`/books/${book.id}`}
      className="flex h-full flex-col overflow-hidden rounded-lg border border-slate-200 bg-white hover:border-primary-300 focus-visible:ring-2 focus-visible:ring-primary-600 focus-visible:outline-none"
      data-testid="list-book"
    >
      {book.thumbnail ? (
        <img
          src={book.thumbnail}
          alt=""
          loading="lazy"
          decoding="async"
          width={144}
          height={96}
          className="h-24 w-full bg-slate-100 object-cover"
        />
      ) : (
        <span
          aria-hidden="true"
          className="flex h-24 w-full items-center justify-center bg-linear-to-br from-primary-50 to-ocean-50"
        >
          <BookIcon size={28} className="text-primary-300" />
        </span>
      )}
      <span className="flex flex-1 flex-col gap-0.5 p-2 text-xs">
        <span className="line-clamp-2 font-semibold text-slate-900">{book.title}</span>
        <span className={`text-sm font-bold ${book.price === 0 ? 'text-ocean-700' : 'text-primary-800'}`}>
          {formatPrice(book.price, { zeroLabel: 'Don' })}
        </span>
        {book.lot_size ? <span className="font-semibold text-slate-800">Lot de {book.lot_size} manuels</span> : null}
        <span className="text-slate-600">{book.condition_label}</span>
        <span className="flex items-center gap-1 text-slate-600">
          <MapPinIcon size={12} className="shrink-0" />
          <span className="truncate">{book.city?.name ?? PROXIMITY[book.proximity]}</span>
        </span>
        {book.match === 'subject' ? <span className="text-accent-900">Même matière</span> : null}
        {book.is_exchange_possible ? <span className="text-slate-600">Échange possible</span> : null}
      </span>
    </Link>
  );
}
