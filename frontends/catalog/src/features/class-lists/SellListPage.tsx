import {
  Alert,
  ApiError,
  Badge,
  Button,
  buttonClasses,
  CheckCircleIcon,
  Container,
  EmptyState,
  errorMessage,
  formatPrice,
  Input,
  LoadFailed,
  PageHeader,
  RefreshIcon,
  Skeleton,
  useDocumentTitle,
  useSession,
} from '@cartable/ui';
import { Link, useSearchParams } from '@cartable/ui/router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { saveBook } from '../../entities/listing/api/listing';
import { bookKeys } from '../../shared/api/books';
import { useGabonCities } from '../../shared/cities';
import { CitySelect } from '../../shared/components/CitySelect';

import type { ClassListDetail } from './api/class-lists';
import { listDetailQuery } from './api/class-lists';
import { digits, EMPTY_SALE, type Sale, SaleFields, saleProblems } from './SaleFields';

type Item = ClassListDetail['items'][number];
type Mode = 'separate' | 'lot';

/** Where one listing's publication stands. */
interface Attempt {
  status: 'idle' | 'sending' | 'done' | 'error';
  error: string | null;
  bookId: number | null;
  /** The Idempotency-Key of its POST /books: the same while it is retried. */
  key: string | null;
  /** The server refused the last attempt (4xx): nothing was created, an edited retry is a new request. */
  refused: boolean;
}

const IDLE: Attempt = { status: 'idle', error: null, bookId: null, key: null, refused: false };

/** One book of the list as the family sets it: its own listing, or picked for the lot. */
interface Row extends Sale, Attempt {
  selected: boolean;
}

/** The lot: one listing for the picked books. */
interface Lot extends Sale, Attempt {
  /** Null: the title follows the books picked (« Lot de 3 manuels de 6e … »). */
  title: string | null;
}

const EMPTY_ROW: Row = { ...EMPTY_SALE, ...IDLE, selected: false };
const EMPTY_LOT: Lot = { ...EMPTY_SALE, ...IDLE, title: null };

