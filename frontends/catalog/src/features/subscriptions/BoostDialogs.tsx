import { Alert, Button, errorMessage, LazyDialog, notify, Select, Skeleton } from '@cartable/ui';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { myBooksQuery } from '../../shared/api/books';
import { truncate } from '../../shared/books';
import { type BoostedBook, type Subscription, useSetSubscriptionBooks, useTransferBoost } from './api/subscriptions';

/** The member's listings a boost may go to: available and not hidden. */
function useAvailableBooks(enabled: boolean) {
  const books = useQuery({ ...myBooksQuery(), enabled });
  return { ...books, available: (books.data ?? []).filter((b) => b.status === 'disponible' && !b.hidden) };
}

/** For an active member plan: which listings it boosts (at most boost_slots), PUT /subscriptions/{id}/books. */
export function ChooseBooksDialog({
  subscription,
  open,
  onClose,
}: {
  subscription: Subscription;
  open: boolean;
  onClose: () => void;
}) {
  const slots = subscription.plan.boost_slots;
  const books = useAvailableBooks(open);
  const [picked, setPicked] = useState<number[]>([]);
  useEffect(() => {
    if (open) setPicked(subscription.books.filter((b) => !b.ended_at).map((b) => b.book_id));
  }, [open, subscription.books]);
  const save = useSetSubscriptionBooks();
  const toggle = (id: number) =>
    setPicked((current) =>
      current.includes(id) ? current.filter((x) => x !== id) : current.length >= slots ? current : [...current, id],
    );
  return (
    <LazyDialog
      open={open}
      onClose={onClose}
      title="Annonces mises en avant"
      description={`Jusqu’à ${slots} annonce${slots > 1 ? 's' : ''} à la fois : ${picked.length} / ${slots} choisie${picked.length > 1 ? 's' : ''}.`}
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={save.isPending}>
            Annuler
          </Button>
          <Button
            loading={save.isPending}
            onClick={() =>
              save.mutate(
                { id: subscription.id, bookIds: picked },
                {
                  onSuccess: (answer) => {
                    void notify.success(answer.message ?? 'Annonces mises en avant mises à jour');
                    onClose();
                  },
                  onError: (error) => void notify.error(errorMessage(error, 'Le choix n’a pas pu être enregistré.')),
                },
              )
            }
          >
            Enregistrer
          </Button>
        </>
      }
    >
      {books.isError ? (
        <Alert tone="error" title="Vos annonces n’ont pas pu être chargées">
          {errorMessage(books.error, 'Vérifiez votre connexion internet puis réessayez.')}
        </Alert>
      ) : books.isPending ? (
        <div className="space-y-2">
          {[0, 1, 2].map((n) => (
            <Skeleton key={n} className="h-11 w-full" />
          ))}
        </div>
      ) : books.available.length === 0 ? (
        <p className="text-sm text-slate-600">Vous n’avez pas d’annonce disponible à mettre en avant.</p>
      ) : (
        <fieldset>
          <legend className="sr-only">Vos annonces disponibles</legend>
          <ul className="max-h-[50dvh] space-y-1 overflow-y-auto">
            {books.available.map((book) => {
              const checked = picked.includes(book.id);
              return (
                <li key={book.id}>
                  <label className="flex min-h-11 cursor-pointer items-center gap-3 rounded-lg px-2 py-1 hover:bg-slate-50">
                    <input
                      type="checkbox"
                      className="h-5 w-5 accent-primary-700"
                      checked={checked}
                      disabled={!checked && picked.length >= slots}
                      onChange={() => toggle(book.id)}
                    />
                    <span className="text-sm text-slate-900">{truncate(book.title, 70)}</span>
                  </label>
                </li>
              );
            })}
          </ul>
        </fieldset>
      )}
    </LazyDialog>
  );
}

/** A boost whose listing changed owner by a deal moves to another listing: POST /boosted-books/{id}/transfer. */
export function TransferBoostDialog({
  boost,
  open,
  onClose,
}: {
  boost: BoostedBook;
  open: boolean;
  onClose: () => void;
}) {
  const books = useAvailableBooks(open);
  const choices = books.available.filter((b) => b.id !== boost.book_id);
  const [bookId, setBookId] = useState('');
  const transfer = useTransferBoost();
  return (
    <LazyDialog
      open={open}
      onClose={onClose}
      title="Transférer sur une autre annonce"
      description={`« ${truncate(boost.book_title, 60)} » a changé de propriétaire : la mise en avant restante peut passer sur une autre de vos annonces.`}
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={transfer.isPending}>
            Annuler
          </Button>
          <Button
            disabled={!bookId}
            loading={transfer.isPending}
            onClick={() =>
              transfer.mutate(
                { boostId: boost.id, bookId: Number(bookId) },
                {
                  onSuccess: (answer) => {
                    void notify.success(answer.message ?? 'Mise en avant transférée sur votre annonce');
                    onClose();
                  },
                  onError: (error) => void notify.error(errorMessage(error, 'Le transfert n’a pas pu être fait.')),
                },
              )
            }
          >
            Transférer
          </Button>
        </>
      }
    >
      <Select
        label="Annonce"
        value={bookId}
        disabled={books.isPending}
        onChange={(event) => setBookId(event.target.value)}
        hint={
          books.isError
            ? 'Vos annonces n’ont pas pu être chargées.'
            : !books.isPending && choices.length === 0
              ? 'Vous n’avez pas d’autre annonce disponible.'
              : undefined
        }
      >
        <option value="">{books.isPending ? 'Chargement…' : 'Choisir une annonce'}</option>
        {choices.map((b) => (
          <option key={b.id} value={b.id}>
            {truncate(b.title, 60)}
          </option>
        ))}
      </Select>
    </LazyDialog>
  );
}
