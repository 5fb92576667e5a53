import { Badge, BookIcon, Button, EyeIcon, EyeOffIcon, PencilIcon, TrashIcon } from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import { type AdminBook, BOOK_STATUS_LABELS, BOOK_STATUS_TONES } from './api/books';
import type { PendingAction } from './BookActionDialog';

// What a listing shows in its row of the table and in its card on a phone.

export function Thumbnail({ book }: { book: AdminBook }) {
  return book.thumbnail ? (
    <img src={book.thumbnail} alt="" className="h-16 w-12 shrink-0 rounded-md object-cover" loading="lazy" />
  ) : (
    <span className="flex h-16 w-12 shrink-0 items-center justify-center rounded-md bg-slate-100 text-slate-400">
      <BookIcon size={20} />
    </span>
  );
}

export function Badges({ book }: { book: AdminBook }) {
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

/** The title opens the listing's detail; the arrow, its public page in a new tab. */
export function BookTitle({ book, onOpen }: { book: AdminBook; onOpen: (id: number) => void }) {
  return (
    <span className="min-w-0">
      <button
        type="button"
        className="text-left font-medium text-primary-700 hover:underline"
        onClick={() => onOpen(book.id)}
      >
        {book.title}
      </button>
      <a
        href={`/books/${book.id}`}
        target="_blank"
        rel="noreferrer"
        className="ml-1 inline-flex items-center justify-center align-middle text-xs text-slate-500 hover:underline max-md:min-h-11 max-md:min-w-11"
        aria-label={`Page publique de ${book.title} (nouvel onglet)`}
      >
        ↗
      </a>
      <span className="block text-xs text-slate-500">{book.author}</span>
    </span>
  );
}

export function BookOwner({ book }: { book: AdminBook }) {
  return (
    <Link to={`/admin/users/${book.user_id}`} className="text-primary-700 hover:underline">
      {book.owner?.name ?? 'Membre inconnu'}
    </Link>
  );
}

/** What moderation may do to a listing from the list. */
export interface BookActionHandlers {
  /** Opens the dialog of an action that asks for a reason or a status. */
  onAsk: (kind: PendingAction['kind'], book: AdminBook) => void;
  /** Shows a hidden listing again (no reason asked). */
  onUnhide: (book: AdminBook) => void;
  /** The listing being shown again, if any. */
  unhiding: number | null;
}

/** Change the status, hide or show again, delete: icons in the table, labelled buttons in a card. */
export function BookActions({
  book,
  withLabels = false,
  onAsk,
  onUnhide,
  unhiding,
}: BookActionHandlers & { book: AdminBook; withLabels?: boolean }) {
  return (
    <div className={withLabels ? 'flex flex-wrap gap-1' : 'flex gap-1'}>
      <Button
        variant="ghost"
        size={withLabels ? 'sm' : 'icon'}
        aria-label={`Changer le statut de ${book.title}`}
        title="Changer le statut"
        onClick={() => onAsk('status', book)}
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
          loading={unhiding === book.id}
          onClick={() => onUnhide(book)}
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
          onClick={() => onAsk('hide', book)}
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
        onClick={() => onAsk('delete', book)}
        leftIcon={withLabels ? <TrashIcon size={16} /> : undefined}
      >
        {withLabels ? 'Supprimer' : <TrashIcon size={18} />}
      </Button>
    </div>
  );
}