const newKey = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n > 1 ? many : one}`;

/** The server's answer as one sentence (its message, then the fields' messages). */
function failure(error: unknown): string {
  if (error instanceof ApiError) {
    const fields = Object.values(error.errors).flat().filter(Boolean);
    return [errorMessage(error, 'La publication a échoué.'), ...fields].join(' ');
  }
  return 'La publication a échoué. Vérifiez votre connexion internet.';
}

/** An edit after a refused attempt is a new request: a new key (a lost answer keeps its key). */
function edit<T extends Attempt>(old: T, patch: Partial<T>): T {
  const next = { ...old, ...patch };
  if (old.status === 'error' && old.refused && !('status' in patch)) next.key = null;
  return next;
}

/** Sends one listing under its attempt's key; the attempt's next state. */
async function send(form: FormData, key: string): Promise<Partial<Attempt>> {
  try {
    const answer = await saveBook(form, undefined, key);
    return { status: 'done', bookId: Number(answer.book.id), key, error: null };
  } catch (error) {
    // A 4xx was refused (nothing created): the next attempt, once edited, gets a new key.
    const refused = error instanceof ApiError && error.status >= 400 && error.status < 500;
    return { status: 'error', error: failure(error), key, refused };
  }
}

/** The fields of a listing taken from the list, and its sale. */
function listingForm(fields: Record<string, string>, sale: Sale, cityId: string) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set('condition', sale.condition);
  form.set('price', String(Number(digits(sale.price))));
  form.set('city_id', cityId);
  form.set('is_negociable', 'false');
  form.set('is_exchange_possible', sale.exchange ? 'true' : 'false');
  if (sale.photo) form.set('image1', sale.photo, sale.photo.name);
  return form;
}

const suggestedLotTitle = (list: ClassListDetail, n: number) =>
  `Lot de ${n} manuels de ${list.level.name} (${list.school_year})`;

/** The lot's authors, each once, as its author (150 characters at most). */
function lotAuthors(items: Item[]) {
  const all = [...new Set(items.map((i) => i.author.trim()).filter(Boolean))].join(', ');
  if (all.length < 2) return 'Collectif';
  return all.length > 150 ? `${all.slice(0, 149)}…` : all;
}

function lotTitleProblem(title: string) {
  const t = title.trim();
  if (t.length < 2) return 'Le titre doit contenir au moins 2 caractères';
  if (t.length > 200) return 'Le titre ne peut pas dépasser 200 caractères';
  return undefined;
}

/**
 * « Vendre ma liste » (/ma-liste/vendre?list=ID): a family whose child finished
 * a class picks the books of its list they have and publishes them at once, either
 * - one listing per book, each with its condition, price (0 = a gift), exchange and an optional
 *   photo: POST /books each, one after the other on a slow connection, each with its progress and
 *   its error; a failed one is retried alone with its own Idempotency-Key, so no book is listed
 *   twice; or
 * - one lot: a single listing holding the picked books (POST /books with `lot_items`), with one
 *   condition, price and photo, found in the catalogue and in « Ma liste » by each of its books.
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
        description="Votre enfant a fini sa classe ? Publiez en une fois les manuels de sa liste : une annonce par manuel, ou un seul lot."
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
        <LoadFailed title="La liste n’a pas pu être chargée" query={list} />
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
  const [mode, setMode] = useState<Mode>('separate');
  const [rows, setRows] = useState<Record<number, Row>>({});
  const [lot, setLot] = useState<Lot>(EMPTY_LOT);
  const [checked, setChecked] = useState(false);
  const [running, setRunning] = useState(false);
  const summaryRef = useRef<HTMLDivElement>(null);
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  const lotRef = useRef(lot);
  lotRef.current = lot;

  // Photo previews are object URLs: freed when the page goes.
  useEffect(
    () => () => {
      for (const sale of [...Object.values(rowsRef.current), lotRef.current])
        if (sale.preview) URL.revokeObjectURL(sale.preview);
    },
    [],
  );

  const rowOf = (id: number) => rows[id] ?? EMPTY_ROW;
  const change = (id: number, patch: Partial<Row>) =>
    setRows((all) => ({ ...all, [id]: edit(all[id] ?? EMPTY_ROW, patch) }));
  const changeLot = (patch: Partial<Lot>) => setLot((old) => edit(old, patch));

  const selected = list.items.filter((i) => rowOf(i.id).selected);
  const asLot = mode === 'lot';
  const done = asLot ? [] : selected.filter((i) => rowOf(i.id).status === 'done');
  const failed = asLot ? [] : selected.filter((i) => rowOf(i.id).status === 'error');
  const finished = asLot ? lot.status === 'done' : selected.length > 0 && done.length === selected.length;
  // Once a listing went out, the way of selling is settled.
  const started = running || lot.status === 'done' || list.items.some((i) => rowOf(i.id).status === 'done');
  const cityError = checked && !cityId ? 'Choisissez la ville où remettre les manuels' : undefined;
  const lotTitle = lot.title ?? suggestedLotTitle(list, Math.max(selected.length, 2));
  const lotErrors =
    checked && asLot && lot.status !== 'done'
      ? {
          ...saleProblems(lot),
          title: lotTitleProblem(lotTitle),
          books: selected.length < 2 ? 'Cochez au moins 2 manuels pour faire un lot' : undefined,
        }
      : {};

  const publishOne = async (item: Item) => {
    const row = rowsRef.current[item.id] ?? EMPTY_ROW;
    const key = row.key ?? newKey();
    change(item.id, { status: 'sending', error: null, key });
    const form = listingForm(
      {
        title: item.title,
        author: item.author,
        isbn: item.isbn ?? '',
        publisher: item.publisher ?? '',
        publication_year: item.year ? String(item.year) : '',
        description: '',
        // As the listing form's autofill: the level, then the subject.
        category_ids: [list.level.id, item.subject?.id].filter(Boolean).join(','),
      },
      row,
      cityId,
    );
    change(item.id, await send(form, key));
  };

  const publishLot = async () => {
    const current = lotRef.current;
    const key = current.key ?? newKey();
    changeLot({ status: 'sending', error: null, key });
    const form = listingForm(
      {
        title: lotTitle.trim(),
        author: lotAuthors(selected),
        description: '',
        // The server adds the books' subjects.
        category_ids: String(list.level.id),
        lot_items: selected.map((i) => i.id).join(','),
      },
      current,
      cityId,
    );
    changeLot(await send(form, key));
  };

  const focusFirstProblem = () =>
    requestAnimationFrame(() =>
      document
        .querySelector<HTMLElement>('[aria-invalid="true"], [data-invalid="true"]')
        ?.focus({ preventScroll: false }),
    );

  const afterPublishing = () => {
    setRunning(false);
    void queryClient.invalidateQueries({ queryKey: bookKeys.all });
    // The first failed listing in view (its error and « Réessayer »), else the summary.
    setTimeout(() => {
      const failure = document.querySelector('[data-testid="sell-item-error"]')?.closest('article');
      if (failure) failure.scrollIntoView({ block: 'center' });
      else summaryRef.current?.focus();
    }, 50);
  };

  const publish = async (only?: Item) => {
    setChecked(true);
    if (asLot) {
      const current = lotRef.current;
      if (!cityId || selected.length < 2 || lotTitleProblem(lotTitle) || Object.keys(saleProblems(current)).length > 0)
        return focusFirstProblem();
      setRunning(true);
      await publishLot();
      return afterPublishing();
    }
    const todo = (only ? [only] : selected).filter((i) => rowOf(i.id).status !== 'done');
    if (!cityId || todo.some((i) => Object.keys(saleProblems(rowOf(i.id))).length > 0)) return focusFirstProblem();
    setRunning(true);
    // One after the other: on a slow connection, parallel uploads only slow each other down.
    for (const item of todo) await publishOne(item);
    afterPublishing();
  };

  if (finished) {
    const price = (sale: Sale) => formatPrice(Number(digits(sale.price)), { zeroLabel: 'Don' });
    return (
      <div
        ref={summaryRef}
        tabIndex={-1}
        className="rounded-xl border border-primary-200 bg-primary-50 p-4 focus:outline-none"
        data-testid="sell-summary"
      >
        <p className="flex items-center gap-2 text-lg font-semibold text-primary-900" role="status">
          <CheckCircleIcon size={22} />{' '}
          {asLot
            ? `Lot de ${selected.length} manuels publié`
            : plural(done.length, 'annonce publiée', 'annonces publiées')}
        </p>
        <p className="mt-1 text-sm text-slate-700">
          {asLot
            ? 'Il est visible dès maintenant, et chacun de ses manuels le fait trouver. Vous pouvez le modifier ou ajouter des photos depuis Mes manuels.'
            : 'Elles sont visibles dès maintenant. Vous pouvez les modifier ou ajouter des photos depuis Mes manuels.'}
        </p>
        {asLot ? (
          <>
            <p className="mt-3 flex flex-wrap items-center gap-x-2">
              <Link
                to={`/books/${lot.bookId}`}
                className="inline-flex min-h-11 items-center text-sm font-semibold text-primary-800 underline underline-offset-2"
              >
                {lotTitle}
              </Link>
              <span className="text-sm text-slate-700">{price(lot)}</span>
            </p>
            <ul className="list-disc space-y-0.5 pl-5 text-sm text-slate-700">
              {selected.map((item) => (
                <li key={item.id}>{item.title}</li>
              ))}
            </ul>
          </>
        ) : (
          <ul className="mt-3 space-y-1">
            {done.map((item) => (
              <li key={item.id} className="flex flex-wrap items-center gap-x-2">
                <Link
                  to={`/books/${rowOf(item.id).bookId}`}
                  className="inline-flex min-h-11 items-center text-sm font-semibold text-primary-800 underline underline-offset-2"
                >
                  {item.title}
                </Link>
                <span className="text-sm text-slate-700">{price(rowOf(item.id))}</span>
              </li>
            ))}
          </ul>
        )}
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

  const submitLabel = running
    ? 'Publication en cours…'
    : asLot
      ? lot.status === 'error'
        ? 'Réessayer de publier le lot'
        : selected.length >= 2
          ? `Publier le lot de ${selected.length} manuels`
          : 'Publier le lot'
      : failed.length > 0
        ? `Réessayer ${failed.length > 1 ? `les ${failed.length} annonces en échec` : 'l’annonce en échec'}`
        : done.length > 0
          ? 'Publier les suivantes'
          : `Publier ${selected.length > 1 ? `les ${selected.length} annonces` : selected.length === 1 ? 'l’annonce' : ''}`;

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
          Cochez les manuels que vous avez. Titre, auteur, éditeur, ISBN, classe et matière viennent de la liste.
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
        <ModeChoice mode={mode} disabled={started} onChange={setMode} />
      </div>

      <ol className="mt-4 space-y-3" data-testid="sell-items">
        {list.items.map((item) => (
          <li key={item.id}>
            <ItemRow
              item={item}
              row={rowOf(item.id)}
              pickOnly={asLot}
              checked={checked}
              locked={running || (asLot && lot.status === 'sending')}
              onChange={(patch) => change(item.id, patch)}
              onRetry={() => void publish(item)}
            />
          </li>
        ))}
      </ol>

      {asLot ? (
        <LotPanel
          lot={lot}
          title={lotTitle}
          count={selected.length}
          errors={lotErrors}
          locked={running}
          onChange={changeLot}
        />
      ) : null}

      <div className="sticky bottom-0 -mx-4 mt-4 border-t border-slate-200 bg-white/95 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-xl sm:border">
        <div aria-live="polite" className="text-sm text-slate-700" data-testid="sell-progress">
          {asLot ? (
            selected.length === 0 ? (
              'Cochez les manuels du lot.'
            ) : (
              `${plural(selected.length, 'manuel', 'manuels')} dans le lot`
            )
          ) : running || done.length > 0 || failed.length > 0 ? (
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
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

/** « Une annonce par manuel » or « Un seul lot »: settled once a listing went out. */
function ModeChoice({ mode, disabled, onChange }: { mode: Mode; disabled: boolean; onChange: (mode: Mode) => void }) {
  const name = useId();
  const options: Array<[Mode, string, string]> = [
    ['separate', 'Une annonce par manuel', 'Chaque manuel a son état, son prix et sa photo.'],
    ['lot', 'Un seul lot', 'Un prix pour l’ensemble ; le lot est trouvé par chacun de ses manuels.'],
  ];
  return (
    <fieldset className="mt-3" disabled={disabled}>
      <legend className="text-sm font-medium text-slate-900">Comment les vendre ?</legend>
      <div className="mt-1.5 grid gap-2 sm:grid-cols-2">
        {options.map(([value, label, hint]) => (
          <label
            key={value}
            className={`flex min-h-11 cursor-pointer items-start gap-2 rounded-lg border p-3 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-primary-600 ${
              mode === value ? 'border-primary-600 bg-primary-50' : 'border-slate-300 bg-white'
            }`}
          >
            <input
              type="radio"
              name={name}
              value={value}
              checked={mode === value}
              onChange={() => onChange(value)}
              className="mt-0.5 h-5 w-5 shrink-0 accent-primary-700"
            />
            <span>
              <span className="block font-semibold text-slate-900">{label}</span>
              <span className="block text-sm text-slate-600">{hint}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function LotPanel({
  lot,
  title,
  count,
  errors,
  locked,
  onChange,
}: {
  lot: Lot;
  title: string;
  count: number;
  errors: { condition?: string; price?: string; title?: string; books?: string };
  locked: boolean;
  onChange: (patch: Partial<Lot>) => void;
}) {
  const frozen = locked || lot.status === 'sending';
  return (
    <article aria-labelledby="lot-heading" className="mt-4 rounded-xl border border-primary-300 bg-white p-4 shadow-sm">
      <h2 id="lot-heading" className="font-semibold text-slate-900">
        Le lot {count > 0 ? `(${plural(count, 'manuel')})` : ''}
      </h2>
      {errors.books ? (
        <p className="mt-1 text-sm text-red-700" role="alert" data-invalid="true" tabIndex={-1}>
          {errors.books}
        </p>
      ) : null}
      <Input
        className="mt-3"
        label="Titre de l’annonce *"
        value={title}
        maxLength={200}
        disabled={frozen}
        error={errors.title}
        hint="Proposé d’après les manuels cochés ; vous pouvez le changer."
        onChange={(e) => onChange({ title: e.target.value })}
      />
      <SaleFields
        sale={lot}
        name="le lot"
        errors={errors}
        disabled={frozen}
        photoLabel="Une photo du lot (facultatif)"
        onChange={onChange}
      />
      {lot.status === 'error' && lot.error ? (
        <Alert tone="error" className="mt-3" title="Le lot n’a pas été publié">
          <span data-testid="sell-item-error">{lot.error}</span>
        </Alert>
      ) : null}
    </article>
  );
}

function ItemRow({
  item,
  row,
  pickOnly,
  checked,
  locked,
  onChange,
  onRetry,
}: {
  item: Item;
  row: Row;
  /** Sold in the lot: only picked, the lot has the condition and the price. */
  pickOnly: boolean;
  checked: boolean;
  locked: boolean;
  onChange: (patch: Partial<Row>) => void;
  onRetry: () => void;
}) {
  const id = useId();
  const errors = checked && row.selected && row.status !== 'done' && !pickOnly ? saleProblems(row) : {};
  const frozen = locked || row.status === 'sending' || row.status === 'done';

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

      {row.selected && row.status !== 'done' && !pickOnly ? (
        <SaleFields sale={row} name={item.title} errors={errors} disabled={frozen} onChange={onChange} />
      ) : null}

      {row.status === 'error' && row.error && !pickOnly ? (
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
