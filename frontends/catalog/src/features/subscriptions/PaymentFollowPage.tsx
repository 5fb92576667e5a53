import { operatorLabels, paymentStatusLabels } from '@cartable/contracts/labels';
import {
  ApiError,
  Badge,
  Button,
  Card,
  CardBody,
  CheckCircleIcon,
  ChevronLeftIcon,
  ClockIcon,
  Container,
  DownloadIcon,
  EmptyState,
  errorMessage,
  formatDateTime,
  formatPhone,
  formatPrice,
  isNotFound,
  LoadFailed,
  notify,
  PhoneIcon,
  Skeleton,
  Spinner,
  useDocumentTitle,
} from '@cartable/ui';
import { Link, useParams } from '@cartable/ui/router';
import { onlineManager, useQuery } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { downloadReceipt, paymentFollowQuery } from './api/subscriptions';
import { PAYMENT_STATUS_TONES, refusalSentence } from './labels';

/** The state is read again this often while the payer or the provider has not answered. */
const POLL_MS = 3_000;

/** « 1 h 05 min », « 4 min 09 s »: how long the operator still waits for the payer. */
export function timeLeft(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  if (hours > 0) return `${hours} h ${String(minutes).padStart(2, '0')} min`;
  return `${minutes} min ${String(seconds).padStart(2, '0')} s`;
}

function useNow(active: boolean) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [active]);
  return now;
}

const useOnline = () =>
  useSyncExternalStore(
    (change) => onlineManager.subscribe(change),
    () => onlineManager.isOnline(),
    () => true,
  );

/**
 * One payment as it happens (/payment/:id): the number and amount to confirm on the phone, the
 * time left, then paid, refused, expired or « vérification en cours », each with what to do next.
 * It reads the state from the server, so a reload or a connection lost and back finds it again.
 */
