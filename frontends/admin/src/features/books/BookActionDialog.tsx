import { Button, Select, Textarea } from '@cartable/ui';
import { Dialog } from '@cartable/ui/overlays';
import { useEffect, useState } from 'react';
import {
  type AdminBook,
  BOOK_STATUS_LABELS,
  BOOK_STATUSES,
  type BookAction,
  type BookStatus,
  REASON_MAX,
  REASON_MIN,
} from './api/books';

export type PendingAction = { kind: 'status' | 'hide' | 'delete'; book: AdminBook };

const TEXT = {
  hide: {
    title: 'Masquer l’annonce',
    description:
      'L’annonce quitte le catalogue public. Son propriétaire la voit toujours, avec le motif, et le reçoit par e-mail.',
    confirm: 'Masquer l’annonce',
  },
  delete: {
    title: 'Supprimer l’annonce',
    description:
      'L’annonce et ses photos sont supprimées définitivement. Son propriétaire reçoit le motif par e-mail. Cette action est irréversible.',
    confirm: 'Supprimer définitivement',
  },
  status: {
    title: 'Changer le statut',
    description: 'Le propriétaire est prévenu par e-mail, avec le motif s’il y en a un.',
    confirm: 'Enregistrer le statut',
  },
} as const;

/** The reason a moderator gives (required to hide or delete, optional for a status), checked as the server does. */
function reasonError(reason: string, required: boolean): string | undefined {
  const text = reason.trim();
  if (!text) return required ? 'Le motif est obligatoire' : undefined;
  if (text.length < REASON_MIN) return `Le motif doit contenir au moins ${REASON_MIN} caractères`;
  if (text.length > REASON_MAX) return `Le motif ne peut pas dépasser ${REASON_MAX} caractères`;
  return undefined;
}

/**
 * Hide, delete (a destructive confirmation: an alertdialog) or change the status of a listing,
 * with the reason its owner will read. The server's field errors show under the field.
 */
export function BookActionDialog({
  pending,
  onClose,
  onSubmit,
  loading,
  serverError,
}: {
  pending: PendingAction | null;
  onClose: () => void;
  onSubmit: (action: BookAction) => void;
  loading: boolean;
  serverError?: string | undefined;
}) {
  const [reason, setReason] = useState('');
  const [status, setStatus] = useState<BookStatus>('disponible');
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    if (!pending) return;
    setReason('');
    setTouched(false);
    setStatus(pending.book.status);
  }, [pending]);

  if (!pending) return null;
  const text = TEXT[pending.kind];
  const required = pending.kind !== 'status';
  const error = touched ? (reasonError(reason, required) ?? serverError) : serverError;

  const submit = () => {
    setTouched(true);
    if (reasonError(reason, required)) return;
    const trimmed = reason.trim();
    if (pending.kind === 'status')
      onSubmit({ kind: 'status', book: pending.book, status, ...(trimmed ? { reason: trimmed } : {}) });
    else onSubmit({ kind: pending.kind, book: pending.book, reason: trimmed });
  };

  return (
    <Dialog
      open
      onClose={loading ? () => {} : onClose}
      role={pending.kind === 'delete' ? 'alertdialog' : 'dialog'}
      title={text.title}
      description={
        <>
          <span className="font-medium text-slate-900">« {pending.book.title} »</span> — {text.description}
        </>
      }
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={loading}>
            Annuler
          </Button>
          <Button
            variant={pending.kind === 'delete' ? 'danger' : 'primary'}
            onClick={submit}
            loading={loading}
            data-testid="book-action-confirm"
          >
            {text.confirm}
          </Button>
        </>
      }
    >
      <form
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        {pending.kind === 'status' ? (
          <Select label="Nouveau statut" value={status} onChange={(e) => setStatus(e.target.value as BookStatus)}>
            {BOOK_STATUSES.map((value) => (
              <option key={value} value={value}>
                {BOOK_STATUS_LABELS[value]}
              </option>
            ))}
          </Select>
        ) : null}
        <Textarea
          label={required ? 'Motif (envoyé au propriétaire)' : 'Motif (facultatif, envoyé au propriétaire)'}
          value={reason}
          rows={4}
          maxLength={REASON_MAX + 50}
          onChange={(event) => setReason(event.target.value)}
          onBlur={() => setTouched(true)}
          error={error}
          hint={`${reason.trim().length}/${REASON_MAX} caractères${required ? `, ${REASON_MIN} au moins` : ''}`}
          name="reason"
        />
      </form>
    </Dialog>
  );
}
