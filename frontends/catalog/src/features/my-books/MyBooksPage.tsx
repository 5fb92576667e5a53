import { bookStatuses } from '@cartable/contracts/labels';
import {
  BookIcon,
  Button,
  buttonClasses,
  Container,
  cn,
  EmptyState,
  EyeIcon,
  errorMessage,
  formatDate,
  HandshakeIcon,
  LazyConfirmDialog,
  LoadFailed,
  notify,
  PageHeader,
  PencilIcon,
  PlusIcon,
  RefreshIcon,
  Skeleton,
  StarIcon,
  TrashIcon,
  useDocumentTitle,
} from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import { useId, useState } from 'react';
import { BookCover, Price } from '../../entities/book/BookCard';
import { ConcludeDialog } from '../../entities/transaction/LazyConcludeDialog';
import { type Book, type BookStatus, conditionLabel, statusLabel, truncate } from '../../shared/books';
import { messages } from '../../shared/messages';

import { relistable, useDeleteMyBook, useMyBooks, useRelist, useUpdateStatus } from './api/my-books';

type Tab = 'all' | BookStatus;
const TABS: Array<[Tab, string]> = [
  ['all', 'Toutes'],
  ['disponible', 'Disponibles'],
  ['réservé', 'Réservées'],
  ['vendu', 'Vendues'],
];

