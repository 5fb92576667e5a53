import type { ReportReason } from '@cartable/contracts';
import { AlertIcon, Button, cn, errorMessage, LazyDialog, notify, Textarea, useSession } from '@cartable/ui';
import { useId, useState } from 'react';
import { type ReportTarget, reasonsFor, useSendReport } from './api/reports';

const WHAT: Record<ReportTarget['type'], string> = {
  book: 'cette annonce',
  user: 'ce membre',
  comment: 'ce commentaire',
  message: 'ce message',
};

/**
 * « Signaler »: a reason (arnaque, contenu inapproprié, manuel déjà vendu, doublon, autre with a
 * few words), once per member and content; the server says when it was already done.
 */
export function ReportButton({
  target,
  className,
  compact = false,
}: {
  target: ReportTarget;
  className?: string;
  /** A small text button (comments, messages). */
  compact?: boolean;
}) {
  const { isAuthenticated } = useSession();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState<ReportReason | ''>('');
  const [details, setDetails] = useState('');
  const [error, setError] = useState<{ reason?: string; details?: string }>({});
  const groupId = useId();
  const send = useSendReport(target, {
    onSuccess: (answer) => {
      void notify.success(answer.message || 'Signalement envoyé');
      setOpen(false);
    },
    onError: (failure) => void notify.error(errorMessage(failure, 'Erreur lors de l’envoi du signalement')),
  });

  const submit = () => {
    if (!reason) return setError({ reason: 'Choisissez une raison.' });
    if (reason === 'autre' && details.trim().length < 5)
      return setError({ details: 'Précisez la raison (au moins 5 caractères).' });
    send.mutate({ reason, ...(details.trim() ? { details: details.trim() } : {}) });
  };

  return (
    <>
      <Button
        variant="ghost"
        size="sm"
        className={cn('text-slate-600', compact && 'h-auto px-1.5 py-1 text-xs', className)}
        leftIcon={compact ? undefined : <AlertIcon size={16} />}
        onClick={() => {
          if (!isAuthenticated) {
            void notify.error('Vous devez être connecté pour signaler un contenu');
            return;
          }
          setReason('');
          setDetails('');
          setError({});
          setOpen(true);
        }}
        aria-label={compact ? `Signaler ${WHAT[target.type]}` : undefined}
      >
        Signaler
      </Button>
      <LazyDialog
        open={open}
        onClose={send.isPending ? () => {} : () => setOpen(false)}
        title={`Signaler ${WHAT[target.type]}`}
        description="Notre équipe examine chaque signalement. Le membre concerné ne sait pas qui l’a signalé."
        footer={
          <>
            <Button variant="outline" onClick={() => setOpen(false)} disabled={send.isPending}>
              Annuler
            </Button>
            <Button onClick={submit} loading={send.isPending}>
              Envoyer le signalement
            </Button>
          </>
        }
      >
        <fieldset className="space-y-1" aria-describedby={error.reason ? `${groupId}-error` : undefined}>
          <legend className="mb-1 text-sm font-medium text-slate-800">Raison</legend>
          {reasonsFor(target.type).map((option) => (
            // The whole 44 px row is the finger's target, not the 16 px circle.
            <label
              key={option.value}
              className="-mx-2 flex min-h-11 cursor-pointer items-center gap-3 rounded-lg px-2 text-sm text-slate-800 hover:bg-slate-50"
            >
              <input
                type="radio"
                name={groupId}
                value={option.value}
                checked={reason === option.value}
                onChange={() => {
                  setReason(option.value);
                  setError({});
                }}
                className="h-4 w-4 accent-primary-700"
              />
              {option.label}
            </label>
          ))}
          {error.reason ? (
            <p id={`${groupId}-error`} className="text-sm text-red-700">
              {error.reason}
            </p>
          ) : null}
        </fieldset>
        <Textarea
          className="mt-4"
          label={reason === 'autre' ? 'Précisez' : 'Précisions (facultatif)'}
          value={details}
          maxLength={500}
          rows={3}
          onChange={(event) => {
            setDetails(event.target.value);
            setError({});
          }}
          error={error.details}
        />
      </LazyDialog>
    </>
  );
}
