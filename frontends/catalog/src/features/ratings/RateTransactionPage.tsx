import type { RatingForm } from '@cartable/contracts';
import { COMMENT_MAX_LENGTH, COMMENT_WARNING_LEFT } from '@cartable/contracts/limits';
import { dealMessages } from '@cartable/contracts/messages';
import {
  Alert,
  ApiError,
  Button,
  buttonClasses,
  ChevronLeftIcon,
  Container,
  cn,
  EmptyState,
  errorMessage,
  formatDateTime,
  isNotFound,
  notify,
  PageSpinner,
  StarIcon,
  Textarea,
  useDocumentTitle,
  useSubmissionKey,
} from '@cartable/ui';
import { Link, useNavigate, useParams } from '@cartable/ui/router';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { transactionQuery } from '../../entities/transaction/api/transactions';

import { useSaveRating } from './api/ratings';
import { ratingChecks } from './checks';
import { StarRating } from './StarRating';

/**
 * /rate-transaction/:transactionId: the member rates the other party of a confirmed deal (1 to 5
 * stars, a comment of 2 to 500 characters with a counter), or edits their rating within 7 days.
 */
export default function RateTransactionPage() {
  const { transactionId = '' } = useParams();
  const deal = useQuery(transactionQuery(transactionId));
  useDocumentTitle('Évaluer la transaction');

  if (deal.isPending) return <PageSpinner />;
  if (deal.isError) {
    const gone = isNotFound(deal.error) || (deal.error instanceof ApiError && deal.error.status === 403);
    return (
      <Container className="py-10">
        <EmptyState
          headingLevel={1}
          tone="warning"
          icon={<StarIcon size={26} />}
          title={gone ? 'Transaction introuvable' : 'Impossible de charger la transaction'}
          description={
            gone
              ? 'Elle n’existe pas, ou ne vous concerne pas : seules les deux parties d’une transaction peuvent l’évaluer.'
              : errorMessage(deal.error, 'Vérifiez votre connexion puis réessayez.')
          }
          action={
            <Link to="/transactions" className={buttonClasses('primary')}>
              Mes transactions
            </Link>
          }
        />
      </Container>
    );
  }
  const t = deal.data;
  const other = t.role === 'seller' ? t.buyer : t.seller;
  const mine = t.rating.mine;
  const expired = mine ? Date.parse(mine.editable_until) <= Date.now() : false;

  return (
    <Container className="max-w-2xl py-6 sm:py-10">
      <Link
        to={`/transactions/${t.id}`}
        className="mb-4 inline-flex items-center gap-1 text-sm font-medium text-primary-800 hover:underline"
      >
        <ChevronLeftIcon size={16} /> Retour à la transaction
      </Link>
      <div className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <h1 className="text-xl font-bold text-slate-900">
          {mine ? 'Modifier votre évaluation' : `Évaluer ${other.name}`}
        </h1>
        <p className="mt-1 text-sm text-slate-600">
          Transaction « {t.book.title} » avec {other.name}.
        </p>
        <div className="mt-5">
          {t.status !== 'confirmed' ? (
            <Alert tone="warning" title="Pas encore possible">
              {dealMessages.ratingNotConfirmed}
            </Alert>
          ) : expired ? (
            <Alert tone="info" title="Évaluation publiée">
              {dealMessages.ratingEditExpired}
            </Alert>
          ) : (
            <RatingFormBody
              transactionId={t.id}
              reviewId={mine?.id}
              initial={mine ? { rating: mine.rating, comment: mine.comment } : undefined}
              editableUntil={mine?.editable_until}
            />
          )}
        </div>
      </div>
    </Container>
  );
}

function RatingFormBody({
  transactionId,
  reviewId,
  initial,
  editableUntil,
}: {
  transactionId: string;
  reviewId: string | undefined;
  initial: RatingForm | undefined;
  editableUntil: string | undefined;
}) {
  const navigate = useNavigate();
  const save = useSaveRating();
  const submission = useSubmissionKey();
  const counterId = useId();
  const starsName = useId();
  const {
    control,
    register,
    handleSubmit,
    watch,
    setError,
    formState: { errors },
  } = useForm<RatingForm>({
    resolver: ratingChecks.resolver((checks) => checks.ratingResolver),
    defaultValues: initial ?? { rating: 0, comment: '' },
  });
  const comment = watch('comment') ?? '';
  const left = COMMENT_MAX_LENGTH - comment.length;

  const submit = handleSubmit((values) =>
    save.mutate(
      {
        id: reviewId,
        transactionId,
        rating: Number(values.rating),
        comment: values.comment,
        key: submission.current(),
      },
      {
        onSuccess: (data) => {
          submission.renew();
          void notify.success(data.message);
          navigate(`/transactions/${transactionId}`);
        },
        onError: (error) => {
          if (error instanceof ApiError && error.status === 422) {
            for (const field of ['rating', 'comment'] as const) {
              const message = error.fieldError(field);
              if (message) setError(field, { type: 'server', message });
            }
          } else submission.renew();
          void notify.error(errorMessage(error, 'Erreur lors de l’enregistrement de l’évaluation'));
        },
      },
    ),
  );

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4" {...ratingChecks.loadOnTouch}>
      <Controller
        control={control}
        name="rating"
        render={({ field }) => (
          <StarRating
            name={starsName}
            value={Number(field.value) || 0}
            onChange={field.onChange}
            error={errors.rating?.message}
          />
        )}
      />
      <div>
        <Textarea
          label="Votre commentaire"
          rows={4}
          placeholder="Ponctualité, état du manuel, échange cordial…"
          error={errors.comment?.message}
          aria-describedby={errors.comment ? undefined : counterId}
          {...register('comment')}
        />
        <p
          id={counterId}
          data-testid="rating-counter"
          className={cn(
            'mt-1 text-xs',
            left < 0
              ? 'font-semibold text-red-700'
              : left < COMMENT_WARNING_LEFT
                ? 'font-semibold text-accent-800'
                : 'text-slate-500',
          )}
        >
          {left >= 0
            ? `${left} caractère${left > 1 ? 's' : ''} restant${left > 1 ? 's' : ''}`
            : `${-left} caractère${left < -1 ? 's' : ''} en trop`}
        </p>
      </div>
      {editableUntil ? (
        <p className="text-xs text-slate-500">Modifiable jusqu’au {formatDateTime(editableUntil)}.</p>
      ) : (
        <p className="text-xs text-slate-500">Vous pourrez modifier votre évaluation pendant 7 jours.</p>
      )}
      <div className="grid grid-cols-1 gap-2 sm:flex sm:justify-end">
        <Button type="submit" loading={save.isPending} disabled={comment.trim().length === 0 || left < 0}>
          {reviewId ? 'Enregistrer les modifications' : 'Publier mon évaluation'}
        </Button>
      </div>
    </form>
  );
}
