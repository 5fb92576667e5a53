import {
  Alert,
  ApiError,
  Badge,
  Button,
  buttonClasses,
  CameraIcon,
  Checkbox,
  CheckCircleIcon,
  Container,
  EmptyState,
  errorMessage,
  formatPrice,
  Input,
  PageHeader,
  RefreshIcon,
  Select,
  Skeleton,
  SwapIcon,
  useDocumentTitle,
  useSession,
} from '@cartable/ui';
import { Link, useSearchParams } from '@cartable/ui/router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { bookKeys } from '../../shared/api/books';
import { CONDITION_LABELS, CONDITIONS, type Condition } from '../../shared/books';
import { useGabonCities } from '../../shared/cities';
import { CitySelect } from '../../shared/components/CitySelect';
import { ACCEPTED_TYPES, MAX_IMAGE_BYTES, saveBook, shrinkPhoto } from '../listing-form';
import type { ClassListDetail } from './api/class-lists';
import { listDetailQuery } from './api/class-lists';

type Item = ClassListDetail['items'][number];

/** One book of the list as the family sets it, and where its listing stands. */
interface Row {
  selected: boolean;
  condition: Condition | '';
  price: string;
  exchange: boolean;
  photo: File | null;
  preview: string | null;
  photoError: string | null;
  status: 'idle' | 'sending' | 'done' | 'error';
  error: string | null;
  bookId: number | null;
  /** The Idempotency-Key of this book's POST /books: the same while it is retried. */
  key: string | null;
  /** The server refused the last attempt (4xx): nothing was created, an edited retry is a new request. */
  refused: boolean;
}

const EMPTY_ROW: Row = {
  selected: false,
  condition: '',
  price: '',
  exchange: false,
  photo: null,
  preview: null,
  photoError: null,
  status: 'idle',
  error: null,
  bookId: null,
  key: null,
  refused: false,
};

