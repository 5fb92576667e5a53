import {
  Alert,
  ApiError,
  Avatar,
  Button,
  buttonClasses,
  ChevronLeftIcon,
  Container,
  EmptyState,
  errorMessage,
  formatDateTime,
  HandshakeIcon,
  isNotFound,
  MessageIcon,
  notify,
  PageSpinner,
  RefreshIcon,
  StarIcon,
  useDocumentTitle,
} from '@cartable/ui';
import { ConfirmDialog } from '@cartable/ui/overlays';
import { Link, useParams } from '@cartable/ui/router';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { BookCover } from '../../entities/book/BookCard';
import {
  type Transaction,
  type TransactionStatus,
  transactionQuery,
} from '../../entities/transaction/api/transactions';
import { Stars } from '../../shared/components/Stars';
import { type TransactionAction, useTransactionAction } from './api/transactions';
import { StatusBadge, termsOf } from './parts';

const DIALOGS: Record<
  TransactionAction,
  { title: string; description: (t: Transaction) => string; label: string; tone: 'primary' | 'danger' }
> = {
  confirm: {
    title: 'Confirmer cette transaction ?',
    description: (t) =>
      `${termsOf(t)} de « ${t.book.title} » avec ${t.seller.name}. Une fois confirmée, la transaction est définitive et l’annonce passe au statut Vendu.`,
    label: 'Confirmer la transaction',
    tone: 'primary',
  },
  decline: {
    title: 'Refuser cette transaction ?',
    description: (t) => `${t.seller.name} sera prévenu(e) par e-mail. L’annonce reste disponible.`,
    label: 'Refuser',
    tone: 'danger',
  },
  cancel: {
    title: 'Annuler cette transaction ?',
    description: (t) =>
      `La proposition sera annulée et ${t.role === 'seller' ? t.buyer.name : t.seller.name} en sera prévenu(e) par e-mail.`,
    label: 'Annuler la transaction',
    tone: 'danger',
  },
};

/** /transactions/:id: the book, the parties, the terms, the dates, the conversation and the rating; the answers. */
export default function TransactionDetailPage() {
  const { id = '' } = useParams();
  const deal = useQuery(transactionQuery(id));
  const [asked, setAsked] = useState<TransactionAction | null>(null);
  const act = useTransactionAction();
  useDocumentTitle(deal.data ? `Transaction : ${deal.data.book.title}` : 'Détails de la transaction');

  if (deal.isPending) return <PageSpinner />;
  if (deal.isError) {
    const gone = isNotFound(deal.error) || (deal.error instanceof ApiError && deal.error.status === 403);
    return (
      <Container className="py-10">
        {gone ? (
          <EmptyState
            headingLevel={1}
            tone="warning"
            icon={<HandshakeIcon size={26} />}
            title="Transaction introuvable"
            description="Elle n’existe pas, ou ne vous concerne pas : seules les deux parties d’une transaction peuvent la consulter."
            action={
              <Link to="/transactions" className={buttonClasses('primary')}>
                Mes transactions
              </Link>
            }
          />
        ) : (
          <Alert tone="error" title="Impossible de charger la transaction">
            <p>{errorMessage(deal.error, 'Vérifiez votre connexion puis réessayez.')}</p>
            <Button
              className="mt-3"
              size="sm"
              variant="outline"
              leftIcon={<RefreshIcon size={16} />}
              onClick={() => void deal.refetch()}
            >
              Réessayer
            </Button>
          </Alert>
        )}
      </Container>
    );
  }

  const t = deal.data;
  const other = t.role === 'seller' ? t.buyer : t.seller;
  const open = t.status === 'proposed';
  const run = (action: TransactionAction) =>
    act.mutate(
      { id: t.id, action },
      {
        onSuccess: (data) => {
          setAsked(null);
          void notify.success(data.message);
        },
        onError: (error) => {
          setAsked(null);
          void notify.error(errorMessage(error, 'Erreur lors de la mise à jour de la transaction'));
        },
      },
    );

  return (
    <Container className="max-w-3xl py-6 sm:py-10">
      <Link
        to="/transactions"
        className="mb-4 inline-flex items-center gap-1 text-sm font-medium text-primary-800 hover:underline"
      >
        <ChevronLeftIcon size={16} /> Mes transactions
      </Link>

      <article className="space-y-5 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <header className="flex gap-4">
          <BookCover src={t.book.thumbnail} alt="" className="h-28 w-20 shrink-0 rounded-lg" />
          <div className="min-w-0">
            <StatusBadge status={t.status as TransactionStatus} label={t.status_label} />
            <h1 className="mt-2 text-lg font-bold break-words text-slate-900 sm:text-xl">
              {t.book.exists ? (
                <Link to={`/books/${t.book.id}`} className="hover:underline">
                  {t.book.title}
                </Link>
              ) : (
                t.book.title
              )}
            </h1>
            <p className="mt-1 font-semibold text-primary-800" data-testid="transaction-terms">
              {termsOf(t)}
            </p>
          </div>
        </header>

        {open && t.role === 'buyer' ? (
          <Alert tone="info" title="Cette transaction attend votre réponse">
            {t.seller.name} propose de conclure avec vous. Confirmez si vous êtes d’accord : l’annonce passera au statut
            Vendu.
          </Alert>
        ) : open ? (
          <Alert tone="info" title={`En attente de la réponse de ${t.buyer.name}`}>
            Vous pouvez annuler la proposition tant qu’elle n’est pas confirmée.
          </Alert>
        ) : null}

        <dl className="grid gap-4 sm:grid-cols-2">
          <Party label="Vendeur" member={t.seller} me={t.role === 'seller'} />
          <Party label="Acheteur" member={t.buyer} me={t.role === 'buyer'} />
          {t.exchange_book ? (
            <Fact label="En échange de">
              {t.exchange_book.exists ? (
                <Link to={`/books/${t.exchange_book.id}`} className="text-primary-800 hover:underline">
                  {t.exchange_book.title}
                </Link>
              ) : (
                t.exchange_book.title
              )}
            </Fact>
          ) : null}
          <Fact label="Proposée le">{formatDateTime(t.created_at)}</Fact>
          {t.confirmed_at ? <Fact label="Confirmée le">{formatDateTime(t.confirmed_at)}</Fact> : null}
          {t.declined_at ? <Fact label="Refusée le">{formatDateTime(t.declined_at)}</Fact> : null}
          {t.cancelled_at ? (
            <Fact label="Annulée le">
              {formatDateTime(t.cancelled_at)}
              {t.cancelled_by === null ? ' (manuel cédé dans une autre transaction)' : ''}
            </Fact>
          ) : null}
        </dl>

        <div className="flex flex-wrap gap-2">
          <Link to={t.conversation_url} className={buttonClasses('outline', 'sm', 'max-w-full min-w-0')}>
            <MessageIcon size={16} className="shrink-0" />{' '}
            <span className="truncate">Conversation avec {other.name}</span>
          </Link>
        </div>

        {open ? (
          <div className="grid grid-cols-1 gap-2 border-t border-slate-100 pt-4 sm:flex sm:justify-end">
            {t.role === 'buyer' ? (
              <>
                <Button variant="outline" onClick={() => setAsked('decline')} disabled={act.isPending}>
                  Refuser
                </Button>
                <Button onClick={() => setAsked('confirm')} disabled={act.isPending}>
                  Confirmer la transaction
                </Button>
              </>
            ) : (
              <Button
                variant="outline"
                className="border-red-200 text-red-700 hover:bg-red-50"
                onClick={() => setAsked('cancel')}
                disabled={act.isPending}
              >
                Annuler la transaction
              </Button>
            )}
          </div>
        ) : null}

        {t.status === 'confirmed' ? <RatingState transaction={t} /> : null}
      </article>

      <ConfirmDialog
        open={asked !== null}
        title={asked ? DIALOGS[asked].title : ''}
        description={asked ? DIALOGS[asked].description(t) : undefined}
        confirmLabel={asked ? DIALOGS[asked].label : ''}
        tone={asked ? DIALOGS[asked].tone : 'primary'}
        loading={act.isPending}
        onConfirm={() => asked && run(asked)}
        onCancel={() => setAsked(null)}
      />
    </Container>
  );
}