/** The member's listings, every status (GET /api/user/books). */
export default function MyBooksPage() {
  useDocumentTitle('Mes manuels');
  const [tab, setTab] = useState<Tab>('all');
  const [toDelete, setToDelete] = useState<Book | null>(null);
  const [toConclude, setToConclude] = useState<Book | null>(null);
  const books = useMyBooks();

  const status = useUpdateStatus({
    onSuccess: (data, next) => void notify.success(data.message ?? `Statut mis à jour : ${statusLabel(next)}`),
    onError: (error) => void notify.error(errorMessage(error, messages.statusError)),
  });

  const relist = useRelist({
    onSuccess: (message) => void notify.success(message),
    onError: (error) => void notify.error(errorMessage(error, 'L’annonce n’a pas pu être remise en vente. Réessayez.')),
  });

  const remove = useDeleteMyBook({
    onSuccess: () => {
      setToDelete(null);
      void notify.success(messages.deleteSuccess);
    },
    onError: () => {
      setToDelete(null);
      void notify.error(messages.deleteError);
    },
  });

  const list = books.data ?? [];
  const counts = {
    all: list.length,
    disponible: list.filter((b) => b.status === 'disponible').length,
    réservé: list.filter((b) => b.status === 'réservé').length,
    vendu: list.filter((b) => b.status !== 'disponible' && b.status !== 'réservé').length,
  };
  const shown =
    tab === 'all'
      ? list
      : list.filter((b) => (tab === 'vendu' ? b.status !== 'disponible' && b.status !== 'réservé' : b.status === tab));

  return (
    <Container className="py-6 sm:py-10">
      <PageHeader
        title="Mes manuels"
        description="Vos annonces : changez leur statut, modifiez-les ou supprimez-les."
        actions={
          <Link to="/books/add" className={buttonClasses('primary')}>
            <PlusIcon size={18} /> Ajouter un manuel
          </Link>
        }
      />

      {books.isError ? (
        <LoadFailed title={messages.booksError} query={books} />
      ) : books.isPending ? (
        <div className="space-y-3" aria-busy="true">
          <span className="sr-only" role="status">
            Chargement de vos annonces…
          </span>
          {['a', 'b', 'c'].map((key) => (
            <div key={key} className="flex gap-4 rounded-xl border border-slate-200 bg-white p-3">
              <Skeleton className="h-24 w-18 shrink-0" />
              <div className="flex-1 space-y-2">
                <Skeleton className="h-4 w-2/3" />
                <Skeleton className="h-3 w-1/3" />
                <Skeleton className="h-9 w-40" />
              </div>
            </div>
          ))}
        </div>
      ) : list.length === 0 ? (
        <EmptyState
          icon={<BookIcon size={26} />}
          title="Vous n'avez pas encore d'annonce"
          description="Publiez votre premier manuel en quelques minutes : une photo, un prix, c'est parti."
          action={
            <Link to="/books/add" className={buttonClasses('primary')}>
              <PlusIcon size={18} /> Ajouter un manuel
            </Link>
          }
        />
      ) : (
        <>
          <div role="tablist" aria-label="Filtrer par statut" className="mb-4 flex flex-wrap gap-1.5">
            {TABS.map(([key, label]) => (
              <button
                key={key}
                type="button"
                role="tab"
                aria-selected={tab === key}
                onClick={() => setTab(key)}
                className={cn(
                  'h-9 shrink-0 rounded-full border px-3 text-sm font-medium',
                  tab === key
                    ? 'border-primary-700 bg-primary-700 text-white'
                    : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50',
                )}
              >
                {label} <span className={tab === key ? 'text-white' : 'text-slate-600'}>({counts[key]})</span>
              </button>
            ))}
          </div>
          {shown.length === 0 ? (
            <p className="rounded-xl border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-600">
              Aucune annonce avec ce statut.
            </p>
          ) : (
            <ul className="space-y-3" aria-label="Mes annonces">
              {shown.map((book) => (
                <MyBookRow
                  key={book.id}
                  book={book}
                  busy={
                    (status.isPending && status.variables?.book.id === book.id) ||
                    (relist.isPending && relist.variables?.id === book.id)
                  }
                  onStatus={(next) => status.mutate({ book, next })}
                  onRelist={() => relist.mutate(book)}
                  onDelete={() => setToDelete(book)}
                  onConclude={() => setToConclude(book)}
                />
              ))}
            </ul>
          )}
        </>
      )}

      {toConclude ? (
        <ConcludeDialog
          open
          onClose={() => setToConclude(null)}
          book={{ id: toConclude.id, title: toConclude.title, price: toConclude.price }}
        />
      ) : null}

      <LazyConfirmDialog
        open={toDelete !== null}
        title="Supprimer cette annonce ?"
        description={toDelete ? `« ${toDelete.title} » et ses photos seront supprimés définitivement.` : undefined}
        confirmLabel="Supprimer l'annonce"
        loading={remove.isPending}
        onConfirm={() => toDelete && remove.mutate(toDelete)}
        onCancel={() => setToDelete(null)}
      />
    </Container>
  );
}

