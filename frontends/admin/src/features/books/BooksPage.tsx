import {
  Badge,
  BookIcon,
  Button,
  CloseIcon,
  EyeIcon,
  EyeOffIcon,
  errorMessage,
  formatDate,
  formatPrice,
  Input,
  notify,
  PageHeader,
  Pagination,
  PencilIcon,
  RefreshIcon,
  SearchIcon,
  Select,
  TrashIcon,
  useCities,
  useDocumentTitle,
} from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { type Column, DataTable } from '../../shared/DataTable';
import { useListParams } from '../../shared/useListParams';
import {
  type AdminBook,
  BOOK_SORTS,
  BOOK_STATUS_LABELS,
  BOOK_STATUS_TONES,
  BOOK_STATUSES,
  type BookQuery,
  type BookSort,
  type BookStatus,
  bookKeys,
  useBookAction,
  useBooks,
  useCategoryOptions,
} from './api/books';
import { BookActionDialog, type PendingAction } from './BookActionDialog';
import { BookDetailDialog } from './BookDetailDialog';

const PER_PAGE = 20;
const GABON = 266;

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | '' =>
  value !== null && (values as readonly string[]).includes(value) ? (value as T) : '';
const positive = (value: string | null) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : '';
};

function Thumbnail({ book }: { book: AdminBook }) {
  return book.thumbnail ? (
    <img src={book.thumbnail} alt="" className="h-16 w-12 shrink-0 rounded-md object-cover" loading="lazy" />
  ) : (
    <span className="flex h-16 w-12 shrink-0 items-center justify-center rounded-md bg-slate-100 text-slate-400">
      <BookIcon size={20} />
    </span>
  );
}

function Badges({ book }: { book: AdminBook }) {
  return (
    <span className="flex flex-wrap gap-1">
      <Badge tone={BOOK_STATUS_TONES[book.status]}>{BOOK_STATUS_LABELS[book.status]}</Badge>
      {book.hidden ? (
        <Badge tone="danger" title={book.hidden_reason ?? undefined}>
          Masquée
        </Badge>
      ) : null}
    </span>
  );
}