function Party({ label, member, me }: { label: string; member: Transaction['seller']; me: boolean }) {
  return (
    <div>
      <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="mt-1 flex items-center gap-2">
        <Avatar name={member.name} image={member.profile_image} size="sm" />
        <Link to={`/profile/${member.id}`} className="truncate font-medium text-slate-900 hover:underline">
          {member.name}
        </Link>
        {me ? <span className="text-xs text-slate-500">(vous)</span> : null}
      </dd>
    </div>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="mt-1 text-sm text-slate-800">{children}</dd>
    </div>
  );
}

/** Who rated whom on this deal, and the way to rate or edit. */
function RatingState({ transaction: t }: { transaction: Transaction }) {
  const other = t.role === 'seller' ? t.buyer : t.seller;
  const { mine, theirs, can_rate } = t.rating;
  const editable = mine && Date.parse(mine.editable_until) > Date.now();
  return (
    <section aria-labelledby="rating-title" className="space-y-3 border-t border-slate-100 pt-4">
      <h2 id="rating-title" className="font-semibold text-slate-900">
        Évaluations
      </h2>
      {can_rate ? (
        <div className="flex flex-col gap-2 rounded-xl bg-primary-50 p-3 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-primary-900">Comment s’est passée la transaction avec {other.name} ?</p>
          <Link to={`/rate-transaction/${t.id}`} className={buttonClasses('primary', 'sm')}>
            <StarIcon size={16} /> Évaluer {other.name}
          </Link>
        </div>
      ) : null}
      {mine ? (
        <div className="rounded-xl border border-slate-200 p-3" data-testid="my-rating">
          <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
            Votre évaluation de {other.name} : <Stars value={mine.rating} />
          </p>
          <p className="mt-1 text-sm break-words text-slate-800">{mine.comment}</p>
          {editable ? (
            <Link to={`/rate-transaction/${t.id}`} className="mt-2 inline-block text-sm text-primary-800 underline">
              Modifier (jusqu’au {formatDateTime(mine.editable_until)})
            </Link>
          ) : null}
        </div>
      ) : null}
      {theirs ? (
        <div className="rounded-xl border border-slate-200 p-3" data-testid="their-rating">
          <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
            L’évaluation de {other.name} : <Stars value={theirs.rating} />
          </p>
          <p className="mt-1 text-sm break-words text-slate-800">{theirs.comment}</p>
        </div>
      ) : (
        <p className="text-sm text-slate-500">{other.name} ne vous a pas encore évalué(e).</p>
      )}
    </section>
  );
}