export default function PaymentFollowPage() {
  const { id = '' } = useParams();
  const online = useOnline();
  const query = useQuery({
    ...paymentFollowQuery(id),
    refetchInterval: (q) => {
      // A payment that does not exist, or is not the member's, will not appear by asking again.
      if (isNotFound(q.state.error) || (q.state.error instanceof ApiError && q.state.error.status === 403))
        return false;
      const status = q.state.data?.payment.status;
      return !status || status === 'pending' || status === 'ambiguous' || status === 'submitted' ? POLL_MS : false;
    },
  });
  const follow = query.data;
  const p = follow?.payment;
  const waiting = p?.status === 'pending';
  const now = useNow(Boolean(waiting && p?.expires_at));
  useDocumentTitle(p ? `Paiement ${p.reference}` : 'Suivi du paiement');
  const [downloading, setDownloading] = useState(false);

  const back = (
    <Link
      to={p ? `/subscription/details/${p.subscription_id}` : '/my-subscriptions'}
      className="mb-4 inline-flex min-h-11 items-center gap-1 text-sm font-semibold text-primary-800"
    >
      <ChevronLeftIcon size={18} /> {p ? 'L’abonnement' : 'Mes abonnements'}
    </Link>
  );

  if (query.isError && !p) {
    const gone = isNotFound(query.error) || (query.error instanceof ApiError && query.error.status === 403);
    return (
      <Container className="max-w-xl py-8">
        {back}
        {gone ? (
          <EmptyState
            headingLevel={1}
            title="Paiement introuvable"
            description="Il n’existe pas ou n’est pas le vôtre."
          />
        ) : (
          <LoadFailed title="Le paiement n’a pas pu être chargé" query={query} />
        )}
      </Container>
    );
  }
  if (!p || !follow) {
    return (
      <Container className="max-w-xl py-8">
        {back}
        <div aria-busy="true" className="space-y-4">
          <span className="sr-only" role="status">
            Chargement du paiement…
          </span>
          <Skeleton className="h-9 w-2/3" />
          <Skeleton className="h-56 w-full rounded-xl" />
        </div>
      </Container>
    );
  }

  const expiresIn = p.expires_at ? new Date(p.expires_at).getTime() - now : null;
  const phone = p.payer_phone ? formatPhone(p.payer_phone) : 'votre téléphone';
  const download = () => {
    setDownloading(true);
    downloadReceipt(p)
      .catch((error: unknown) => notify.error(errorMessage(error, 'Le reçu n’a pas pu être téléchargé.')))
      .finally(() => setDownloading(false));
  };
  const toSubscription = (label: string) => (
    <Link
      to={`/subscription/details/${p.subscription_id}`}
      className="inline-flex h-11 items-center justify-center rounded-lg bg-primary-700 px-4 text-sm font-semibold text-white hover:bg-primary-800"
    >
      {label}
    </Link>
  );

  return (
    <Container className="max-w-xl py-8">
      {back}
      <div className="mb-4 flex flex-wrap items-start justify-between gap-2">
        <div>
          <p className="text-sm text-slate-600">{follow.plan_name}</p>
          <h1 className="text-2xl font-bold text-slate-900">{formatPrice(p.amount)}</h1>
        </div>
        <Badge tone={PAYMENT_STATUS_TONES[p.status]}>{paymentStatusLabels[p.status]}</Badge>
      </div>

      {!online ? (
        <p role="status" className="mb-3 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
          Connexion perdue : l’état du paiement sera relu dès le retour du réseau.
        </p>
      ) : null}

      <Card>
        <CardBody>
          <div aria-live="polite" data-testid="payment-state">
            {p.status === 'pending' ? (
              <div className="space-y-3">
                <p className="flex items-center gap-2 text-lg font-semibold text-slate-900">
                  <Spinner size="sm" label="" /> En attente de votre confirmation
                </p>
                <p className="text-sm text-slate-700">
                  Une demande de {formatPrice(p.amount)} ({operatorLabels[p.operator]}) a été envoyée au{' '}
                  <strong>{phone}</strong>. Confirmez-la sur ce téléphone avec votre code secret.
                </p>
                {expiresIn !== null ? (
                  <p className="text-sm text-slate-700" data-testid="payment-countdown">
                    {expiresIn > 0
                      ? `La demande expire dans ${timeLeft(expiresIn)}.`
                      : 'La demande arrive à expiration : nous vérifions auprès de l’opérateur.'}
                  </p>
                ) : null}
                {/* The provider's steps would only repeat the sentence above, with the number unformatted. */}
              </div>
            ) : p.status === 'ambiguous' ? (
              <div className="space-y-3">
                <p className="flex items-center gap-2 text-lg font-semibold text-slate-900">
                  <ClockIcon size={22} /> Vérification en cours auprès de l’opérateur
                </p>
                <p className="text-sm text-slate-700">
                  L’opérateur n’a pas encore dit si le paiement a abouti. Si une demande s’affiche sur {phone},
                  confirmez-la. Ne payez pas une seconde fois : nous vérifions, et votre abonnement s’active dès que le
                  paiement est confirmé ; s’il n’aboutit pas, rien n’est débité.
                </p>
              </div>
            ) : p.status === 'submitted' ? (
              <p className="text-sm text-slate-700">
                Paiement déclaré : un administrateur le vérifie, puis votre abonnement s’active.
              </p>
            ) : p.status === 'paid' ? (
              <div className="space-y-3">
                <p className="flex items-center gap-2 text-lg font-semibold text-primary-800">
                  <CheckCircleIcon size={22} /> Paiement confirmé
                </p>
                <p className="text-sm text-slate-700">
                  {p.refunded_amount > 0
                    ? `Ce paiement vous a été remboursé (${formatPrice(p.refunded_amount)}).`
                    : `Payé le ${formatDateTime(p.paid_at)} : votre abonnement est actif.`}
                </p>
                <div className="grid gap-2 sm:grid-cols-2">
                  {toSubscription('Voir l’abonnement')}
                  <Button
                    variant="outline"
                    leftIcon={<DownloadIcon size={16} />}
                    loading={downloading}
                    onClick={download}
                  >
                    Télécharger le reçu
                  </Button>
                </div>
              </div>
            ) : p.status === 'failed' ? (
              <div className="space-y-3">
                <p className="flex items-center gap-2 text-lg font-semibold text-red-800">
                  <PhoneIcon size={22} /> {refusalSentence(p.failure_reason)}
                </p>
                <p className="text-sm text-slate-700">
                  Rien n’a été débité. Vérifiez votre solde ou le numéro, puis réessayez depuis l’abonnement.
                </p>
                {toSubscription('Réessayer le paiement')}
              </div>
            ) : (
              <div className="space-y-3">
                <p className="flex items-center gap-2 text-lg font-semibold text-slate-900">
                  <ClockIcon size={22} /> Demande expirée
                </p>
                <p className="text-sm text-slate-700">
                  La demande n’a pas été confirmée à temps : rien n’a été débité. Vous pouvez en envoyer une nouvelle.
                </p>
                {toSubscription('Payer à nouveau')}
              </div>
            )}
          </div>
          <dl className="mt-4 grid grid-cols-1 gap-1 border-t border-slate-100 pt-3 text-sm sm:grid-cols-2">
            <div>
              <dt className="text-slate-600">Référence</dt>
              <dd className="font-mono font-medium text-slate-900">{p.reference}</dd>
            </div>
            <div>
              <dt className="text-slate-600">Opérateur</dt>
              <dd className="font-medium text-slate-900">{operatorLabels[p.operator]}</dd>
            </div>
          </dl>
        </CardBody>
      </Card>
    </Container>
  );
}