/** The back office's listings (SPEC section 2 « Gestion des livres »): find, hide, change the status, delete. */
export default function BooksPage() {
  useDocumentTitle('Gestion des livres · Administration');
  const { params, update, page } = useListParams();
  const queryClient = useQueryClient();
  const search = params.get('search') ?? '';
  const [term, setTerm] = useState(search);
  const [detail, setDetail] = useState<number | null>(null);
  const [pending, setPending] = useState<PendingAction | null>(null);
  const [serverError, setServerError] = useState<string>();

  const sortBy = (oneOf(Object.keys(BOOK_SORTS) as BookSort[], params.get('sort_by')) || 'created_at') as BookSort;
  const direction = params.get('sort_direction') === 'asc' ? 'asc' : 'desc';
  const query: BookQuery = {
    search,
    status: oneOf(BOOK_STATUSES, params.get('status')),
    hidden: oneOf(['true', 'false'] as const, params.get('hidden')),
    city_id: positive(params.get('city_id')),
    category_id: positive(params.get('category_id')),
    ...(params.get('owner_id') ? { owner_id: params.get('owner_id') as string } : {}),
    sort_by: sortBy,
    sort_direction: direction,
    page,
    per_page: PER_PAGE,
  };
  const list = useBooks(query);
  const cities = useCities(GABON);
  const categories = useCategoryOptions();

  // The search is sent 300 ms after the last key.
  // biome-ignore lint/correctness/useExhaustiveDependencies: debounced on the typed text only
  useEffect(() => {
    if (term.trim() === search) return;
    const timer = window.setTimeout(() => update({ search: term.trim() || null }), 300);
    return () => window.clearTimeout(timer);
  }, [term]);

  const action = useBookAction(queryClient, {
    onSuccess: (message, done) => {
      setPending(null);
      setServerError(undefined);
      void notify.success(done.kind === 'status' ? message : message);
    },
    onError: (error) => {
      const fieldError = (error as { errors?: Record<string, string[]> }).errors?.reason?.[0];
      if (fieldError) setServerError(fieldError);
      else {
        setPending(null);
        void notify.error(errorMessage(error, 'L’action n’a pas pu être effectuée.'));
      }
    },
  });

  const open = (kind: PendingAction['kind'], book: AdminBook) => {
    setServerError(undefined);
    setPending({ kind, book });
  };

  const actions = (book: AdminBook, withLabels = false) => (
    <div className="flex flex-wrap gap-1">
      <Button
        variant="ghost"
        size={withLabels ? 'sm' : 'icon'}
        aria-label={`Changer le statut de ${book.title}`}
        title="Changer le statut"
        onClick={() => open('status', book)}
        leftIcon={withLabels ? <PencilIcon size={16} /> : undefined}
      >
        {withLabels ? 'Statut' : <PencilIcon size={18} />}
      </Button>
      {book.hidden ? (
        <Button
          variant="ghost"
          size={withLabels ? 'sm' : 'icon'}
          aria-label={`Rendre visible ${book.title}`}
          title="Rendre visible"
          loading={action.isPending && action.variables?.book.id === book.id && action.variables.kind === 'unhide'}
          onClick={() => action.mutate({ kind: 'unhide', book })}
          leftIcon={withLabels ? <EyeIcon size={16} /> : undefined}
        >
          {withLabels ? 'Rendre visible' : <EyeIcon size={18} />}
        </Button>
      ) : (
        <Button
          variant="ghost"
          size={withLabels ? 'sm' : 'icon'}
          aria-label={`Masquer ${book.title}`}
          title="Masquer"
          onClick={() => open('hide', book)}
          leftIcon={withLabels ? <EyeOffIcon size={16} /> : undefined}
        >
          {withLabels ? 'Masquer' : <EyeOffIcon size={18} />}
        </Button>
      )}
      <Button
        variant="ghost"
        size={withLabels ? 'sm' : 'icon'}
        className="text-red-700 hover:bg-red-50"
        aria-label={`Supprimer ${book.title}`}
        title="Supprimer"
        onClick={() => open('delete', book)}
        leftIcon={withLabels ? <TrashIcon size={16} /> : undefined}
      >
        {withLabels ? 'Supprimer' : <TrashIcon size={18} />}
      </Button>
    </div>
  );

  const title = (book: AdminBook) => (
    <span className="min-w-0">
      <button
        type="button"
        className="text-left font-medium text-primary-700 hover:underline"
        onClick={() => setDetail(book.id)}
      >
        {book.title}
      </button>
      <a
        href={`/books/${book.id}`}
        target="_blank"
        rel="noreferrer"
        className="ml-1 text-xs text-slate-500 hover:underline"
        aria-label={`Page publique de ${book.title} (nouvel onglet)`}
      >
        ↗
      </a>
      <span className="block text-xs text-slate-500">{book.author}</span>
    </span>
  );

  const owner = (book: AdminBook) => (
    <Link to={`/admin/users/${book.user_id}`} className="text-primary-700 hover:underline">
      {book.owner?.name ?? 'Membre inconnu'}
    </Link>
  );

  const columns: Column<AdminBook>[] = [
    {
      key: 'book',
      header: 'Livre',
      cell: (book) => (
        <span className="flex items-start gap-3">
          <Thumbnail book={book} />
          {title(book)}
        </span>
      ),
    },
    {
      key: 'owner',
      header: 'Propriétaire',
      cell: (book) => (
        <>
          {owner(book)}
          {book.owner?.email ? (
            <span className="block text-xs break-all text-slate-500">{book.owner.email}</span>
          ) : null}
        </>
      ),
      className: 'w-44',
    },
    { key: 'city', header: 'Ville', cell: (book) => book.city?.name ?? '—', className: 'w-28' },
    {
      key: 'price',
      header: 'Prix',
      cell: (book) => <span className="whitespace-nowrap">{formatPrice(book.price)}</span>,
      className: 'w-28',
    },
    { key: 'status', header: 'Statut', cell: (book) => <Badges book={book} />, className: 'w-28' },
    {
      key: 'date',
      header: 'Publiée le',
      cell: (book) => <span className="whitespace-nowrap text-slate-600">{formatDate(book.created_at)}</span>,
      className: 'w-32',
    },
    {
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      cell: (book) => actions(book),
      className: 'w-32',
    },
  ];

  const filtered = Boolean(
    search || query.status || query.hidden || query.city_id || query.category_id || query.owner_id,
  );
  const meta = list.data?.meta;

  return (
    <>
      <PageHeader
        title="Gestion des livres"
        description={
          meta ? `${meta.total.toLocaleString('fr-FR')} annonce${meta.total > 1 ? 's' : ''}` : 'Toutes les annonces'
        }
        actions={
          <Button
            variant="outline"
            size="sm"
            leftIcon={<RefreshIcon size={16} />}
            loading={list.isFetching && !list.isPending}
            onClick={() => void queryClient.invalidateQueries({ queryKey: bookKeys.all })}
          >
            Actualiser
          </Button>
        }
      />

      <div className="mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-6">
        <div className="sm:col-span-2 lg:col-span-3 xl:col-span-2">
          <Input
            label="Rechercher"
            type="search"
            placeholder="Titre, auteur ou ISBN…"
            value={term}
            onChange={(event) => setTerm(event.target.value)}
            trailing={<SearchIcon size={18} className="mr-2 text-slate-400" />}
          />
        </div>
        <Select label="Statut" value={query.status} onChange={(e) => update({ status: e.target.value })}>
          <option value="">Tous</option>
          {BOOK_STATUSES.map((value) => (
            <option key={value} value={value}>
              {BOOK_STATUS_LABELS[value as BookStatus]}
            </option>
          ))}
        </Select>
        <Select label="Visibilité" value={query.hidden} onChange={(e) => update({ hidden: e.target.value })}>
          <option value="">Toutes</option>
          <option value="false">Visibles</option>
          <option value="true">Masquées</option>
        </Select>
        <Select label="Ville" value={String(query.city_id)} onChange={(e) => update({ city_id: e.target.value })}>
          <option value="">Toutes les villes</option>
          {(cities.data ?? []).map((city) => (
            <option key={city.id} value={city.id}>
              {city.name}
            </option>
          ))}
        </Select>
        <Select
          label="Catégorie"
          value={String(query.category_id)}
          onChange={(e) => update({ category_id: e.target.value })}
        >
          <option value="">Toutes les catégories</option>
          {(categories.data ?? []).map((category) => (
            <option key={category.id} value={category.id}>
              {'\u00a0'.repeat(category.depth * 2)}
              {category.name}
            </option>
          ))}
        </Select>
        <Select
          label="Trier par"
          value={`${sortBy}:${direction}`}
          onChange={(e) => {
            const [by, dir] = e.target.value.split(':');
            update({ sort_by: by === 'created_at' ? null : by, sort_direction: dir === 'desc' ? null : dir });
          }}
        >
          {(Object.keys(BOOK_SORTS) as BookSort[]).flatMap((key) => [
            <option key={`${key}:desc`} value={`${key}:desc`}>
              {BOOK_SORTS[key]} {key === 'title' ? '(Z → A)' : key === 'created_at' ? '(récentes)' : '(décroissant)'}
            </option>,
            <option key={`${key}:asc`} value={`${key}:asc`}>
              {BOOK_SORTS[key]} {key === 'title' ? '(A → Z)' : key === 'created_at' ? '(anciennes)' : '(croissant)'}
            </option>,
          ])}
        </Select>
      </div>

      {query.owner_id ? (
        <p className="mb-3 flex flex-wrap items-center gap-2 text-sm text-slate-700" role="status">
          Annonces d’un seul membre
          {list.data?.data[0]?.owner ? ` : ${list.data.data[0].owner.name}` : ''}
          <Button
            variant="ghost"
            size="sm"
            leftIcon={<CloseIcon size={14} />}
            onClick={() => update({ owner_id: null })}
          >
            Tous les membres
          </Button>
        </p>
      ) : null}

      <DataTable
        caption="Annonces"
        testId="book"
        columns={columns}
        rows={list.data?.data}
        rowKey={(book) => book.id}
        query={list}
        errorText="Les annonces n’ont pas pu être chargées."
        rowClassName={(book) => (book.hidden ? 'bg-red-50/40' : undefined)}
        empty={{
          icon: <BookIcon size={26} />,
          title: filtered ? 'Aucune annonce ne correspond à ces critères' : 'Aucune annonce pour le moment',
          action: filtered ? (
            <Button
              variant="outline"
              onClick={() => {
                setTerm('');
                update({ search: null, status: null, hidden: null, city_id: null, category_id: null, owner_id: null });
              }}
            >
              Effacer les filtres
            </Button>
          ) : undefined,
        }}
        card={(book) => (
          <div className="flex gap-3">
            <Thumbnail book={book} />
            <div className="min-w-0 flex-1 space-y-1">
              {title(book)}
              <p className="text-sm">
                {owner(book)} <span className="text-slate-500">· {book.city?.name ?? '—'}</span>
              </p>
              <p className="font-semibold text-slate-900">{formatPrice(book.price)}</p>
              <Badges book={book} />
              {actions(book, true)}
            </div>
          </div>
        )}
      />

      <Pagination
        edges
        compact
        className="mt-5"
        page={meta?.current_page ?? page}
        lastPage={meta?.last_page ?? 1}
        onPage={(target) => update({ page: target > 1 ? target : null })}
      />

      <BookDetailDialog id={detail} onClose={() => setDetail(null)} />
      <BookActionDialog
        pending={pending}
        onClose={() => setPending(null)}
        onSubmit={(next) => action.mutate(next)}
        loading={action.isPending}
        serverError={serverError}
      />
    </>
  );
}
