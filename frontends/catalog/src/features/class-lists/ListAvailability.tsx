import { proximityLabels } from '@cartable/contracts/labels';
import {
  Badge,
  BookIcon,
  Button,
  buttonClasses,
  CheckCircleIcon,
  EmptyState,
  errorMessage,
  formatPrice,
  LoadFailed,
  MapPinIcon,
  notify,
  notifyFailure,
  Skeleton,
  SwapIcon,
  useSession,
} from '@cartable/ui';
import { Link, useLocation } from '@cartable/ui/router';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import {
  availabilityQuery,
  type ClassList,
  type ClassListAvailability,
  type ClassListBookCard,
  type ClassListItemAvailability,
  useForgetList,
  useSaveList,
} from './api/class-lists';
import { CompleteList } from './CompleteList';
import { ListChanges } from './ListChanges';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n > 1 ? many : one}`;
/** A total of zero is no gift: « 0 F CFA ». */
const ZERO = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'XOF', maximumFractionDigits: 0 }).format(0);
const total = (value: number) => (value === 0 ? ZERO : formatPrice(value));

/** A class list's books and, for each, the listings that answer it near the chosen town. */
export function Availability({ list, cityId }: { list: ClassList; cityId: number | null }) {
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
    if (data.saved) persist(next).catch((error) => notifyFailure(error, 'Votre marque n’a pas pu être enregistrée.'));
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

      <ListChanges data={data} />

      {isAuthenticated && data.saved ? <CompleteList listId={list.id} levelName={list.level.name} /> : null}

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

export function ItemCard({
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

export function MatchLine({ entry, town }: { entry: ClassListItemAvailability; town: string | null }) {
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

export function BookTile({ book }: { book: ClassListBookCard }) {
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
          <span className="truncate">{book.city?.name ?? proximityLabels[book.proximity]}</span>
        </span>
        {book.match === 'subject' ? <span className="text-accent-900">Même matière</span> : null}
        {book.is_exchange_possible ? <span className="text-slate-600">Échange possible</span> : null}
      </span>
    </Link>
  );
}

/** The list's place while it loads. */
export function ListSkeleton() {
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
