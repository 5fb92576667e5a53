import { type ConcludeForm, type CreateTransactionRequest, concludeFormSchema } from '@cartable/contracts';
import { ApiError, Button, cn, errorMessage, Input, notify, Select, useSubmissionKey } from '@cartable/ui';
import { Dialog } from '@cartable/ui/overlays';
import { useNavigate } from '@cartable/ui/router';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import { useForm } from 'react-hook-form';
import { truncate } from '../../shared/books';
import { candidatesQuery, memberBooksQuery, useProposeTransaction } from './api/transactions';

export interface ConcludeDialogProps {
  open: boolean;
  onClose: () => void;
  book: { id: number; title: string; price: number };
  /** The member to conclude with (from a conversation); without it, chosen among those who wrote. */
  buyer?: { id: string; name: string };
}

const KINDS: Array<[ConcludeForm['kind'], string, string]> = [
  ['sale', 'Vente', 'À un prix convenu'],
  ['exchange', 'Échange', 'Contre un autre manuel'],
  ['gift', 'Don', 'Gratuitement'],
];

const resolver = zodResolver(concludeFormSchema);

/**
 * « Conclure avec … »: the owner of a listing records a sale (price prefilled with the listing's),
 * an exchange (optionally against one of the other member's available listings) or a gift. The
 * other member confirms or declines from /transactions/{id}.
 */
export function ConcludeDialog({ open, onClose, book, buyer }: ConcludeDialogProps) {
  const navigate = useNavigate();
  const submission = useSubmissionKey();
  const propose = useProposeTransaction();
  const kindName = useId();
  const {
    register,
    handleSubmit,
    watch,
    reset,
    setError,
    formState: { errors },
  } = useForm<ConcludeForm>({
    resolver,
    defaultValues: { buyer_id: buyer?.id ?? '', kind: 'sale', price: String(book.price), exchange_book_id: '' },
  });
  // A fresh form each time it opens (another member, another listing).
  // biome-ignore lint/correctness/useExhaustiveDependencies: `submission` is a new object each render
  useEffect(() => {
    if (open) {
      reset({ buyer_id: buyer?.id ?? '', kind: 'sale', price: String(book.price), exchange_book_id: '' });
      submission.renew();
    }
  }, [open, book.price, buyer?.id, reset]);

  const kind = watch('kind');
  const buyerId = watch('buyer_id');
  const candidates = useQuery({ ...candidatesQuery(book.id), enabled: open && !buyer });
  const theirBooks = useQuery({
    ...memberBooksQuery(buyerId),
    enabled: open && kind === 'exchange' && /^[0-9a-f-]{36}$/i.test(buyerId),
  });
  const offered = (theirBooks.data ?? []).filter((b) => b.status !== 'vendu');
  const buyerName = buyer?.name ?? candidates.data?.find((c) => c.id === buyerId)?.name ?? 'ce membre';

  const submit = handleSubmit((values) => {
    const body: CreateTransactionRequest = {
      book_id: book.id,
      buyer_id: values.buyer_id,
      kind: values.kind,
      ...(values.kind === 'sale' ? { price: Number(values.price.trim()) } : {}),
      ...(values.kind === 'exchange' && values.exchange_book_id
        ? { exchange_book_id: Number(values.exchange_book_id) }
        : {}),
    };
    propose.mutate(
      { body, key: submission.current() },
      {
        onSuccess: (data) => {
          submission.renew();
          void notify.success(data.message);
          onClose();
          navigate(`/transactions/${data.transaction.id}`);
        },
        onError: (error) => {
          if (error instanceof ApiError && error.status === 422) {
            for (const field of ['price', 'buyer_id', 'exchange_book_id'] as const) {
              const message = error.fieldError(field);
              if (message) setError(field, { type: 'server', message });
            }
          } else submission.renew();
          void notify.error(errorMessage(error, 'Erreur lors de l’enregistrement de la transaction'));
        },
      },
    );
  });

  return (
    <Dialog
      open={open}
      onClose={() => (propose.isPending ? undefined : onClose())}
      title={buyer ? `Conclure avec ${buyer.name}` : 'Conclure une vente'}
      description={`« ${truncate(book.title, 70)} » : ${buyerName} devra confirmer la transaction.`}
      footer={
        <div className="grid grid-cols-2 gap-2 sm:flex sm:justify-end">
          <Button variant="outline" onClick={onClose} disabled={propose.isPending}>
            Annuler
          </Button>
          <Button type="submit" form={`${kindName}-form`} loading={propose.isPending}>
            Proposer
          </Button>
        </div>
      }
    >
      <form id={`${kindName}-form`} noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
        {buyer ? (
          <input type="hidden" {...register('buyer_id')} />
        ) : (
          <Select
            label="Membre"
            error={errors.buyer_id?.message}
            hint={
              candidates.isError
                ? errorMessage(candidates.error, 'Impossible de charger les membres.')
                : candidates.data?.length === 0
                  ? 'Personne ne vous a encore écrit au sujet de ce manuel.'
                  : 'Parmi les membres qui vous ont écrit au sujet de ce manuel.'
            }
            disabled={candidates.isPending}
            {...register('buyer_id')}
          >
            <option value="">{candidates.isPending ? 'Chargement…' : 'Choisir un membre'}</option>
            {(candidates.data ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </Select>
        )}

        <fieldset>
          <legend className="mb-2 text-sm font-medium text-slate-800">Type de transaction</legend>
          <div className="grid grid-cols-3 gap-2">
            {KINDS.map(([value, label, hint]) => (
              <label
                key={value}
                className={cn(
                  'flex cursor-pointer flex-col rounded-xl border p-2 text-center text-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-primary-300',
                  kind === value ? 'border-primary-700 bg-primary-50 text-primary-900' : 'border-slate-300 bg-white',
                )}
              >
                <input type="radio" value={value} className="sr-only" {...register('kind')} />
                <span className="font-semibold">{label}</span>
                <span className="text-xs text-slate-500">{hint}</span>
              </label>
            ))}
          </div>
        </fieldset>

        {kind === 'sale' ? (
          <Input
            label="Prix convenu (FCFA)"
            inputMode="numeric"
            autoComplete="off"
            error={errors.price?.message}
            hint="Nombre entier de FCFA ; 0 pour un don."
            {...register('price')}
          />
        ) : null}

        {kind === 'exchange' ? (
          <Select
            label="Manuel reçu en échange (facultatif)"
            error={errors.exchange_book_id?.message}
            hint={
              !buyerId
                ? 'Choisissez d’abord le membre.'
                : theirBooks.isError
                  ? 'Impossible de charger ses annonces.'
                  : offered.length === 0 && !theirBooks.isPending
                    ? `${buyerName} n’a pas d’annonce disponible : l’échange peut porter sur un manuel hors annonce.`
                    : 'Ce manuel passera aussi au statut Vendu à la confirmation.'
            }
            {...register('exchange_book_id')}
          >
            <option value="">Aucun manuel en particulier</option>
            {offered.map((b) => (
              <option key={b.id} value={b.id}>
                {truncate(b.title, 60)}
              </option>
            ))}
          </Select>
        ) : null}

        {kind === 'gift' ? (
          <p className="rounded-xl bg-slate-50 p-3 text-sm text-slate-700">
            Vous donnez ce manuel gratuitement à {buyerName}.
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}
