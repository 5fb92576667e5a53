import { Spinner } from '@cartable/ui';
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
  return (
    <div
      role="status"
      className="flex items-center gap-3 rounded-xl border border-slate-200 p-3 text-sm text-slate-700"
    >
      <Spinner size="sm" label="" />
      <span>
        En attente de la confirmation de l’opérateur… Validez la demande reçue sur votre téléphone avec votre code
        secret. Cette fenêtre se met à jour toute seule.
      </span>
    </div>
  );
}
