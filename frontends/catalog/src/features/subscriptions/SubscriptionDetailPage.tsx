import { operatorLabels, paymentProviderLabels, paymentStatusLabels, planKindLabels } from '@cartable/contracts/labels';
import {
  ApiError,
  Badge,
  Button,
  Card,
  CardBody,
  CardHeader,
  CardTitle,
  ChevronLeftIcon,
  Container,
  DownloadIcon,
  EmptyState,
  errorMessage,
  formatDate,
  formatDateTime,
  formatPrice,
  isNotFound,
  LoadFailed,
  notify,
  Skeleton,
  useDocumentTitle,
} from '@cartable/ui';
import { Link, useParams } from '@cartable/ui/router';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { truncate } from '../../shared/books';
import { downloadReceipt, type SubscriptionDetail, subscriptionQuery } from './api/subscriptions';
import { Checkout } from './Checkout';
import { days, PAYMENT_STATUS_TONES, refusalSentence } from './labels';
import { SubscriptionStatusBadge } from './MySubscriptionsPage';

type DetailPayment = SubscriptionDetail['payments'][number];

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-3 py-2 text-sm">
      <dt className="text-slate-600">{label}</dt>
      <dd className="text-right font-medium break-words text-slate-900">{children}</dd>
    </div>
  );
}

