import { Spinner } from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { subscriptionQuery } from '../api/subscriptions';

const POLL_MS = 3_000;

/** The wait for the aggregator: the subscription is read again until its payment settles. */
export function AggregatorWait({
  subscriptionId,
  paymentId,
  onActive,
  onFailed,
}: {
  subscriptionId: string;
  paymentId: string;
  onActive: () => void;
  onFailed: (reason: string) => void;
}) {
  const subscription = useQuery({
    ...subscriptionQuery(subscriptionId),
    refetchInterval: (query) => (query.state.data?.status === 'pending_payment' || !query.state.data ? POLL_MS : false),
  });
  const data = subscription.data;
  const payment = data?.payments.find((p) => p.id === paymentId);
  useEffect(() => {
    if (data?.status === 'active' && (!payment || payment.status === 'paid')) onActive();
    else if (payment && (payment.status === 'failed' || payment.status === 'expired'))
      onFailed(payment.failure_reason ?? 'Le paiement a été refusé ou a expiré.');
  }, [data?.status, payment, onActive, onFailed]);
  const ambiguous = payment?.status === 'ambiguous';
  return (
    <div role="status" className="flex items-start gap-3 rounded-xl border border-slate-200 p-3 text-sm text-slate-700">
      <Spinner size="sm" label="" className="mt-0.5 shrink-0" />
      <div className="min-w-0">
        <p className="font-semibold text-slate-900">
          {ambiguous ? 'Vérification en cours auprès de l’opérateur' : 'En attente de votre confirmation'}
        </p>
        <p className="mt-1">
          {ambiguous
            ? 'Si une demande s’affiche sur votre téléphone, confirmez-la ; ne payez pas une seconde fois.'
            : 'Cette fenêtre se met à jour toute seule. Vous pouvez aussi la fermer et suivre le paiement sur sa page.'}
        </p>
        {/* A page of its own survives a reload or a closed dialog while the payer takes their time. */}
        <Link
          to={`/payment/${paymentId}`}
          className="inline-flex min-h-11 items-center font-semibold text-primary-800 underline"
        >
          Suivre ce paiement
        </Link>
      </div>
    </div>
  );
}