function MyBookRow({
  book,
  busy,
  onStatus,
  onDelete,
  onConclude,
  onRelist,
}: {
  book: Book;
  busy: boolean;
  onStatus: (next: BookStatus) => void;
  /** Put back on sale as new (a listing unsold since last school year). */
  onRelist: () => void;
  onDelete: () => void;
  /** Record a deal with a member who wrote about this listing. */
  onConclude: () => void;
}) {
  const selectId = useId();
  const current = (bookStatuses as readonly string[]).includes(book.status) ? book.status : 'vendu';
  return (
    <li className="grid grid-cols-[5rem_minmax(0,1fr)] gap-3 rounded-xl border border-slate-200 bg-white p-3 shadow-sm sm:flex sm:gap-4 sm:p-4">
      <Link to={`/books/${book.id}`} tabIndex={-1} aria-hidden="true" className="shrink-0">
        <BookCover src={book.thumbnail} alt="" className="h-28 w-20 rounded-lg sm:h-32 sm:w-24" />
      </Link>
      <div className="min-w-0 sm:flex-1">
        <h2 className="font-semibold text-slate-900">
          <Link to={`/books/${book.id}`} className="tap-target hover:underline" title={book.title}>
            {truncate(book.title)}
          </Link>
        </h2>
        <p className="truncate text-sm text-slate-600">{book.author}</p>
        {book.hidden ? (
          <p className="mt-1 rounded-lg bg-red-50 px-2 py-1 text-xs text-red-800" data-testid="hidden-by-moderation">
            <span className="font-semibold">Masquée par la modération</span>
            {book.hidden_reason ? ` : ${book.hidden_reason}` : ''}
          </p>
        ) : null}
        <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-500">
          <Price value={book.price} className="text-sm" />
          <span>{conditionLabel(book)}</span>
          {book.created_at ? <span>Publiée le {formatDate(book.created_at)}</span> : null}
          {typeof book.views === 'number' ? (
            <span className="inline-flex items-center gap-1">
              <EyeIcon size={13} /> {book.views} vue{book.views > 1 ? 's' : ''}
            </span>
          ) : null}
        </p>
      </div>
      {/* Phones: a full-width row under the book; from sm: a column on the right. */}
      <div className="col-span-2 grid grid-cols-2 gap-2 sm:flex sm:w-44 sm:shrink-0 sm:flex-col">
        <label htmlFor={selectId} className="sr-only">
          Statut de « {book.title} »
        </label>
        <select
          id={selectId}
          value={current}
          disabled={busy}
          onChange={(event) => onStatus(event.target.value as BookStatus)}
          className={cn(
            'col-span-2 h-9 min-w-0 rounded-lg border px-2 text-sm font-medium focus:ring-2 focus:ring-primary-100 focus:outline-none',
            current === 'disponible'
              ? 'border-primary-300 bg-primary-50 text-primary-900'
              : current === 'réservé'
                ? 'border-accent-300 bg-accent-50 text-accent-900'
                : 'border-slate-300 bg-slate-100 text-slate-700',
          )}
        >
          {bookStatuses.map((value) => (
            <option key={value} value={value}>
              {statusLabel(value)}
            </option>
          ))}
        </select>
        <Link
          to={`/books/edit/${book.id}`}
          className={buttonClasses('outline', 'sm', 'min-w-0 px-2')}
          aria-label={`Modifier « ${book.title} »`}
        >
          <PencilIcon size={15} /> <span aria-hidden="true">Modifier</span>
        </Link>
        <Button
          variant="outline"
          size="sm"
          className="min-w-0 border-red-200 px-2 text-red-700 hover:bg-red-50"
          onClick={onDelete}
          aria-label={`Supprimer « ${book.title} »`}
          leftIcon={<TrashIcon size={15} />}
        >
          <span aria-hidden="true">Supprimer</span>
        </Button>
        {current !== 'vendu' && !book.hidden ? (
          <Button
            variant="outline"
            size="sm"
            className="col-span-2 min-w-0 px-2"
            onClick={onConclude}
            aria-label={`Conclure une vente pour « ${book.title} »`}
            leftIcon={<HandshakeIcon size={15} />}
          >
            <span aria-hidden="true">Conclure une vente</span>
          </Button>
        ) : null}
        {relistable(book) ? (
          <Button
            variant="outline"
            size="sm"
            className="col-span-2 min-w-0 px-2"
            onClick={onRelist}
            disabled={busy}
            aria-label={`Remettre en vente « ${book.title} »`}
            title="En vente depuis l’an dernier : elle apparaîtra de nouveau parmi les récentes."
            leftIcon={<RefreshIcon size={15} />}
          >
            <span aria-hidden="true">Remettre en vente</span>
          </Button>
        ) : null}
        {current === 'disponible' && !book.hidden ? (
          <Link
            to={`/books/${book.id}/subscription`}
            className={buttonClasses('outline', 'sm', 'col-span-2 min-w-0 px-2')}
            aria-label={`Mettre en avant « ${book.title} »`}
          >
            <StarIcon size={15} /> <span aria-hidden="true">Mettre en avant</span>
          </Link>
        ) : null}
      </div>
    </li>
  );
}