/** « Détails de l'abonnement »: plan, dates, payments with state and references, refunds, the receipt. */
export default function SubscriptionDetailPage() {
  const { id = '' } = useParams();
  const query = useQuery(subscriptionQuery(id));
  const s = query.data;
  useDocumentTitle(s ? `Abonnement ${s.plan.name}` : "Détails de l'abonnement");
  const [declaring, setDeclaring] = useState<DetailPayment | null>(null);
  const [retrying, setRetrying] = useState(false);

  const back = (
    <Link
      to="/my-subscriptions"
      className="mb-4 inline-flex min-h-11 items-center gap-1 text-sm font-semibold text-primary-800"
    >
      <ChevronLeftIcon size={18} /> Mes abonnements
    </Link>
  );

  if (query.isError) {
    const gone = isNotFound(query.error) || (query.error instanceof ApiError && query.error.status === 403);
    return (
      <Container className="py-8">
        {back}
        {gone ? (
          <EmptyState
            headingLevel={1}
            title="Abonnement introuvable"
            description="Il n’existe pas ou n’est pas le vôtre."
          />
        ) : (
          <LoadFailed title="L’abonnement n’a pas pu être chargé" query={query} />
        )}
      </Container>
    );
  }

  if (!s) {
    return (
      <Container className="py-8">
        {back}
        <div aria-busy="true" className="space-y-4" data-testid="subscription-loading">
          <span className="sr-only" role="status">
            Chargement de l’abonnement…
          </span>
          <Skeleton className="h-9 w-2/3" />
          <Skeleton className="h-56 w-full rounded-xl" />
          <Skeleton className="h-40 w-full rounded-xl" />
        </div>
      </Container>
    );
  }

  const refunds = s.payments.flatMap((p) => p.refunds.map((r) => ({ ...r, reference: p.reference })));
  // Every payment refused or expired: « Réessayer le paiement » (here, from the follow page and the
  // list) must lead somewhere the member can pay again (POST /subscriptions/{id}/renew).
  const settled = s.payments.length > 0 && s.payments.every((p) => p.status === 'failed' || p.status === 'expired');
  const last = s.payments[0];
  const retryable = s.status === 'pending_payment' && settled && last;

  return (
    <Container className="py-8">
      {back}
      <div className="mb-6 flex flex-wrap items-start justify-between gap-2">
        <div>
          <p className="text-sm text-slate-600">{planKindLabels[s.plan.kind]}</p>
          <h1 className="text-2xl font-bold text-slate-900">{s.plan.name}</h1>
        </div>
        <SubscriptionStatusBadge status={s.status} refused={Boolean(retryable)} />
      </div>

      {retryable ? (
        <section
          aria-labelledby="retry-title"
          className="mb-6 rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-900"
          data-testid="retry-payment"
        >
          <h2 id="retry-title" className="font-semibold">
            {last.status === 'expired' ? 'Demande de paiement expirée.' : refusalSentence(last.failure_reason)}
          </h2>
          <p className="mt-1">Rien n’a été débité. Vous pouvez payer à nouveau, avec le même numéro ou un autre.</p>
          <Button className="mt-3 w-full sm:w-auto" onClick={() => setRetrying(true)}>
            Réessayer le paiement
          </Button>
        </section>
      ) : null}

      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Abonnement</CardTitle>
          </CardHeader>
          <CardBody>
            <dl className="divide-y divide-slate-100">
              <Row label="Prix">
                {formatPrice(s.plan.price)} pour {days(s.plan.duration_days)}
              </Row>
              <Row label="Début">{s.starts_at ? formatDate(s.starts_at) : 'Au paiement'}</Row>
              <Row label="Fin">{s.ends_at ? formatDate(s.ends_at) : '—'}</Row>
              {s.status === 'active' ? <Row label="Jours restants">{days(s.days_left)}</Row> : null}
              {s.plan.kind === 'member' ? <Row label="Annonces à la une">{s.plan.boost_slots} à la fois</Row> : null}
              {s.cancelled_at ? (
                <Row label="Arrêté le">
                  {formatDate(s.cancelled_at)}
                  {s.cancel_reason ? (
                    <span className="block text-xs font-normal text-slate-600">{s.cancel_reason}</span>
                  ) : null}
                </Row>
              ) : null}
            </dl>
          </CardBody>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Annonces mises en avant</CardTitle>
          </CardHeader>
          <CardBody>
            {s.book_history.length === 0 ? (
              <p className="text-sm text-slate-600">
                {s.status === 'pending_payment' ? 'La mise en avant commence au paiement.' : 'Aucune annonce.'}
              </p>
            ) : (
              <ul className="space-y-2 text-sm">
                {s.book_history.map((b) => (
                  <li key={b.id} className="flex flex-wrap items-center justify-between gap-2">
                    <Link to={`/books/${b.book_id}`} className="tap-target text-primary-800 hover:underline">
                      {truncate(b.book_title, 60)}
                    </Link>
                    <span className="text-xs text-slate-600">
                      {b.ended_at
                        ? `jusqu’au ${formatDate(b.ended_at)}`
                        : `en cours, jusqu’au ${formatDate(b.ends_at)}`}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </CardBody>
        </Card>
      </div>

      <section aria-labelledby="payments-title" className="mt-6">
        <h2 id="payments-title" className="mb-3 text-lg font-semibold text-slate-900">
          Paiements
        </h2>
        {s.payments.length === 0 ? (
          <p className="text-sm text-slate-600">Aucun paiement.</p>
        ) : (
          <ul className="space-y-3">
            {s.payments.map((p) => (
              <li key={p.id}>
                <PaymentCard payment={p} onDeclare={() => setDeclaring(p)} />
              </li>
            ))}
          </ul>
        )}
      </section>

      {refunds.length > 0 ? (
        <section aria-labelledby="refunds-title" className="mt-6">
          <h2 id="refunds-title" className="mb-3 text-lg font-semibold text-slate-900">
            Remboursements
          </h2>
          <ul className="space-y-2">
            {refunds.map((r) => (
              <li key={r.id} className="rounded-xl border border-ocean-200 bg-ocean-50 p-3 text-sm text-ocean-900">
                <strong>{formatPrice(r.amount)}</strong> remboursés le {formatDate(r.created_at)} (paiement{' '}
                {r.reference})<span className="block text-ocean-800">Motif : {r.reason}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {declaring ? (
        <Checkout
          open
          onClose={() => setDeclaring(null)}
          plan={{ id: s.plan_id, ...s.plan }}
          resume={{ subscriptionId: s.id, payment: declaring }}
        />
      ) : null}
      {retrying ? (
        <Checkout
          open
          onClose={() => setRetrying(false)}
          plan={{ id: s.plan_id, ...s.plan }}
          book={s.book ?? undefined}
          renewOf={s.id}
          retry
        />
      ) : null}
    </Container>
  );
}

function PaymentCard({ payment: p, onDeclare }: { payment: DetailPayment; onDeclare: () => void }) {
  const [downloading, setDownloading] = useState(false);
  const download = () => {
    setDownloading(true);
    downloadReceipt(p)
      .catch((error: unknown) => notify.error(errorMessage(error, 'Le reçu n’a pas pu être téléchargé.')))
      .finally(() => setDownloading(false));
  };
  return (
    <article className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="payment-card">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p className="text-lg font-bold text-slate-900">{formatPrice(p.amount)}</p>
        <Badge tone={PAYMENT_STATUS_TONES[p.status]}>{paymentStatusLabels[p.status]}</Badge>
      </div>
      <dl className="mt-2 grid grid-cols-1 gap-x-4 text-sm sm:grid-cols-2">
        <Row label="Référence">{p.reference}</Row>
        <Row label="Opérateur">{operatorLabels[p.operator]}</Row>
        <Row label="Moyen">{paymentProviderLabels[p.provider] ?? p.provider}</Row>
        {p.provider_reference ? <Row label="Réf. transaction">{p.provider_reference}</Row> : null}
        <Row label="Créé le">{formatDateTime(p.created_at)}</Row>
        {p.paid_at ? <Row label="Payé le">{formatDateTime(p.paid_at)}</Row> : null}
        {p.refunded_amount > 0 ? <Row label="Remboursé">{formatPrice(p.refunded_amount)}</Row> : null}
      </dl>
      {p.status === 'failed' ? <p className="mt-2 text-sm text-red-700">{refusalSentence(p.failure_reason)}</p> : null}
      {p.status === 'submitted' ? (
        <p className="mt-2 text-sm text-ocean-800">Paiement déclaré : un administrateur va le vérifier.</p>
      ) : null}
      <div className="mt-3 flex flex-wrap gap-2">
        {p.status === 'paid' ? (
          <Button
            variant="outline"
            size="sm"
            leftIcon={<DownloadIcon size={16} />}
            loading={downloading}
            onClick={download}
          >
            Télécharger le reçu (PDF)
          </Button>
        ) : null}
        {p.status === 'pending' && p.provider === 'manual' ? (
          <Button size="sm" onClick={onDeclare}>
            Déclarer mon paiement
          </Button>
        ) : null}
        {(p.status === 'pending' || p.status === 'ambiguous') && p.provider !== 'manual' ? (
          <Link
            to={`/payment/${p.id}`}
            className="inline-flex min-h-11 items-center text-sm font-semibold text-primary-800 underline"
          >
            {p.status === 'pending'
              ? 'En attente de votre confirmation : suivre le paiement'
              : 'Vérification en cours : suivre le paiement'}
          </Link>
        ) : null}
      </div>
    </article>
  );
}