const digits = (value: string) => value.replace(/[\s\u202f\u00a0]/g, '');
const newKey = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n > 1 ? many : one}`;

/** Field problems of a selected row, before anything is sent. */
function problems(row: Row): { condition?: string; price?: string } {
  const out: { condition?: string; price?: string } = {};
  if (!row.condition) out.condition = 'Choisissez l’état';
  const price = digits(row.price);
  if (price === '') out.price = 'Le prix est obligatoire (0 pour un don)';
  else if (!/^\d+$/.test(price)) out.price = 'Le prix doit être un nombre entier de FCFA';
  return out;
}

/** The server's answer as one sentence (its message, then the fields' messages). */
function failure(error: unknown): string {
  if (error instanceof ApiError) {
    const fields = Object.values(error.errors).flat().filter(Boolean);
    return [errorMessage(error, 'La publication a échoué.'), ...fields].join(' ');
  }
  return 'La publication a échoué. Vérifiez votre connexion internet.';
}

/**
 * « Vendre ma liste » (/ma-liste/vendre?list=ID, issue 15 item 3): a family whose child finished
 * a class picks the books of its list they have, sets each one's condition and price (0 = a gift),
 * exchange and an optional photo, and publishes them at once: one listing per book (POST /books
 * each, one after the other on a slow connection), each with its progress and its error; a failed
 * one is retried alone with its own Idempotency-Key, so no book is listed twice.
 */
export default function SellListPage() {
  useDocumentTitle('Vendre ma liste');
  const [params] = useSearchParams();
  const listId = Number(params.get('list')) || null;
  const list = useQuery({ ...listDetailQuery(listId ?? 0), enabled: listId !== null });

  return (
    <Container className="max-w-3xl py-5 sm:py-8">
      <PageHeader
        title="Vendre ma liste"
        description="Votre enfant a fini sa classe ? Publiez en une fois les manuels de sa liste : une annonce par manuel."
      />
      {!listId ? (
        <EmptyState
          title="Choisissez d’abord la liste"
          description="Ouvrez la liste de la classe que votre enfant a terminée, puis « Vendre ma liste »."
          action={
            <Link to="/ma-liste" className={buttonClasses('primary')}>
              Ma liste
            </Link>
          }
        />
      ) : list.isError && !list.data ? (
        <Alert
          tone="error"
          title="La liste n’a pas pu être chargée"
          action={
            <Button
              variant="outline"
              size="sm"
              leftIcon={<RefreshIcon size={16} />}
              loading={list.isFetching}
              onClick={() => void list.refetch()}
            >
              Réessayer
            </Button>
          }
        >
          {errorMessage(list.error, 'Vérifiez votre connexion internet puis réessayez.')}
        </Alert>
      ) : !list.data ? (
        <div className="space-y-3" aria-busy="true">
          <span className="sr-only" role="status">
            Chargement de la liste…
          </span>
          <Skeleton className="h-24 w-full rounded-xl" />
          {[0, 1, 2].map((n) => (
            <Skeleton key={n} className="h-20 w-full rounded-xl" />
          ))}
        </div>
      ) : list.data.items.length === 0 ? (
        <EmptyState title="Cette liste ne compte encore aucun manuel" />
      ) : (
        <SellForm list={list.data} />
      )}
    </Container>
  );
}

function SellForm({ list }: { list: ClassListDetail }) {
  const { user } = useSession();
  const cities = useGabonCities();
  const queryClient = useQueryClient();
  const [cityId, setCityId] = useState(user?.city_id ? String(user.city_id) : '');
  const [rows, setRows] = useState<Record<number, Row>>({});
  const [checked, setChecked] = useState(false);
  const [running, setRunning] = useState(false);
  const summaryRef = useRef<HTMLDivElement>(null);
  const rowsRef = useRef(rows);
  rowsRef.current = rows;

  // Photo previews are object URLs: freed when the page goes.
  useEffect(
    () => () => {
      for (const row of Object.values(rowsRef.current)) if (row.preview) URL.revokeObjectURL(row.preview);
    },
    [],
  );

  const rowOf = (id: number) => rows[id] ?? EMPTY_ROW;
  const change = (id: number, patch: Partial<Row>) =>
    setRows((all) => {
      const old = all[id] ?? EMPTY_ROW;
      const next = { ...old, ...patch };
      // An edit after a refused attempt is a new request: a new key (a lost answer keeps its key).
      if (old.status === 'error' && old.refused && !('status' in patch)) next.key = null;
      return { ...all, [id]: next };
    });

  const selected = list.items.filter((i) => rowOf(i.id).selected);
  const done = selected.filter((i) => rowOf(i.id).status === 'done');
  const failed = selected.filter((i) => rowOf(i.id).status === 'error');
  const finished = selected.length > 0 && done.length === selected.length;
  const cityError = checked && !cityId ? 'Choisissez la ville où remettre les manuels' : undefined;

  const publishOne = async (item: Item) => {
    const row = rowsRef.current[item.id] ?? EMPTY_ROW;
    const key = row.key ?? newKey();
    change(item.id, { status: 'sending', error: null, key });
    const form = new FormData();
    form.set('title', item.title);
    form.set('author', item.author);
    form.set('isbn', item.isbn ?? '');
    form.set('publisher', item.publisher ?? '');
    form.set('publication_year', item.year ? String(item.year) : '');
    form.set('description', '');
    form.set('condition', row.condition);
    form.set('price', String(Number(digits(row.price))));
    form.set('city_id', cityId);
    form.set('is_negociable', 'false');
    form.set('is_exchange_possible', row.exchange ? 'true' : 'false');
    // As the listing form's autofill: the level, then the subject.
    form.set('category_ids', [list.level.id, item.subject?.id].filter(Boolean).join(','));
    if (row.photo) form.set('image1', row.photo, row.photo.name);
    try {
      const answer = await saveBook(form, undefined, key);
      change(item.id, { status: 'done', bookId: Number(answer.book.id), key });
    } catch (error) {
      // A 4xx was refused (nothing created): the next attempt, once edited, gets a new key.
      const refused = error instanceof ApiError && error.status >= 400 && error.status < 500;
      change(item.id, { status: 'error', error: failure(error), key, refused });
    }
  };

  const publish = async (only?: Item) => {
    setChecked(true);
    const todo = (only ? [only] : selected).filter((i) => rowOf(i.id).status !== 'done');
    if (!cityId || todo.some((i) => Object.keys(problems(rowOf(i.id))).length > 0)) {
      requestAnimationFrame(() =>
        document.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus({ preventScroll: false }),
      );
      return;
    }
    setRunning(true);
    // One after the other: on a slow connection, parallel uploads only slow each other down.
    for (const item of todo) await publishOne(item);
    setRunning(false);
    void queryClient.invalidateQueries({ queryKey: bookKeys.all });
    // The first failed book in view (its error and « Réessayer »), else the summary.
    setTimeout(() => {
      const failure = document.querySelector('[data-testid="sell-item-error"]')?.closest('article');
      if (failure) failure.scrollIntoView({ block: 'center' });
      else summaryRef.current?.focus();
    }, 50);
  };

  if (finished) {
    return (
      <div
        ref={summaryRef}
        tabIndex={-1}
        className="rounded-xl border border-primary-200 bg-primary-50 p-4 focus:outline-none"
        data-testid="sell-summary"
      >
        <p className="flex items-center gap-2 text-lg font-semibold text-primary-900" role="status">
          <CheckCircleIcon size={22} /> {plural(done.length, 'annonce publiée', 'annonces publiées')}
        </p>
        <p className="mt-1 text-sm text-slate-700">
          Elles sont visibles dès maintenant. Vous pouvez les modifier ou ajouter des photos depuis Mes manuels.
        </p>
        <ul className="mt-3 space-y-1">
          {done.map((item) => (
            <li key={item.id} className="flex flex-wrap items-center gap-x-2">
              <Link
                to={`/books/${rowOf(item.id).bookId}`}
                className="inline-flex min-h-11 items-center text-sm font-semibold text-primary-800 underline underline-offset-2"
              >
                {item.title}
              </Link>
              <span className="text-sm text-slate-700">
                {formatPrice(Number(digits(rowOf(item.id).price)), { zeroLabel: 'Don' })}
              </span>
            </li>
          ))}
        </ul>
        <div className="mt-4 flex flex-wrap gap-2">
          <Link to="/my-books" className={buttonClasses('primary')}>
            Voir Mes manuels
          </Link>
          <Link to="/echanges" className={buttonClasses('outline')}>
            Échanger mes anciens manuels
          </Link>
        </div>
      </div>
    );
  }

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!running) void publish();
      }}
    >
      <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
        <p className="text-xs font-semibold tracking-wide text-primary-800 uppercase">
          {list.kind === 'official' ? 'Liste officielle' : list.school_name} · {list.level.name} · {list.school_year}
        </p>
        <p className="mt-1 text-sm text-slate-700">
          Cochez les manuels que vous avez, puis l’état et le prix de chacun. Titre, auteur, éditeur, ISBN, classe et
          matière viennent de la liste.
        </p>
        <CitySelect
          className="mt-3"
          label="Ville de remise *"
          cities={cities.data}
          emptyLabel="Choisissez une ville"
          value={cityId}
          error={cityError}
          disabled={running}
          onChange={(e) => setCityId(e.target.value)}
        />
      </div>

      <ol className="mt-4 space-y-3" data-testid="sell-items">
        {list.items.map((item) => (
          <li key={item.id}>
            <ItemRow
              item={item}
              row={rowOf(item.id)}
              checked={checked}
              locked={running}
              onChange={(patch) => change(item.id, patch)}
              onRetry={() => void publish(item)}
            />
          </li>
        ))}
      </ol>

      <div className="sticky bottom-0 -mx-4 mt-4 border-t border-slate-200 bg-white/95 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-xl sm:border">
        <div aria-live="polite" className="text-sm text-slate-700" data-testid="sell-progress">
          {running || done.length > 0 || failed.length > 0 ? (
            <>
              <progress
                className="mb-1 h-2 w-full accent-primary-700"
                max={selected.length}
                value={done.length}
                aria-label="Annonces publiées"
              />
              {`${done.length} sur ${selected.length} publiée${done.length > 1 ? 's' : ''}`}
              {failed.length > 0 && !running ? ` · ${failed.length} en échec` : ''}
            </>
          ) : selected.length === 0 ? (
            'Cochez au moins un manuel.'
          ) : (
            `${plural(selected.length, 'manuel choisi', 'manuels choisis')}`
          )}
        </div>
        <Button type="submit" size="lg" fullWidth className="mt-2" loading={running} disabled={selected.length === 0}>
          {running
            ? 'Publication en cours…'
            : failed.length > 0
              ? `Réessayer ${failed.length > 1 ? `les ${failed.length} annonces en échec` : 'l’annonce en échec'}`
              : done.length > 0
                ? 'Publier les suivantes'
                : `Publier ${selected.length > 1 ? `les ${selected.length} annonces` : selected.length === 1 ? 'l’annonce' : ''}`}
        </Button>
      </div>
    </form>
  );
}

function ItemRow({
  item,
  row,
  checked,
  locked,
  onChange,
  onRetry,
}: {
  item: Item;
  row: Row;
  checked: boolean;
  locked: boolean;
  onChange: (patch: Partial<Row>) => void;
  onRetry: () => void;
}) {
  const id = useId();
  const errors = checked && row.selected && row.status !== 'done' ? problems(row) : {};
  const price = digits(row.price);
  const frozen = locked || row.status === 'sending' || row.status === 'done';

  const pickPhoto = async (file: File | undefined) => {
    if (row.preview) URL.revokeObjectURL(row.preview);
    if (!file) return onChange({ photo: null, preview: null, photoError: null });
    if (!ACCEPTED_TYPES.includes(file.type))
      return onChange({ photo: null, preview: null, photoError: 'Formats acceptés : JPEG, PNG ou WebP' });
    const ready = await shrinkPhoto(file);
    if (ready.size > MAX_IMAGE_BYTES)
      return onChange({ photo: null, preview: null, photoError: 'La photo doit peser 5 Mo au plus' });
    onChange({ photo: ready, preview: URL.createObjectURL(ready), photoError: null });
  };

  return (
    <article
      aria-labelledby={`${id}-title`}
      data-testid="sell-item"
      className={`rounded-xl border bg-white p-4 shadow-sm ${row.selected ? 'border-primary-300' : 'border-slate-200'}`}
    >
      <div className="flex items-start gap-3">
        <input
          id={`${id}-pick`}
          type="checkbox"
          checked={row.selected}
          disabled={frozen}
          onChange={(e) => onChange({ selected: e.target.checked })}
          className="mt-3 h-5 w-5 shrink-0 cursor-pointer accent-primary-700"
        />
        <label htmlFor={`${id}-pick`} className="flex min-h-11 min-w-0 flex-1 cursor-pointer flex-col justify-center">
          <span id={`${id}-title`} className="font-semibold text-slate-900">
            {item.title}
          </span>
          <span className="text-sm text-slate-600">
            {[item.subject?.name, item.author, item.publisher].filter(Boolean).join(' · ')}
          </span>
        </label>
        {row.status === 'done' ? (
          <Badge tone="success" className="mt-2 shrink-0">
            <CheckCircleIcon size={12} /> Publiée
          </Badge>
        ) : row.status === 'sending' ? (
          <Badge tone="neutral" className="mt-2 shrink-0">
            Envoi…
          </Badge>
        ) : null}
      </div>

      {row.selected && row.status !== 'done' ? (
        <div className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-2">
          <Select
            label="État *"
            value={row.condition}
            disabled={frozen}
            error={errors.condition}
            onChange={(e) => onChange({ condition: e.target.value as Condition | '' })}
          >
            <option value="">Choisissez l’état</option>
            {CONDITIONS.map((value) => (
              <option key={value} value={value}>
                {CONDITION_LABELS[value]}
              </option>
            ))}
          </Select>
          <div>
            <Input
              label="Prix (FCFA) *"
              inputMode="numeric"
              autoComplete="off"
              value={row.price}
              disabled={frozen}
              error={errors.price}
              hint={
                /^\d+$/.test(price)
                  ? `Affiché : ${formatPrice(Number(price), { zeroLabel: 'Don' })}`
                  : 'Mettez 0 pour le donner.'
              }
              trailing={<span className="pr-3 text-sm text-slate-500">FCFA</span>}
              onChange={(e) => onChange({ price: e.target.value })}
            />
            <button
              type="button"
              disabled={frozen}
              className="inline-flex min-h-11 items-center text-sm font-semibold text-ocean-700 underline-offset-2 hover:underline"
              onClick={() => onChange({ price: '0' })}
            >
              Je le donne (0 FCFA)<span className="sr-only"> : {item.title}</span>
            </button>
          </div>
          <Checkbox
            className="min-h-11 items-center sm:col-span-2"
            label={
              <span className="inline-flex items-center gap-1">
                <SwapIcon size={14} /> Échange possible
              </span>
            }
            checked={row.exchange}
            disabled={frozen}
            onChange={(e) => onChange({ exchange: e.target.checked })}
          />
          <div className="sm:col-span-2">
            <div className="flex flex-wrap items-center gap-3">
              {row.preview ? (
                <img src={row.preview} alt="" width={56} height={56} className="h-14 w-14 rounded object-cover" />
              ) : null}
              <label
                className={`${buttonClasses('outline', 'sm')} cursor-pointer focus-within:ring-2 focus-within:ring-primary-600`}
              >
                <CameraIcon size={16} />
                {row.photo ? 'Changer la photo' : 'Ajouter une photo (facultatif)'}
                <input
                  type="file"
                  accept={ACCEPTED_TYPES.join(',')}
                  className="sr-only"
                  disabled={frozen}
                  aria-label={`Photo : ${item.title}`}
                  onChange={(e) => void pickPhoto(e.target.files?.[0])}
                />
              </label>
              {row.photo ? (
                <Button variant="ghost" size="sm" disabled={frozen} onClick={() => void pickPhoto(undefined)}>
                  Retirer la photo
                </Button>
              ) : null}
            </div>
            {row.photoError ? <p className="mt-1 text-sm text-red-700">{row.photoError}</p> : null}
          </div>
        </div>
      ) : null}

      {row.status === 'error' && row.error ? (
        <Alert
          tone="error"
          className="mt-3"
          title="Cette annonce n’a pas été publiée"
          action={
            <Button
              variant="outline"
              size="sm"
              leftIcon={<RefreshIcon size={16} />}
              disabled={locked}
              onClick={onRetry}
            >
              Réessayer<span className="sr-only"> : {item.title}</span>
            </Button>
          }
        >
          <span data-testid="sell-item-error">{row.error}</span>
        </Alert>
      ) : null}
    </article>
  );
}
